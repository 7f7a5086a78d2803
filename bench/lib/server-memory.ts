/**
 * Server memory (issue 27 point 3): the RSS of a real server process as the checkout's `npm start` runs it (development,
 * PGlite under a new DATA_DIR, demo data) with any process it keeps running, read from /proc while the load comes from
 * this process, so the figure is the server's alone. Target: ≤ 350 MB idle, ≤ 500 MB after 100 photo screenings and 1,000 listing requests.
 *
 * For each checkout measured (this one, and MEMORY_BEFORE_ROOT: a worktree of an earlier commit, same machine, same
 * run):
 * 1. First start on a new DATA_DIR (migrating and seeding the demo catalogue): RSS 20 s and 60 s after ready.
 * 2. Second start on the same data: RSS 20 s and 60 s after ready; the memory by kind (/proc/{pid}/smaps: PGlite's WASM
 *    memory, the C allocator's arenas, V8 and the rest); 100 websockets connected and subscribed (their cost);
 *    1,000 listing requests (cards, searches, pages; 4 at a time); 100 photo uploads through the API, each screened
 *    by the local model (POST /api/upload/images as the demo model, then the photo deleted again); RSS once settled
 *    and its peak; then MEMORY_IDLE_MS (30 s here; 5 min by default in the app) and 15 s more: RSS after the quiet
 *    period (the model's worker ended, on a checkout that ends it).
 * 3. Third start with the listing caches off (LISTINGS_CACHE_TTL_MS=0, LISTING_CARDS_CACHED=0) and the same 1,000
 *    requests: what the caches hold is the difference between the two growths.
 *
 * `npm run bench -- --only memory` runs this part alone and rewrites only its section of docs/benchmarks.md.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { freePort } from '#tests/local-processes.ts';
import { uploadBody } from '../../server/modules/media/test-helpers.ts';
import { cameraLikeJpeg } from './photos.ts';

const START = '<!-- server-memory:start -->';
const END = '<!-- server-memory:end -->';
const PASSWORD = 'bench-memory-demo-1';
const SECTIONS = ['women', 'men', 'gays', 'trans', 'webcam', 'couples'];
const SEARCHES = ['lucia', 'sofia', 'maria', 'oviedo', 'gijon', 'madrid', 'luica', 'Mardid', 'martina', 'avilés'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The processes `pid` started that still run, and theirs (/proc/{pid}/task/{tid}/children). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(/\s+/).filter(Boolean).map(Number)) out.push(child, ...descendants(child));
  }
  return out;
}

/**
 * The server's RSS with every process it keeps running (issue 27: memory moved into a child still counts). Threads —
 * the moderation worker, libuv's pool — are in the process's own figure.
 */
function rssMb(pid: number): number {
  let kb = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended between the listing and the reading
    }
  }
  return kb / 1024;
}

function threads(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/task`).length;
}

export interface MemoryKinds {
  /** WASM memories: PGlite's heap (and, while its worker runs, the model's). */
  wasm: number;
  /** glibc malloc: the main heap and the per-thread arenas (libvips, compilers, PGlite's files…). */
  malloc: number;
  /** The node binary and shared libraries mapped from disk. */
  files: number;
  /** Every other anonymous mapping: V8's heaps and compiled code (JS and WASM), large allocations, stacks. */
  other: number;
}

/**
 * The process's RSS by kind, from /proc/{pid}/smaps. A WASM memory is an anonymous mapping followed by its ≥ 1 GB
 * guard reservation; glibc's thread arenas are 64 MB-aligned mappings of at most 64 MB high in the address space.
 */
export function memoryKinds(pid: number): MemoryKinds {
  const maps: { start: bigint; end: bigint; perm: string; name: string; rss: number }[] = [];
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) maps.push({ start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), perm: m[3]!, name: m[4]!.trim(), rss: 0 });
    else if (line.startsWith('Rss:') && maps.length) maps[maps.length - 1]!.rss = Number(line.split(/\s+/)[1]) / 1024;
  }
  const kinds: MemoryKinds = { wasm: 0, malloc: 0, files: 0, other: 0 };
  const arena = 64n << 20n;
  for (const [i, m] of maps.entries()) {
    const next = maps[i + 1];
    if (m.name.startsWith('/')) kinds.files += m.rss;
    else if (m.name === '[heap]') kinds.malloc += m.rss;
    else if (m.start % arena === 0n && m.end - m.start <= arena && m.start >= 0x7f0000000000n) kinds.malloc += m.rss;
    else if (next && next.perm === '---p' && next.start === m.end && next.end - next.start >= 1n << 30n) kinds.wasm += m.rss;
    else kinds.other += m.rss;
  }
  return kinds;
}

interface Server {
  pid: number;
  port: number;
  /** ms from spawn to the first healthy answer. */
  readyMs: number;
  stop(): Promise<void>;
}

interface Variant {
  label: string;
  root: string;
  commit: string;
}

const CREDS = { appId: '424243', key: crypto.randomBytes(10).toString('hex'), secret: crypto.randomBytes(20).toString('hex') };

/**
 * How the variant's `npm start` runs the server once its build is done: the variables it sets (`MALLOC_ARENA_MAX=2`…)
 * and Node's arguments — `tsx server/main.ts` before issue 27's precompiled server, `node [flags] dist-server/main.js`
 * since. The tsx CLI becomes `node --import tsx` (the CLI would add a wrapper process between the bench and the server).
 */
export function startCommand(start: string): { env: NodeJS.ProcessEnv; args: string[] } {
  const words = start
    .slice(start.lastIndexOf('&&') + 2)
    .trim()
    .split(/\s+/);
  const env: NodeJS.ProcessEnv = {};
  while (words.length && /^[A-Z_]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  const command = words.shift();
  if (command === 'tsx') return { env, args: ['--import', 'tsx', ...words] };
  if (command === 'node') return { env, args: words };
  throw new Error(`npm start runs the server with ${command ?? 'nothing'}, not tsx or node`);
}

function startScriptOf(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
}

/** The server as the variant's `npm start` runs it after its build (the server's own build made first, if it has one). */
async function startServer(v: Variant, distDir: string, dataDir: string, idleMs: number, extra: NodeJS.ProcessEnv = {}): Promise<Server> {
  const port = await freePort();
  const command = startCommand(startScriptOf(v.root));
  if (fs.existsSync(path.join(v.root, 'vite/build-server.ts')))
    execFileSync(process.execPath, ['--import', 'tsx', 'vite/build-server.ts', '--if-changed'], { cwd: v.root, stdio: 'ignore' });
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, command.args, {
    cwd: v.root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: distDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      DEMO_PASSWORD: PASSWORD,
      HTTP_MAX_CONNECTIONS_PER_IP: '0',
      MODERATION_IDLE_MS: String(idleMs),
      PUSHER_APP_ID: CREDS.appId,
      PUSHER_APP_KEY: CREDS.key,
      PUSHER_APP_SECRET: CREDS.secret,
      ...command.env,
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr.slice(-2000)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { pid: child.pid!, port, readyMs: performance.now() - t0, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not start: ${stderr.slice(-2000)}`);
    }
    await sleep(250);
  }
}

/** RSS at `seconds` after ready (the server became ready `readyAt`, performance.now()). */
async function rssAt(server: Server, readyAt: number, seconds: number): Promise<number> {
  const wait = readyAt + seconds * 1000 - performance.now();
  if (wait > 0) await sleep(wait);
  return rssMb(server.pid);
}

/** A small cookie-keeping client: the session, the CSRF header, the XHR header, as the PWA sends them. */
class Client {
  cookies = new Map<string, string>();
  constructor(private origin: string) {}
  async send(method: string, url: string, body?: Buffer | string, contentType?: string): Promise<{ status: number; text: string }> {
    const xsrf = this.cookies.get('XSRF-TOKEN');
    const res = await fetch(`${this.origin}${url}`, {
      method,
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : Uint8Array.from(body) }),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return { status: res.status, text: await res.text() };
  }
  json(method: string, url: string, body: unknown) {
    return this.send(method, url, JSON.stringify(body), 'application/json');
  }
}

function listingPaths(): string[] {
  const paths: string[] = [];
  for (const s of SECTIONS) for (let page = 1; page <= 5; page++) paths.push(`/api/models?section=${s}&page=${page}`);
  for (const q of SEARCHES) paths.push(`/api/models?search=${encodeURIComponent(q)}`);
  paths.push('/api/models', '/api/models?page=2', '/api/models?page=3');
  return paths;
}

export async function listings(origin: string, count: number): Promise<void> {
  const paths = listingPaths();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const p = paths[next++ % paths.length]!;
        const res = await fetch(`${origin}${p}`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      }
    }),
  );
  if (failed) throw new Error(`${failed} of ${count} listing requests failed`);
}

/** 100 photos uploaded (and each deleted again) by the demo model: every one decoded, resized and screened. */
export async function screenings(origin: string, count: number, photo: Buffer): Promise<{ suitable: number; other: number }> {
  const client = new Client(origin);
  await client.send('GET', '/sanctum/csrf-cookie');
  const login = await client.json('POST', '/api/login', { email: 'model@vitrina.test', password: PASSWORD });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
  const profile = JSON.parse((await client.send('GET', '/api/profile/model')).text) as { data: { ad?: { id: number } } };
  const adId = profile.data.ad?.id;
  if (!adId) throw new Error('the demo model has no ad');
  let suitable = 0;
  let other = 0;
  for (let i = 0; i < count; i++) {
    const body = uploadBody(adId, [{ filename: `bench-${i}.jpg`, data: photo }]);
    const res = await client.send('POST', '/api/upload/images', body.payload, body.headers['content-type']);
    // 422 with the photo in `refused`: screened and refused (or the check failed); still one screening.
    if (res.status === 422 && res.text.includes('"refused"')) {
      other++;
      continue;
    }
    if (res.status !== 201) throw new Error(`upload ${i} answered ${res.status}: ${res.text.slice(0, 500)}`);
    const media = (JSON.parse(res.text) as { data: { media: { media_id: number }[] } }).data.media[0]!;
    suitable++;
    const del = await client.json('POST', '/api/media/delete', { media_id: media.media_id });
    if (del.status !== 200) throw new Error(`delete ${i} answered ${del.status}: ${del.text.slice(0, 500)}`);
  }
  return { suitable, other };
}

/** `count` websockets, each subscribed to a public channel of its own; closed by the returned function. */
async function openSockets(port: number, count: number): Promise<() => void> {
  const sockets: WebSocket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${CREDS.key}?protocol=7&client=js&version=8.6.0`, {
            perMessageDeflate: false,
          });
          sockets.push(ws);
          ws.on('error', reject);
          ws.on('message', (raw: Buffer) => {
            const text = raw.toString();
            if (text.includes('pusher:connection_established'))
              ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: `memory-bench-${i}` } }));
            else if (text.includes('pusher_internal:subscription_succeeded')) resolve();
          });
        }),
    ),
  );
  return () => {
    for (const ws of sockets) ws.terminate();
  };
}

/** Samples RSS every 250 ms until stopped: the peak. */
function peakSampler(pid: number): () => number {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid));
  };
}

export interface VariantResult {
  label: string;
  commit: string;
  first: { readyS: number; rss20: number; rss60: number; kinds60: MemoryKinds };
  second: {
    readyS: number;
    rss20: number;
    rss60: number;
    kinds60: MemoryKinds;
    threads60: number;
    sockets: number;
    socketsMb: number;
    beforeListings: number;
    afterListings: number;
    afterScreenings: number;
    peak: number;
    kindsLoaded: MemoryKinds;
    threadsLoaded: number;
    afterQuiet: number;
    kindsQuiet: MemoryKinds;
    threadsQuiet: number;
    suitable: number;
    refused: number;
    listingsS: number;
    screeningsS: number;
  };
  cachesOff: { idle: number; afterListings: number };
}

export interface MemoryReport {
  date: string;
  machine: string;
  load: [number, number];
  idleMs: number;
  photo: { width: number; height: number; bytes: number };
  variants: (VariantResult | { label: string; commit: string; error: string })[];
}

export async function settle(pid: number, ms = 5000): Promise<number> {
  await sleep(ms);
  return rssMb(pid);
}

async function measureVariant(
  v: Variant,
  distDir: string,
  idleMs: number,
  photo: Buffer,
  log: (m: string) => void,
): Promise<VariantResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-mem-'));
  try {
    log(`memory ${v.label}: first start (seeding the demo catalogue)`);
    let s = await startServer(v, distDir, dataDir, idleMs);
    let readyAt = performance.now();
    const first = {
      readyS: s.readyMs / 1000,
      rss20: await rssAt(s, readyAt, 20),
      rss60: await rssAt(s, readyAt, 60),
      kinds60: memoryKinds(s.pid),
    };
    await s.stop();
    log(`memory ${v.label}: first start ${first.rss20.toFixed(0)} / ${first.rss60.toFixed(0)} MB; second start`);

    s = await startServer(v, distDir, dataDir, idleMs);
    const secondReadyS = s.readyMs / 1000;
    readyAt = performance.now();
    const origin = `http://127.0.0.1:${s.port}`;
    const rss20 = await rssAt(s, readyAt, 20);
    const rss60 = await rssAt(s, readyAt, 60);
    const kinds60 = memoryKinds(s.pid);
    const threads60 = threads(s.pid);
    const close = await openSockets(s.port, 100);
    const withSockets = await settle(s.pid, 3000);
    close();
    const beforeListings = await settle(s.pid, 3000);
    log(`memory ${v.label}: second start ${rss20.toFixed(0)} / ${rss60.toFixed(0)} MB; 1,000 listing requests`);
    const peakOf = peakSampler(s.pid);
    let t = performance.now();
    await listings(origin, 1000);
    const listingsS = (performance.now() - t) / 1000;
    const afterListings = await settle(s.pid);
    log(`memory ${v.label}: ${afterListings.toFixed(0)} MB; 100 photo screenings`);
    t = performance.now();
    const outcome = await screenings(origin, 100, photo);
    const screeningsS = (performance.now() - t) / 1000;
    const afterScreenings = await settle(s.pid);
    const peak = peakOf();
    const kindsLoaded = memoryKinds(s.pid);
    const threadsLoaded = threads(s.pid);
    log(`memory ${v.label}: ${afterScreenings.toFixed(0)} MB (peak ${peak.toFixed(0)}); quiet period`);
    const afterQuiet = await settle(s.pid, idleMs + 15_000);
    const kindsQuiet = memoryKinds(s.pid);
    const threadsQuiet = threads(s.pid);
    await s.stop();
    log(`memory ${v.label}: after the quiet period ${afterQuiet.toFixed(0)} MB; caches off`);

    s = await startServer(v, distDir, dataDir, idleMs, { LISTINGS_CACHE_TTL_MS: '0', LISTING_CARDS_CACHED: '0' });
    readyAt = performance.now();
    const idle = await rssAt(s, readyAt, 60);
    await listings(`http://127.0.0.1:${s.port}`, 1000);
    const cachesOff = { idle, afterListings: await settle(s.pid) };
    await s.stop();
    return {
      label: v.label,
      commit: v.commit,
      first,
      second: {
        readyS: secondReadyS,
        rss20,
        rss60,
        kinds60,
        threads60,
        sockets: 100,
        socketsMb: withSockets - beforeListings,
        beforeListings,
        afterListings,
        afterScreenings,
        peak,
        kindsLoaded,
        threadsLoaded,
        afterQuiet,
        kindsQuiet,
        threadsQuiet,
        suitable: outcome.suitable,
        refused: outcome.other,
        listingsS,
        screeningsS,
      },
      cachesOff,
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function commitOf(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD']).toString().trim();
  } catch {
    return 'unknown';
  }
}

export async function benchServerMemory(root: string, log: (m: string) => void): Promise<MemoryReport> {
  const idleMs = Number(process.env.MEMORY_IDLE_MS ?? 30_000);
  const distDir = path.join(root, 'dist');
  const photo = await cameraLikeJpeg(2000, 1500);
  const report: MemoryReport = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    machine: `${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`,
    load: [os.loadavg()[0]!, NaN],
    idleMs,
    photo: { width: 2000, height: 1500, bytes: photo.length },
    variants: [],
  };
  const variants: Variant[] = [];
  const before = process.env.MEMORY_BEFORE_ROOT;
  if (before) variants.push({ label: 'before', root: path.resolve(before), commit: commitOf(before) });
  variants.push({ label: 'after', root, commit: commitOf(root) });
  for (const v of variants) {
    try {
      report.variants.push(await measureVariant(v, distDir, idleMs, photo, log));
    } catch (err) {
      log(`memory ${v.label}: ${err instanceof Error ? err.message : String(err)}`);
      report.variants.push({ label: v.label, commit: v.commit, error: err instanceof Error ? err.message : String(err) });
    }
  }
  report.load[1] = os.loadavg()[0]!;
  return report;
}

const mb = (v: number) => `${v.toFixed(0)} MB`;
const kinds = (k: MemoryKinds) => `${mb(k.wasm)} / ${mb(k.malloc)} / ${mb(k.other)} / ${mb(k.files)}`;
const met = (v: number, target: number) => (v <= target ? `**${mb(v)}**` : `**${mb(v)}** (over ${target})`);

export function renderServerMemorySection(r: MemoryReport): string {
  const ok = r.variants.filter((v): v is VariantResult => !('error' in v));
  const head = `| | ${r.variants.map((v) => `${v.label} (${v.commit})`).join(' | ')} |`;
  const rule = `| --- | ${r.variants.map(() => '---:').join(' | ')} |`;
  const row = (label: string, cell: (v: VariantResult) => string) =>
    `| ${label} | ${r.variants.map((v) => ('error' in v ? 'not measured' : cell(v))).join(' | ')} |`;
  const errors = r.variants.filter((v) => 'error' in v).map((v) => `- ${v.label}: not measured: ${'error' in v ? v.error : ''}`);
  return [
    START,
    '## Server memory (RSS)',
    '',
    `Measured ${r.date} UTC on ${r.machine} by \`npm run bench -- --only memory\` (bench/lib/server-memory.ts): real server processes started as each checkout's \`npm start\` starts them (\`tsx server/main.ts\` before the precompiled server, \`node --max-semi-space-size=4 dist-server/main.js\` since; with the variables the script sets; development, PGlite in a new DATA_DIR, the demo catalogue), RSS from /proc of the process and of any process it keeps running (threads, the moderation worker among them, are in the process's own figure); the requests come from the bench's own process. "before" is a clone of an earlier commit, measured in the same run. Target: ≤ 350 MB idle, ≤ 500 MB after 100 photo screenings and 1,000 listing requests.`,
    '',
    head,
    rule,
    row('First start (seeds the demo catalogue): ready after', (v) => `${v.first.readyS.toFixed(0)} s`),
    row('… RSS 20 s / 60 s after ready', (v) => `${met(v.first.rss20, 350)} / ${met(v.first.rss60, 350)}`),
    row('Second start (existing data): RSS 20 s / 60 s after ready', (v) => `${met(v.second.rss20, 350)} / ${met(v.second.rss60, 350)}`),
    row('… by kind at 60 s: WASM (PGlite) / malloc / V8 and other / files', (v) => kinds(v.second.kinds60)),
    row(
      '100 websockets connected and subscribed: RSS added',
      (v) => `${mb(v.second.socketsMb)} (≈${((v.second.socketsMb * 1024) / v.second.sockets).toFixed(0)} KB each)`,
    ),
    row(
      '1,000 listing requests (4 at a time): RSS before → after',
      (v) => `${mb(v.second.beforeListings)} → ${mb(v.second.afterListings)} (${v.second.listingsS.toFixed(1)} s)`,
    ),
    row(
      `… then 100 photo uploads screened by the local model (${r.photo.width} × ${r.photo.height} JPEG)`,
      (v) =>
        `${met(v.second.afterScreenings, 500)} (${v.second.screeningsS.toFixed(0)} s; ${v.second.suitable} suitable, ${v.second.refused} refused)`,
    ),
    row('… peak during the load', (v) => mb(v.second.peak)),
    row('… by kind: WASM (PGlite + model) / malloc / V8 and other / files', (v) => kinds(v.second.kindsLoaded)),
    row(
      `After a quiet period (${r.idleMs / 1000} s of MEMORY_IDLE_MS + 15 s)`,
      (v) => `${mb(v.second.afterQuiet)} (threads ${v.second.threadsLoaded} → ${v.second.threadsQuiet})`,
    ),
    row('… by kind: WASM / malloc / V8 and other / files', (v) => kinds(v.second.kindsQuiet)),
    row(
      'Listing caches off: RSS idle → after the same 1,000 requests',
      (v) => `${mb(v.cachesOff.idle)} → ${mb(v.cachesOff.afterListings)}`,
    ),
    '',
    '**RSS per part** (second start; from the rows above):',
    '',
    `| Part | ${ok.map((v) => `${v.label}`).join(' | ')} | How it is measured |`,
    `| --- | ${ok.map(() => '---:').join(' | ')} | --- |`,
    `| Database (PGlite) | ${ok.map((v) => mb(v.second.kinds60.wasm)).join(' | ')} | its WASM memory at idle (shared_buffers and the backend's own memory); its compiled code is in "the rest" |`,
    `| Moderation (model loaded in its worker) | ${ok.map((v) => mb(v.second.afterScreenings - v.second.afterQuiet)).join(' | ')} | after the screenings − after the quiet period (the worker ended; on a checkout that never ends it, ≈0) |`,
    `| Photo screenings, all of it | ${ok.map((v) => mb(v.second.afterScreenings - v.second.afterListings)).join(' | ')} | after the screenings − before them (model + sharp + upload buffers) |`,
    `| Websocket server | ${ok.map((v) => `${mb(v.second.socketsMb)} for 100 sockets`).join(' | ')} | 100 subscribed sockets connected − closed; at rest it holds no per-process buffers |`,
    `| Listing caches (micro-cache + cards) | ${ok.map((v) => mb(v.second.afterListings - v.second.beforeListings - (v.cachesOff.afterListings - v.cachesOff.idle))).join(' | ')} | growth over 1,000 requests with the caches − growth without them |`,
    `| The rest (node, V8 heap and code, tsx before, app) | ${ok.map((v) => mb(v.second.rss60 - v.second.kinds60.wasm)).join(' | ')} | idle RSS − database |`,
    '',
    `Load average (1 min) ${r.load[0].toFixed(1)} at the start, ${r.load[1].toFixed(1)} at the end: the machine is shared, so times vary; RSS does not depend on them, but when the garbage collector and the allocator give memory back does, by some tens of MB.`,
    ...(errors.length ? ['', ...errors] : []),
    END,
  ].join('\n');
}

export function spliceServerMemorySection(markdown: string, section: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + section + markdown.slice(end + END.length);
  const at = markdown.indexOf('## Method and caveats');
  if (at >= 0) return `${markdown.slice(0, at)}${section}\n\n${markdown.slice(at)}`;
  return `${markdown.trimEnd()}\n\n${section}\n`;
}
