/**
 * Offline benchmarks (issue 15 point 9), in Chromium through Playwright against the built app served by
 * `server/main.ts` (demo data, PGlite in a temp folder):
 *
 * 1. Repeat visit offline: a visitor opened the home once online (the service worker installed and kept the listing);
 *    with the network off, each reload is timed from navigation start to the first model card on screen (recorded
 *    in the page by a MutationObserver, so Playwright's own round trips are not counted). Median of BENCH_OFFLINE_RUNS
 *    (default 7) reloads.
 * 2. Replay after reconnection: a signed-in demo model queues 100 operations while offline (ad edits, ad on/off,
 *    photos, chat messages), written straight into the outbox's IndexedDB table in the shape `enqueue` writes (so the
 *    edits are not coalesced into one, as the app would do); then the network returns and the time until nothing is
 *    left to send is measured in the page (the app's `online` listener starts the replay). One run per model
 *    (BENCH_REPLAY_RUNS models); the server's state is checked afterwards (each op applied once).
 *
 * `npm run bench -- --only offline` writes the section into docs/benchmarks.md; on its own,
 * `npx tsx bench/lib/offline.ts` prints it. Environment: BENCH_DIST_DIR (an existing build; otherwise one is made),
 * CHROME_PATH, BENCH_OFFLINE_PORT (5397), BENCH_OFFLINE_RUNS, BENCH_REPLAY_RUNS (3).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startAppServer } from './app-server.ts';

export const OFFLINE_START = '<!-- offline:start -->';
export const OFFLINE_END = '<!-- offline:end -->';

const DEMO_PASSWORD = 'demo-password-123';

export interface ReplayRun {
  ops: number;
  ms: number;
  /** What the server shows afterwards: each kind's count as expected (exactly once). */
  exact: boolean;
  detail: string;
}

export interface OfflineReport {
  date: string;
  chromium: string;
  machine: string;
  load: [number, number];
  /** ms from navigation start to the first model card, per offline reload. */
  repeatVisit: number[] | { error: string };
  replay: { mix: string; runs: ReplayRun[] } | { error: string };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};

function build(root: string): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-offline-dist-'));
  execFileSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return outDir;
}

/**
 * Chromium under Playwright forgets the offline emulation for the document a reload brings (navigator.onLine is
 * true again while requests still fail): switching it off and on again tells the new document.
 */
async function offlineAgain(context: BrowserContext) {
  await context.setOffline(false);
  await context.setOffline(true);
}

/** tsx (esbuild, keepNames) wraps named functions in `__name(…)`: the page's functions need it defined there too. */
const NAME_HELPER = { content: 'globalThis.__name = (fn) => fn;' };

/** Records, in the page, when the first model card is attached (ms since the navigation started). */
const FIRST_CARD_PROBE = () => {
  const w = window as unknown as { __firstCardAt?: number };
  const check = () => {
    if (w.__firstCardAt === undefined && document.querySelector('[data-testid="model-card"]')) w.__firstCardAt = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  check();
};

async function repeatVisit(browser: Browser, origin: string, runs: number, log: (m: string) => void): Promise<number[]> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 412, height: 823 }, serviceWorkers: 'allow' });
  try {
    await context.addInitScript(NAME_HELPER);
    await context.addInitScript(FIRST_CARD_PROBE);
    await context.addInitScript(() => {
      // The consent banner is not what is measured.
      if (!localStorage.getItem('cookie-consent')) localStorage.setItem('cookie-consent', 'rejected');
    });
    const page = await context.newPage();
    await page.goto(`${origin}/es`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.locator('[data-testid="model-card"]').first().waitFor({ timeout: 60_000 });
    // The worker keeps the listing answer and the photos as they go through it: wait until what is shown is kept.
    await waitFor(
      page,
      () =>
        page.evaluate(async () => {
          if (!navigator.serviceWorker.controller) return false;
          const keys = await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys()));
          const kept = new Set(keys.flat().map((r) => r.url));
          const urls = [...kept].map((u) => new URL(u).pathname);
          const shown = [...document.querySelectorAll<HTMLImageElement>('[data-testid="model-card"] img')]
            .map((img) => img.currentSrc)
            .filter(Boolean);
          return urls.includes('/api/models') && shown.every((u) => kept.has(u));
        }),
      30_000,
    );
    await context.setOffline(true);
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      await page.reload({ waitUntil: 'commit' });
      await offlineAgain(context);
      await page.locator('[data-testid="model-card"]').first().waitFor({ timeout: 30_000 });
      const at = await page.evaluate(() => (window as unknown as { __firstCardAt?: number }).__firstCardAt);
      if (at === undefined) throw new Error('the first card was not recorded');
      samples.push(at);
      log(`offline: repeat visit ${i + 1}/${runs}: first card at ${at.toFixed(0)} ms`);
    }
    return samples;
  } finally {
    await context.close();
  }
}

async function waitFor(page: Page, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await page.waitForTimeout(100);
  }
}

export async function benchOffline(root: string, log: (msg: string) => void): Promise<OfflineReport> {
  // The service worker's own requests follow context.setOffline only with this set before the browser starts.
  process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';
  const port = Number(process.env.BENCH_OFFLINE_PORT ?? 5397);
  const runs = Number(process.env.BENCH_OFFLINE_RUNS ?? 7);
  const replayRuns = Number(process.env.BENCH_REPLAY_RUNS ?? 3);
  const dist = process.env.BENCH_DIST_DIR ? path.resolve(process.env.BENCH_DIST_DIR) : undefined;
  let built: string | undefined;
  if (!dist) {
    log('offline: vite build');
    built = build(root);
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  const server = await startAppServer(root, dist ?? built!, port, {
    ...process.env,
    NODE_ENV: 'test',
    APP_KEY: crypto.randomBytes(32).toString('hex'),
    SEED_DEMO: 'true',
    DEMO_PASSWORD,
  });
  const report: OfflineReport = {
    date: new Date().toISOString(),
    chromium: browser.version(),
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown'}`,
    load: [os.loadavg()[0]!, 0],
    repeatVisit: { error: 'not run' },
    replay: { error: 'not run' },
  };
  try {
    try {
      report.repeatVisit = await repeatVisit(browser, server.origin, runs, log);
    } catch (err) {
      report.repeatVisit = { error: err instanceof Error ? err.message : String(err) };
      log(`offline: repeat visit failed: ${String(err)}`);
    }
    try {
      report.replay = await replay(browser, server.origin, replayRuns, log);
    } catch (err) {
      report.replay = { error: err instanceof Error ? err.message : String(err) };
      log(`offline: replay failed: ${String(err)}`);
    }
  } finally {
    report.load[1] = os.loadavg()[0]!;
    server.stop();
    await browser.close();
    if (built) fs.rmSync(built, { recursive: true, force: true });
  }
  return report;
}

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

/** Signs in through the API in the context's cookie jar (the page then starts signed in). */
async function apiSignIn(page: Page, email: string) {
  await page.request.get('/sanctum/csrf-cookie', { headers: XHR });
  const xsrf = async () => decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const res = await page.request.post('/api/login', {
    headers: { ...XHR, 'X-XSRF-TOKEN': await xsrf() },
    data: { email, password: DEMO_PASSWORD },
  });
  if (!res.ok()) throw new Error(`login ${email}: ${res.status()} ${await res.text()}`);
  return {
    get: async <T>(path: string): Promise<T> => {
      const r = await page.request.get(path, { headers: XHR });
      if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`);
      return (await r.json()) as T;
    },
    post: async <T>(path: string, data: unknown): Promise<T> => {
      const r = await page.request.post(path, { headers: { ...XHR, 'X-XSRF-TOKEN': await xsrf() }, data });
      if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`);
      return (await r.json()) as T;
    },
  };
}

interface Profile {
  id: number;
  display_name: string;
  birth_date: string | null;
  phone_country: string | null;
  phone: string | null;
  whatsapp: boolean;
  country_id: number | null;
  version: number;
  user: { id: number } | null;
  ad: {
    id: number;
    title: string;
    description: string;
    section: string;
    city_id: number;
    state_id: number;
    version: number;
    is_active: boolean;
  } | null;
}

/** How long a replay may take before the run stops and reports what is left. */
const SETTLE_MS = Number(process.env.BENCH_REPLAY_SETTLE_MS ?? 300_000);

/** The mix queued in each run (100 operations). */
const MIX = { edits: 40, switches: 20, photos: 10, messages: 30 };

/**
 * One run: `email` (a demo model with an ad) queues MIX offline — ad edits chained on one version (replay moves each
 * to the version the previous one made), the ad switched off and on, photos (1200×900 JPEGs drawn in the page),
 * support messages (30: the chat's per-minute limit) — straight into the outbox table, in the shape enqueue writes;
 * then the network returns and the time until the table is empty is taken in the page (from the `online` event).
 */
async function replayRun(browser: Browser, origin: string, email: string, log: (m: string) => void): Promise<ReplayRun> {
  const context = await browser.newContext({ baseURL: origin, locale: 'es-ES', serviceWorkers: 'allow' });
  try {
    await context.addInitScript(NAME_HELPER);
    await context.addInitScript(() => {
      if (!localStorage.getItem('cookie-consent')) localStorage.setItem('cookie-consent', 'rejected');
    });
    const page = await context.newPage();
    const api = await apiSignIn(page, email);
    const profile = (await api.get<{ data: Profile }>('/api/profile/model')).data;
    if (!profile.ad || !profile.user) throw new Error(`${email} has no ad`);
    const conversation = (await api.post<{ data: { id: number } }>('/api/support/chat/conversations', {})).data;
    const photosBefore = (await api.get<{ data: unknown[] }>(`/api/getImagesByAd/${profile.ad.id}`)).data.length;
    const messagesBefore = (await api.get<{ data: unknown[] }>(`/api/support/chat/${conversation.id}/messages?limit=100`)).data.length;

    // The app started signed in: its outbox runtime replays when the network returns.
    await page.goto('/es');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.locator('[data-testid="model-card"]').first().waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    // The header's sync indicator says "offline": the outbox runtime (which replays on `online`) is running.
    await page.locator('[data-testid="sync-indicator"][data-state="offline"]').waitFor({ timeout: 60_000 });

    const countries = await api.get<{ data: { id: number; iso2: string }[] } | { id: number; iso2: string }[]>('/api/countries');
    const spain = (Array.isArray(countries) ? countries : countries.data).find((c) => c.iso2 === 'ES')?.id;
    const base = {
      display_name: profile.display_name,
      birth_date: profile.birth_date,
      // The form requires a phone; a demo model without one gets a valid Spanish number.
      phone_country: profile.phone_country ?? 'ES',
      phone: profile.phone ?? '612345678',
      whatsapp: profile.whatsapp,
      // The demo catalogue's models have no country of their own: their ads are in Spain.
      country_id: profile.country_id ?? spain,
      state_id: profile.ad.state_id,
      city_id: profile.ad.city_id,
      section: profile.ad.section,
      title: profile.ad.title,
    };
    const queued = await page.evaluate(
      async ({ userId, profileId, adId, conversationId, base, description, version, mix }) => {
        const jpeg = async (i: number) => {
          const canvas = new OffscreenCanvas(1200, 900);
          const ctx = canvas.getContext('2d')!;
          ctx.fillStyle = `hsl(${i * 36}, 60%, 50%)`;
          ctx.fillRect(0, 0, 1200, 900);
          for (let k = 0; k < 400; k++) {
            ctx.fillStyle = `hsl(${(i * 36 + k) % 360}, 70%, ${30 + (k % 40)}%)`;
            ctx.fillRect((k * 97) % 1200, (k * 53) % 900, 40, 40);
          }
          return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
        };
        const ops: Record<string, unknown>[] = [];
        const now = Date.now();
        const op = (fields: Record<string, unknown>) =>
          ops.push({
            id: crypto.randomUUID(),
            userId,
            seq: ops.length + 1,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: 0,
            createdAt: now,
            updatedAt: now,
            label: 'bench',
            ...fields,
          });
        // Interleaved, as a person's offline session would be.
        const total = mix.edits + mix.switches + mix.photos + mix.messages;
        const counts = { edits: 0, switches: 0, photos: 0, messages: 0 };
        for (let i = 0; i < total; i++) {
          const kind = (
            ['edits', 'messages', 'switches', 'edits', 'photos', 'messages', 'edits', 'switches', 'messages', 'edits'] as const
          )[i % 10]!;
          const pick = counts[kind] < mix[kind] ? kind : (Object.keys(mix) as (keyof typeof mix)[]).find((k) => counts[k] < mix[k])!;
          const n = counts[pick]++;
          if (pick === 'edits')
            op({
              scope: `model-profile:${profileId}`,
              kind: 'profile.update',
              method: 'PUT',
              path: `/api/profile/model-with-ad/update/${profileId}`,
              body: { ...base, description: `${description} (${n + 1})`, version },
              baseVersion: version,
            });
          else if (pick === 'switches')
            op({
              scope: `model-ad:${adId}:active`,
              kind: 'ad.activate',
              method: 'PUT',
              path: `/api/profile/model/activate/${adId}/${n % 2 ? 1 : 0}`,
            });
          else if (pick === 'messages')
            op({
              scope: `chat:${conversationId}`,
              kind: 'chat.message',
              method: 'POST',
              path: `/api/support/chat/${conversationId}/messages`,
              body: { content: `Mensaje ${n + 1} sin conexión` },
            });
          else
            op({
              scope: `photos:ad:${adId}`,
              kind: 'photo.upload',
              method: 'POST',
              path: '/api/upload/images',
              parts: [
                { name: 'ad_id', value: String(adId) },
                { name: 'images', blob: await jpeg(n), filename: `bench-${n + 1}.jpg` },
              ],
            });
        }
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open('vitrina-outbox');
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(new Error(String(req.error)));
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('ops', 'readwrite');
          for (const o of ops) tx.objectStore('ops').put(o);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(new Error(String(tx.error)));
        });
        // Timed in the page: from the `online` event until nothing is left to send (the table empty, or only ops that
        // wait for the user: those are reported).
        const w = window as unknown as { __replay?: Promise<{ ms: number; left: { status: string; code?: string; kind: string }[] }> };
        w.__replay = new Promise((resolve) => {
          window.addEventListener(
            'online',
            () => {
              const t0 = performance.now();
              const poll = () => {
                const req = db.transaction('ops').objectStore('ops').getAll();
                req.onsuccess = () => {
                  const all = req.result as { status: string; kind: string; error?: { code?: string; status?: number } }[];
                  if (all.some((o) => o.status === 'pending' || o.status === 'sending')) return void setTimeout(poll, 20);
                  resolve({
                    ms: performance.now() - t0,
                    left: all.map((o) => ({ status: o.status, kind: o.kind, code: o.error?.code ?? String(o.error?.status ?? '') })),
                  });
                };
              };
              poll();
            },
            { once: true },
          );
        });
        return ops.length;
      },
      {
        userId: profile.user.id,
        profileId: profile.id,
        adId: profile.ad.id,
        conversationId: conversation.id,
        base,
        description: profile.ad.description.slice(0, 900),
        version: profile.version,
        mix: MIX,
      },
    );
    await context.setOffline(false);
    const outcome = await page.evaluate(
      (settleMs) =>
        Promise.race([
          (window as unknown as { __replay: Promise<{ ms: number; left: { status: string; code?: string; kind: string }[] }> }).__replay,
          // Not settled in time: what is left, to say why.
          new Promise<{ ms: number; left: { status: string; code?: string; kind: string }[] }>((resolve) =>
            setTimeout(() => {
              const open = indexedDB.open('vitrina-outbox');
              open.onsuccess = () => {
                const req = open.result.transaction('ops').objectStore('ops').getAll();
                req.onsuccess = () =>
                  resolve({
                    ms: NaN,
                    left: (
                      req.result as { status: string; kind: string; attempts: number; error?: { code?: string; status?: number } }[]
                    ).map((o) => ({
                      status: `${o.status} after ${o.attempts} attempts`,
                      kind: o.kind,
                      code: `${o.error?.code ?? String(o.error?.status ?? '')} ${JSON.stringify((o.error as { errors?: unknown } | undefined)?.errors ?? '')}`,
                    })),
                  });
              };
            }, settleMs),
          ),
        ]),
      SETTLE_MS,
    );
    const took = outcome.ms;
    if (outcome.left.length) log(`offline: left in the queue: ${JSON.stringify(outcome.left.slice(0, 5))} (${outcome.left.length})`);

    const photos = (await api.get<{ data: unknown[] }>(`/api/getImagesByAd/${profile.ad.id}`)).data.length - photosBefore;
    const messages =
      (await api.get<{ data: unknown[] }>(`/api/support/chat/${conversation.id}/messages?limit=100`)).data.length - messagesBefore;
    const after = (await api.get<{ data: Profile }>('/api/profile/model')).data;
    const edits = after.version - profile.version;
    const exact =
      photos === MIX.photos &&
      messages === MIX.messages &&
      after.ad?.description === `${profile.ad.description.slice(0, 900)} (${MIX.edits})`;
    const detail = `${photos} photos, ${messages} messages, version +${edits}, ad ${after.ad?.is_active ? 'on' : 'off'}${
      outcome.left.length
        ? `, ${outcome.left.length} left (${[...new Set(outcome.left.map((o) => `${o.kind} ${o.status} ${o.code}`))].join('; ')})`
        : ''
    }`;
    log(`offline: replay of ${queued} ops by ${email}: ${took.toFixed(0)} ms (${detail})`);
    return { ops: queued, ms: took, exact, detail };
  } finally {
    await context.close();
  }
}

async function replay(
  browser: Browser,
  origin: string,
  runs: number,
  log: (m: string) => void,
): Promise<{ mix: string; runs: ReplayRun[] }> {
  const results: ReplayRun[] = [];
  // A fresh demo model each run: the chat's per-minute limit and the ad's 30 photos are per account and ad.
  for (let i = 0; i < runs; i++) results.push(await replayRun(browser, origin, `demo-model-${15 + i}@vitrina.test`, log));
  return {
    mix: `Each run: a demo model (a new one each time) queues ${MIX.edits} edits of her profile and ad (chained: each based on the version the previous one makes), ${MIX.switches} ad on/off switches, ${MIX.photos} photos (1200×900 JPEGs drawn in the page) and ${MIX.messages} support messages, interleaved — written into the outbox's IndexedDB table as \`enqueue\` writes them, while offline — then the network comes back. Timed in the page from the \`online\` event until nothing is left to send: the page's replayer sends each scope in order, one request at a time. Afterwards the API is asked: one more photo per queued photo, one message per queued message, the last edit's text on the ad.`,
    runs: results,
  };
}

const ms = (v: number) => `${v.toFixed(0)} ms`;

export function renderOfflineSection(report: OfflineReport): string {
  const repeat =
    'error' in report.repeatVisit
      ? `Not measured: ${report.repeatVisit.error}`
      : `| Reloads | Median | Min | Max |\n| ---: | ---: | ---: | ---: |\n| ${report.repeatVisit.length} | **${ms(
          median(report.repeatVisit),
        )}** | ${ms(Math.min(...report.repeatVisit))} | ${ms(Math.max(...report.repeatVisit))} |`;
  const replayText =
    'error' in report.replay
      ? `Not measured: ${report.replay.error}`
      : `${report.replay.mix}\n\n| Run | Operations | Nothing left to send after | Applied exactly once |\n| ---: | ---: | ---: | --- |\n${report.replay.runs
          .map(
            (r, i) =>
              `| ${i + 1} | ${r.ops} | ${Number.isNaN(r.ms) ? 'did not settle' : ms(r.ms)} | ${r.exact ? 'yes' : `**no**: ${r.detail}`} |`,
          )
          .join('\n')}\n\nMedian: **${ms(median(report.replay.runs.map((r) => r.ms)))}**.`;
  return `${OFFLINE_START}

## Offline: repeat visit and outbox replay

Written by \`npm run bench -- --only offline\` (bench/lib/offline.ts) — ${report.date.slice(0, 16).replace('T', ' ')} UTC.
Chromium ${report.chromium} headless (Playwright, \`PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1\` so the worker's
own requests are offline too), the built app served by \`server/main.ts\` (NODE_ENV=test for the demo data, PGlite) on
${report.machine}; load average ${report.load[0].toFixed(1)} before, ${report.load[1].toFixed(1)} after.

### Repeat visit offline: time to the listing on screen

A visitor opened \`/es\` once online (the service worker installed and kept the listing and its photos); then, with
the network off, each reload is timed from navigation start to the first model card attached to the page (recorded in
the page, no CPU or network throttling).

${repeat}

### Replay of queued operations after reconnection

${replayText}
${OFFLINE_END}`;
}

/** Puts the offline section into docs/benchmarks.md: in place of the old one, else after the chat section. */
export function spliceOfflineSection(markdown: string, section: string): string {
  const start = markdown.indexOf(OFFLINE_START);
  const end = markdown.indexOf(OFFLINE_END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + section + markdown.slice(end + OFFLINE_END.length);
  const chatEnd = markdown.indexOf('<!-- chat:end -->');
  if (chatEnd >= 0) {
    const at = chatEnd + '<!-- chat:end -->'.length;
    return `${markdown.slice(0, at)}\n\n${section}${markdown.slice(at)}`;
  }
  const at = markdown.indexOf('## Method and caveats');
  if (at >= 0) return `${markdown.slice(0, at)}${section}\n\n${markdown.slice(at)}`;
  return `${markdown.trimEnd()}\n\n${section}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  benchOffline(root, (m) => console.log(m)).then(
    (report) => {
      console.log(renderOfflineSection(report));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
