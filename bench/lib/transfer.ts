/**
 * What a first visit to the home page costs on the wire: the real server (`server/main.ts`, demo data, the built PWA)
 * and Chromium with an empty cache, as a Spanish visitor (Accept-Language es-ES). Counts, per response, the bytes
 * Chromium received (CDP Network.loadingFinished encodedDataLength: headers + body as sent, so compressed when it
 * was) on the page, and apart from it what the service worker downloads at install (its precache).
 *
 * Two runs on the same build and server: as the browser asks (Accept-Encoding: gzip, deflate, br, zstd) and with
 * Accept-Encoding: identity (what the same files cost uncompressed). A third, optional, on another checkout
 * (BENCH_BEFORE_ROOT: e.g. `git archive <commit> | tar -x -C /tmp/before` with node_modules linked) measures the code
 * before a change with the same method. Also the time until the first model card shows, with Chromium's network
 * throttled like the issue's phone (1.6 Mbit/s down, 750 kbit/s up, 150 ms latency; no CPU throttling).
 *
 * On its own: `npx tsx bench/lib/transfer.ts` prints the figures (a build, then about a minute).
 * `npm run bench -- --only transfer` writes them into docs/benchmarks.md; `npm run bench` includes them.
 * Environment: BENCH_DIST_DIR (an existing build of this checkout), BENCH_BEFORE_ROOT and BENCH_BEFORE_LABEL (its row's
 * name), CHROME_PATH, BENCH_TRANSFER_PORT (5393).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { startAppServer, type AppServer } from './app-server.ts';

export const TRANSFER_START = '<!-- transfer:start -->';
export const TRANSFER_END = '<!-- transfer:end -->';

const PHONE = { latency: 150, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 };

export interface TransferRun {
  label: string;
  /** Bytes on the page's own requests, by kind. */
  total: number;
  requests: number;
  byKind: Record<string, { bytes: number; requests: number }>;
  /** Translation files the page asked for (/api/language/…). */
  languages: string[];
  /** Bytes the service worker fetched to precache, and how many requests. */
  swBytes: number;
  swRequests: number;
  /** ms from navigation to the first model card, phone-throttled (undefined: not measured). */
  firstCardMs?: number;
}

export interface TransferReport {
  chromium: string;
  runs: TransferRun[];
}

const kindOf = (url: URL, mime: string): string => {
  if (url.pathname.startsWith('/api/language/')) return 'translations';
  if (url.pathname.startsWith('/api/')) return 'API (JSON)';
  if (url.pathname.startsWith('/media/') || mime.startsWith('image/')) return 'images';
  if (mime.includes('javascript')) return 'JS';
  if (mime.includes('css')) return 'CSS';
  if (mime.includes('html')) return 'HTML';
  return 'other';
};

function startServer(root: string, distDir: string, port: number): Promise<AppServer> {
  return startAppServer(root, distDir, port, {
    ...process.env,
    // Not production: the demo catalogue is never seeded there. Nothing measured here depends on it.
    NODE_ENV: 'test',
    APP_KEY: crypto.randomBytes(32).toString('hex'),
    SEED_DEMO: 'true',
    DEMO_PASSWORD: 'demo-password-123',
  });
}

async function visit(
  browser: Browser,
  origin: string,
  label: string,
  opts: { identity: boolean; throttle: boolean },
): Promise<TransferRun> {
  const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 412, height: 823 }, serviceWorkers: 'allow' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (opts.identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  if (opts.throttle) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PHONE });

  const responses = new Map<string, { url: URL; mime: string }>();
  const run: TransferRun = { label, total: 0, requests: 0, byKind: {}, languages: [], swBytes: 0, swRequests: 0 };
  cdp.on('Network.responseReceived', (e: { requestId: string; response: { url: string; mimeType: string } }) => {
    responses.set(e.requestId, { url: new URL(e.response.url), mime: e.response.mimeType });
  });
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    const r = responses.get(e.requestId);
    if (!r || r.url.protocol === 'data:') return;
    const kind = kindOf(r.url, r.mime);
    run.byKind[kind] ??= { bytes: 0, requests: 0 };
    run.byKind[kind].bytes += e.encodedDataLength;
    run.byKind[kind].requests += 1;
    run.total += e.encodedDataLength;
    run.requests += 1;
    if (r.url.pathname.startsWith('/api/language/')) run.languages.push(r.url.pathname.split('/').pop()!);
  });
  // The service worker's own fetches (precache at install) are not the page's: counted apart, from Playwright.
  const swSizes: Promise<void>[] = [];
  context.on('requestfinished', (req) => {
    if (!req.serviceWorker()) return;
    swSizes.push(
      req.sizes().then(
        (s) => {
          run.swBytes += s.responseBodySize + s.responseHeadersSize;
          run.swRequests += 1;
        },
        () => undefined,
      ),
    );
  });

  const started = Date.now();
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.locator('[data-testid="model-card"]').first().waitFor({ timeout: 120_000 });
  if (opts.throttle) run.firstCardMs = Date.now() - started;
  await page.waitForLoadState('networkidle');
  // The worker is active once its install (the precache) has finished: then all its bytes are in.
  await page.evaluate(() => navigator.serviceWorker?.ready.then(() => undefined));
  await page.waitForTimeout(500);
  await Promise.all(swSizes);
  await context.close();
  return run;
}

function build(root: string): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-transfer-dist-'));
  execFileSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return outDir;
}

export async function benchTransfer(root: string, log: (msg: string) => void): Promise<TransferReport> {
  const port = Number(process.env.BENCH_TRANSFER_PORT ?? 5393);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  const runs: TransferRun[] = [];
  try {
    const targets: { root: string; dist?: string; label: string; identity: boolean }[] = [];
    const before = process.env.BENCH_BEFORE_ROOT;
    const beforeLabel = process.env.BENCH_BEFORE_LABEL ?? `before (${path.resolve(before ?? '')})`;
    if (before) targets.push({ root: path.resolve(before), label: beforeLabel, identity: false });
    targets.push({ root, dist: process.env.BENCH_DIST_DIR, label: 'this checkout', identity: false });
    targets.push({ root, dist: process.env.BENCH_DIST_DIR, label: 'this checkout, Accept-Encoding: identity', identity: true });
    const builds = new Map<string, string>();
    for (const target of targets) {
      let dist = target.dist ? path.resolve(target.dist) : builds.get(target.root);
      if (!dist) {
        log(`transfer: vite build in ${target.root}`);
        dist = build(target.root);
        builds.set(target.root, dist);
      }
      const server = await startServer(target.root, dist, port);
      try {
        log(`transfer: ${target.label}`);
        // Once unthrottled for the bytes, once throttled for the time to the first card.
        const run = await visit(browser, server.origin, target.label, { identity: target.identity, throttle: false });
        run.firstCardMs = (await visit(browser, server.origin, target.label, { identity: target.identity, throttle: true })).firstCardMs;
        runs.push(run);
        log(`transfer: ${target.label}: ${run.total} B in ${run.requests} requests, first card ${run.firstCardMs} ms throttled`);
      } finally {
        server.stop();
      }
    }
    for (const [r, dist] of builds) if (!(r === root && process.env.BENCH_DIST_DIR)) fs.rmSync(dist, { recursive: true, force: true });
    return { chromium: browser.version(), runs };
  } finally {
    await browser.close();
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function renderTransferSection(report: TransferReport): string {
  const kinds = ['HTML', 'JS', 'CSS', 'translations', 'API (JSON)', 'images', 'other'];
  const head = `| Run | Page total | ${kinds.join(' | ')} | Translations asked | First card, phone-throttled | Service worker precache |`;
  const sep = `| --- | ---: | ${kinds.map(() => '---:').join(' | ')} | --- | ---: | ---: |`;
  const rows = report.runs.map((r) => {
    const cells = kinds.map((k) => (r.byKind[k] ? `${kib(r.byKind[k].bytes)} (${r.byKind[k].requests})` : '–'));
    return `| ${r.label} | **${kib(r.total)}** (${r.requests}) | ${cells.join(' | ')} | ${r.languages.join(', ') || '–'} | ${
      r.firstCardMs === undefined ? '–' : `${(r.firstCardMs / 1000).toFixed(1)} s`
    } | ${kib(r.swBytes)} (${r.swRequests}) |`;
  });
  return `${TRANSFER_START}

## First home visit: bytes transferred

Written by \`npm run bench -- --only transfer\` (bench/lib/transfer.ts) — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.
Chromium ${report.chromium} headless, empty cache, a Spanish visitor (es-ES) opening \`/\` of the built app served by
\`server/main.ts\` (NODE_ENV=test for the demo data, PGlite). Bytes as received (CDP \`Network.loadingFinished\` encodedDataLength: headers and
body as sent) for the page's requests, in KiB (requests in brackets); the service worker's precache at install is
counted apart (in the identity run Chromium sends the page's header on some of the worker's requests too: that column
is not comparable there). "First card" is the time from navigation until the first model card shows with the network throttled
like the issue's phone (1.6 Mbit/s, 150 ms latency; no CPU throttling): one run, indicative only. A "before"
row is the same measurement of another checkout (BENCH_BEFORE_ROOT, built and served the same way).

${head}
${sep}
${rows.join('\n')}
${TRANSFER_END}`;
}

/** Puts the transfer section into docs/benchmarks.md: in place of the old one, or before the caveats. */
export function spliceTransferSection(markdown: string, section: string): string {
  const start = markdown.indexOf(TRANSFER_START);
  const end = markdown.indexOf(TRANSFER_END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + section + markdown.slice(end + TRANSFER_END.length);
  const at = markdown.indexOf('## Method and caveats');
  if (at >= 0) return `${markdown.slice(0, at)}${section}\n\n${markdown.slice(at)}`;
  return `${markdown.trimEnd()}\n\n${section}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  benchTransfer(root, (m) => console.log(m)).then(
    (report) => {
      console.log(renderTransferSection(report));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
