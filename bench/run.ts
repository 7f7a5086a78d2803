/**
 * `npm run bench`: the browse API under load, on PostgreSQL and on PGlite, plus the home route's bundle size.
 * Writes docs/benchmarks.md. Never part of `npm test`.
 *
 * For each database: migrate, seed the reference data and BENCH_ADS (default 100 000) ads with seedBulkAds, ANALYZE,
 * then start in this process, on 127.0.0.1: the real app (buildApp) with the listing micro-cache on, the same app
 * with it off (LISTINGS_CACHE_TTL_MS=0, every request a cache miss), and a bare Fastify route that answers the
 * listing's bytes from memory. Each scenario gets a warm-up, a single-connection probe (unloaded latency) and an
 * autocannon run with 50 connections. Server time is measured in the app by onRequest/onResponse hooks.
 *
 * Environment: BENCH_ADS, BENCH_DURATION (s per load run, 10), BENCH_PROBE_SECONDS (5), BENCH_CONNECTIONS (50),
 * BENCH_SCENARIOS (comma-separated ids: bare, memory, list-hit, list-miss, list-cardless, search-hit, search-miss,
 * typo),
 * BENCH_DATABASE_URL (use this PostgreSQL server instead of a throwaway cluster; a fresh database is created on it
 * and dropped), BENCH_ONLY=postgres|pglite, BENCH_SKIP_BUNDLE=1, BENCH_DIST_DIR (measure an existing build made with
 * --manifest), BENCH_OUT (default docs/benchmarks.md), BENCH_SKIP_PHOTOS=1, BENCH_PHOTO_RUNS (10), BENCH_SKIP_TRANSFER=1 (and those of bench/lib/transfer.ts).
 *
 * `npm run bench -- --only api` measures only the browse API (both databases, or BENCH_ONLY) and rewrites only the
 * "Targets" and "Browse API" sections (the build's target rows are kept from the previous file).
 *
 * `npm run bench -- --only saved-searches` matches newly visible ads against 100,000 saved searches on a throwaway
 * PostgreSQL cluster (bench/lib/saved-search-matching.ts) and rewrites only that section.
 *
 * `npm run bench -- --only photos` measures only the photo upload (bench/lib/photos.ts: pipeline, local screening, a
 * whole upload) and rewrites only that section of docs/benchmarks.md.
 *
 * `npm run bench -- --only transfer` measures only the bytes of a first home visit in Chromium (bench/lib/transfer.ts)
 * and rewrites only that section; the full run includes it unless BENCH_SKIP_TRANSFER=1.
 *
 * `npm run bench -- --only realtime` measures only the websocket server (bench/lib/realtime.ts: idle sockets and RSS per
 * socket, fan-out p50/p99 to 1,000 subscribers, the same through Redis with two processes) and rewrites only that
 * section; the full run includes it unless BENCH_SKIP_REALTIME=1.
 *
 * `npm run bench -- --only chat` measures only a support-chat message from its POST to the other side's socket, p95
 * (bench/lib/chat.ts), and rewrites only that section; the full run includes it unless BENCH_SKIP_CHAT=1.
 *
 * `npm run bench -- --only offline` measures only the offline part (bench/lib/offline.ts: a repeat visit's time to the
 * listing from the service worker without a network, and the replay of 100 queued operations after reconnection, in
 * Chromium) and rewrites only that section; the full run includes it unless BENCH_SKIP_OFFLINE=1.
 *
 * `npm run bench -- --only memory` measures only the server's memory (bench/lib/server-memory.ts: RSS of real
 * `server/main.ts` processes idle on a first and a second start, after 100 photo screenings and 1,000 listing requests,
 * after the moderation model's quiet period, and per part; MEMORY_BEFORE_ROOT names a worktree of an earlier commit to
 * measure beside it) and rewrites only that section; the full run includes it unless BENCH_SKIP_MEMORY=1.
 *
 * `npm run bench -- --only inp` measures only Interaction to Next Paint on the home (bench/lib/inp.ts: opening a card,
 * typing a search, in Chromium at 4× CPU throttling and without) of the existing build; the full run includes it unless
 * BENCH_SKIP_INP=1 (or there is no build).
 *
 * `npm run bench -- --only footprint` measures only `npm start`'s time to ready (the build reused, or rebuilt as before)
 * and the production image's size by layer (bench/lib/footprint.ts); the full run includes it unless
 * BENCH_SKIP_FOOTPRINT=1.
 *
 * `npm run bench -- --only lighthouse` runs Lighthouse mobile (npx lighthouse@12.8.2) on the home and a model page of
 * the existing build (dist/, or BENCH_DIST_DIR; it builds nothing) and rewrites only that section
 * (bench/lib/lighthouse.ts); the full run includes it unless BENCH_SKIP_LIGHTHOUSE=1.
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray, sql, type SQL } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import * as prettier from 'prettier';
import { buildApp } from '../server/app.ts';
import { loadConfig, type Config } from '../server/config.ts';
import { openDatabase, type Database } from '../server/db/client.ts';
import { seedBulkAds } from '../server/db/seed/bulk-ads.ts';
import { seedReferenceData } from '../server/db/seed/reference.ts';
import { cities } from '../server/db/schema.ts';
import { createDiskStorage } from '../server/plugins/storage.ts';
import { measureHomeBundle, type BundleReport } from './lib/bundle.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { startCluster } from './lib/postgres.ts';
import { benchPhotos, renderPhotoSection, spliceSection, type PhotoReport } from './lib/photos.ts';
import { benchTransfer, renderTransferSection, spliceTransferSection } from './lib/transfer.ts';
import { benchLighthouse, previousBefore, renderLighthouseSection, spliceLighthouseSection } from './lib/lighthouse.ts';
import { benchRealtime, renderRealtimeSection, spliceRealtimeSection } from './lib/realtime.ts';
import { benchChat, renderChatSection, spliceChatSection } from './lib/chat.ts';
import { benchSavedSearchMatching, renderSavedSearchSection, spliceSavedSearchSection } from './lib/saved-search-matching.ts';
import { benchMediaHashMatching, renderMediaHashSection, spliceMediaHashSection } from './lib/media-hash-matching.ts';
import { benchOffline, renderOfflineSection, spliceOfflineSection } from './lib/offline.ts';
import { benchServerMemory, renderServerMemorySection, spliceServerMemorySection } from './lib/server-memory.ts';
import { benchInp, renderInpSection, spliceInpSection } from './lib/inp.ts';
import { benchFootprint, renderFootprintSection, spliceFootprintSection } from './lib/footprint.ts';
import { renderReport, spliceApiSections, type CpuPerRequest, type DatabaseRun, type ScenarioResult } from './lib/report.ts';
import { installServerTiming, serverThreadCpuMs, type ServerTiming } from './lib/server-timing.ts';
import { summarize } from './lib/stats.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
const ADS = int(process.env.BENCH_ADS, 100_000);
const DURATION = int(process.env.BENCH_DURATION, 10);
const PROBE_SECONDS = int(process.env.BENCH_PROBE_SECONDS, 5);
const CONNECTIONS = int(process.env.BENCH_CONNECTIONS, 50);
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? 'docs/benchmarks.md');
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** The cities seedBulkAds spreads its ads over (INE codes). */
const BULK_CITY_CODES = ['33044', '33024', '33004', '33037', '33031', '28079', '08019', '46250', '41091', '48020', '29067', '50297'];
const SECTIONS = ['women', 'men', 'gays', 'trans', 'webcam', 'couples'];
const NAMES = ['lucia', 'sofia', 'martina', 'maria', 'julia', 'paula', 'hugo', 'martin', 'lucas', 'mateo'];
/** Misspelt names and cities, each corrected by typos.ts (a swap, a missing or an extra letter). */
const TYPOS = ['luica', 'martnia', 'covadnoga', 'pelyao', 'sofai', 'Ovideo', 'Guijon', 'Mardid', 'Zaragzoa', 'Sevlila'];

const log = (msg: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

/** Same order every run, but consecutive requests of a connection hit different rows. */
function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function benchConfig(dataDir: string, databaseUrl: string | undefined, cacheTtlMs: number, cardsCached = 20_000): Config {
  return loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-dist'),
    APP_KEY: crypto.randomBytes(32).toString('hex'),
    SEED_DEMO: 'false',
    LISTINGS_CACHE_TTL_MS: String(cacheTtlMs),
    LISTING_CARDS_CACHED: String(cardsCached),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no port');
  return `http://127.0.0.1:${addr.port}`;
}

async function rows<T>(db: Database['db'], query: SQL): Promise<T[]> {
  // node-postgres and PGlite both answer { rows }; drizzle types them differently.
  const res = (await db.execute(query)) as { rows: T[] };
  return res.rows;
}

interface Server {
  origin: string;
  timing: ServerTiming;
  /** The database server's CPU time so far in ms, when it is a cluster of our own (PGlite's is the app thread's). */
  dbCpuMs: () => number | undefined;
  /** Resolves once the database has worked off what aborted requests left queued. */
  drain(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The node-postgres pool behind drizzle (undefined on PGlite). */
interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  on(event: 'error', listener: (err: Error) => void): unknown;
}
function poolOf(database: Database): PoolStats | undefined {
  const client = (database.db as unknown as { $client?: Partial<PoolStats> }).$client;
  return database.kind === 'postgres' && typeof client?.totalCount === 'number' ? (client as PoolStats) : undefined;
}

/**
 * When autocannon stops, up to `connections` requests are still being worked on (their handlers run on after the
 * client has gone). Wait until the database is idle — on PostgreSQL no pool connection checked out or awaited, on
 * PGlite (one query at a time, in order) a trivial query answering at once — three checks running, so the next
 * measurement does not pay for the previous one, and nothing is left running when the database is closed.
 */
async function drainDatabase(database: Database): Promise<void> {
  const pool = poolOf(database);
  const deadline = Date.now() + 120_000;
  for (let idle = 0; idle < 3 && Date.now() < deadline;) {
    let quiet: boolean;
    if (pool) {
      quiet = pool.totalCount === pool.idleCount && pool.waitingCount === 0;
    } else {
      const t = performance.now();
      await database.db.execute(sql`select 1`);
      quiet = performance.now() - t < 5;
    }
    idle = quiet ? idle + 1 : 0;
    await sleep(100);
  }
}

async function measure(
  id: string,
  label: string,
  server: Server,
  paths: string[],
  opts: { load: boolean } = { load: true },
): Promise<ScenarioResult> {
  // Sanity: the path answers 200 (a benchmark of 400s measures nothing).
  const check = await fetch(`${server.origin}${paths[0]}`, { headers: XHR });
  if (check.status !== 200) throw new Error(`${id}: ${paths[0]} answered ${check.status}: ${await check.text()}`);
  const body = (await check.json()) as { meta?: { total: number; corrections?: unknown[] } };
  const sampleTotal = paths[0]!.startsWith('/api/models') ? body.meta?.total : undefined;
  if (id === 'typo' && !body.meta?.corrections?.length) throw new Error(`typo: ${paths[0]} was not corrected`);
  // CPU per request while `run` works and the database drains what it left: app thread, and our own cluster's.
  const cpuOf = async (run: () => Promise<void>): Promise<CpuPerRequest> => {
    const app0 = serverThreadCpuMs();
    const db0 = server.dbCpuMs();
    await run();
    await server.drain();
    const n = Math.max(1, server.timing.samples().length);
    const app1 = serverThreadCpuMs();
    const db1 = server.dbCpuMs();
    return {
      app: app0 === undefined || app1 === undefined ? undefined : (app1 - app0) / n,
      db: db0 === undefined || db1 === undefined ? undefined : (db1 - db0) / n,
    };
  };

  log(`${id}: warm-up`);
  await runLoad({ origin: server.origin, paths, connections: opts.load ? 10 : 1, duration: 2, headers: XHR });
  await server.drain();
  log(`${id}: single connection, ${PROBE_SECONDS}s`);
  server.timing.reset();
  let probe: LoadResult | undefined;
  const probeCpu = await cpuOf(async () => {
    probe = await runLoad({ origin: server.origin, paths, connections: 1, duration: PROBE_SECONDS, headers: XHR });
  });
  const probeServer = summarize(server.timing.samples());
  let load: LoadResult | undefined;
  let loadServer;
  let loadCpu: CpuPerRequest | undefined;
  if (opts.load) {
    log(`${id}: ${CONNECTIONS} connections, ${DURATION}s`);
    server.timing.reset();
    loadCpu = await cpuOf(async () => {
      load = await runLoad({ origin: server.origin, paths, connections: CONNECTIONS, duration: DURATION, headers: XHR });
    });
    loadServer = summarize(server.timing.samples());
    log(`${id}: ${Math.round(load!.rps)} req/s, server p95 ${loadServer.p95.toFixed(2)} ms`);
  }
  return { id, label, paths: paths.length, sampleTotal, probe: probe!, probeServer, probeCpu, load, loadServer, loadCpu };
}

async function benchDatabase(
  kind: 'postgres' | 'pglite',
  databaseUrl: string | undefined,
  version: string,
  dbCpuMs: () => number | undefined = () => undefined,
): Promise<DatabaseRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrina-bench-${kind}-`));
  const apps: FastifyInstance[] = [];
  const database = await openDatabase({ databaseUrl, dataDir });
  // An idle pooled connection that the server drops must not take the process down (node-postgres re-emits it).
  poolOf(database)?.on('error', (err) => log(`${kind}: idle connection error: ${err.message}`));
  const drain = () => drainDatabase(database);
  try {
    log(`${kind}: migrate and seed ${ADS} ads`);
    const t0 = performance.now();
    await database.migrate();
    await seedReferenceData(database.db);
    await seedBulkAds(database.db, ADS);
    // What autovacuum would have done by now (PGlite has none); also keeps it from starting mid-measurement.
    await database.db.execute(sql`vacuum analyze`);
    const seedSeconds = (performance.now() - t0) / 1000;
    const [counts] = await rows<{ ads: string | number; visible: string | number }>(
      database.db,
      sql`select count(*) as ads, count(*) filter (where a.is_active and a.status = 'active' and p.status = 'active') as visible
          from ads a join model_profiles p on p.id = a.model_profile_id`,
    );
    const cityRows = await database.db
      .select({ id: cities.id, code: cities.code, name: cities.name })
      .from(cities)
      .where(inArray(cities.code, BULK_CITY_CODES));
    const cityByCode = new Map(cityRows.map((c) => [c.code, c]));
    const oviedo = cityByCode.get('33044')!;

    const storage = createDiskStorage(dataDir);
    const cached = await buildApp(benchConfig(dataDir, databaseUrl, 5_000), database, storage);
    const uncached = await buildApp(benchConfig(dataDir, databaseUrl, 0), database, storage);
    // Nor any serialized card kept: every card of every page read from the database and serialized (card-cache.ts).
    const cardless = await buildApp(benchConfig(dataDir, databaseUrl, 0, 0), database, storage);
    apps.push(cached, uncached, cardless);
    // The listing's bytes, answered from memory by the same app (every plugin and hook, no database).
    let listingBytes = Buffer.alloc(0);
    cached.get('/api/bench-bytes', async (_req, reply) => reply.type('application/json; charset=utf-8').send(listingBytes));
    const cachedServer: Server = { timing: installServerTiming(cached), origin: '', drain, dbCpuMs };
    const uncachedServer: Server = { timing: installServerTiming(uncached), origin: '', drain, dbCpuMs };
    cachedServer.origin = await listen(cached);
    uncachedServer.origin = await listen(uncached);
    const cardlessServer: Server = { timing: installServerTiming(cardless), origin: '', drain, dbCpuMs };
    cardlessServer.origin = await listen(cardless);

    // ... and by a bare Fastify route: no plugins, no hooks but the timing ones.
    const bare = Fastify({ logger: false });
    apps.push(bare);
    bare.get('/bytes', async (_req, reply) => reply.type('application/json; charset=utf-8').send(listingBytes));
    const bareServer: Server = { timing: installServerTiming(bare), origin: '', drain, dbCpuMs };
    bareServer.origin = await listen(bare);

    const listPath = `/api/models?city=${oviedo.id}&section=women`;
    listingBytes = Buffer.from(await (await fetch(`${cachedServer.origin}${listPath}`, { headers: XHR })).arrayBuffer());

    const listMissPaths = shuffle(
      BULK_CITY_CODES.flatMap((code) =>
        SECTIONS.flatMap((s) => [1, 2, 3].map((page) => `/api/models?city=${cityByCode.get(code)!.id}&section=${s}&page=${page}`)),
      ),
    );
    const searchTerms = [...NAMES, ...cityRows.map((c) => c.name.toLowerCase())];
    const searchMissPaths = shuffle(searchTerms.map((q) => `/api/models?search=${encodeURIComponent(q)}`));

    const scenarios: [string, string, Server, string[], { load: boolean }?][] = [
      ['bare', 'Bare Fastify route, listing bytes from memory', bareServer, ['/bytes']],
      ['memory', 'Same app (all plugins), listing bytes from memory', cachedServer, ['/api/bench-bytes']],
      ['list-hit', 'city + section, cache hit (same query)', cachedServer, [listPath]],
      [
        'list-miss',
        `city + section, cache off (${listMissPaths.length} queries: 12 cities × 6 sections × pages 1–3)`,
        uncachedServer,
        listMissPaths,
      ],
      [
        'list-cardless',
        `city + section, cache off and no card kept (LISTING_CARDS_CACHED=0: every card read and serialized)`,
        cardlessServer,
        listMissPaths,
      ],
      ['search-hit', 'search "lucia", cache hit (same query)', cachedServer, ['/api/models?search=lucia']],
      ['search-miss', `search, cache off (${searchMissPaths.length} terms: names and city names)`, uncachedServer, searchMissPaths],
      [
        'typo',
        `search with a typo → corrected (typos.ts), cache off (${TYPOS.length} terms: names and cities)`,
        uncachedServer,
        TYPOS.map((q) => `/api/models?search=${encodeURIComponent(q)}`),
      ],
    ];
    const wanted = process.env.BENCH_SCENARIOS?.split(',');
    const results: ScenarioResult[] = [];
    for (const [id, label, server, paths, opts] of scenarios) {
      if (!wanted || wanted.includes(id)) results.push(await measure(id, label, server, paths, opts));
    }
    return {
      kind,
      version,
      seedSeconds,
      ads: Number(counts!.ads),
      visible: Number(counts!.visible),
      listPath: listPath.replace(String(oviedo.id), `${oviedo.id} (Oviedo)`),
      listingBytes: listingBytes.length,
      results,
    };
  } finally {
    for (const app of apps) await app.close();
    await drain();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function withPostgres<T>(fn: (url: string, version: string, cpuMs: () => number | undefined) => Promise<T>): Promise<T> {
  let base = process.env.BENCH_DATABASE_URL;
  let stopCluster: (() => void) | undefined;
  let cpuMs: () => number | undefined = () => undefined;
  let version = '';
  let settings = 'as configured on BENCH_DATABASE_URL';
  if (!base) {
    log('postgres: starting a throwaway cluster');
    const cluster = await startCluster();
    base = cluster.url;
    stopCluster = cluster.stop;
    cpuMs = cluster.cpuMs;
    version = cluster.version;
    settings = cluster.settings;
    // Also when the process dies on an error (stop() is synchronous, so it works in an 'exit' listener).
    process.once('exit', () => cluster.stop());
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130));
  }
  const name = `vitrina_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    version ||= ((await admin.query('show server_version')) as { rows: { server_version: string }[] }).rows[0]!.server_version;
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString(), `PostgreSQL ${version.replace(/^postgres \(PostgreSQL\) /, '')} (${settings})`, cpuMs);
  } finally {
    // pool.end() resolves before its sockets are closed; let them go before the forced drop cuts them.
    await sleep(500);
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await c.end();
    stopCluster?.();
  }
}

function machine() {
  const cpus = os.cpus();
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync('nproc').toString().trim();
  } catch {
    // not on this system: availableParallelism() it is
  }
  return {
    date: new Date().toISOString(),
    nproc,
    cpu: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  };
}

const PHOTO_RUNS = int(process.env.BENCH_PHOTO_RUNS, 10);

async function writeFormatted(markdown: string): Promise<void> {
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  // Formatted as `npm run lint` (prettier --check .) expects.
  fs.writeFileSync(OUT, await prettier.format(markdown, { ...(await prettier.resolveConfig(OUT)), filepath: OUT }));
}

/** `--only transfer`: the first home visit's bytes alone, spliced into the existing report. */
async function transferOnly(): Promise<void> {
  const started = performance.now();
  const section = renderTransferSection(await benchTransfer(ROOT, log));
  await writeFormatted(spliceTransferSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the transfer section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only lighthouse`: Lighthouse mobile on the existing build (dist/ or BENCH_DIST_DIR), spliced into the report. */
async function lighthouseOnly(): Promise<void> {
  const started = performance.now();
  const previous = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n';
  const section = renderLighthouseSection(await benchLighthouse(ROOT, log), previousBefore(previous));
  await writeFormatted(spliceLighthouseSection(previous, section));
  log(`wrote the Lighthouse section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only realtime`: idle sockets, fan-out and fan-out through Redis (bench/lib/realtime.ts), spliced into the report. */
async function realtimeOnly(): Promise<void> {
  const started = performance.now();
  const section = renderRealtimeSection(await benchRealtime(ROOT, log));
  await writeFormatted(spliceRealtimeSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the realtime section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only chat`: a support-chat message from its POST to the other side's socket (bench/lib/chat.ts), spliced in. */
async function chatOnly(): Promise<void> {
  const started = performance.now();
  const section = renderChatSection(await benchChat(log));
  await writeFormatted(spliceChatSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the chat section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only saved-searches`: one newly visible ad matched against 100,000 saved searches on PostgreSQL, spliced in. */
async function savedSearchesOnly(): Promise<void> {
  const started = performance.now();
  const section = renderSavedSearchSection(await benchSavedSearchMatching(log));
  await writeFormatted(spliceSavedSearchSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the saved searches section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only media-hashes`: one upload's photo looked up among 1,000,000 stored hashes on PostgreSQL, and pHash vs dHash. */
async function mediaHashesOnly(): Promise<void> {
  const started = performance.now();
  const section = renderMediaHashSection(await benchMediaHashMatching(log));
  await writeFormatted(spliceMediaHashSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the media hashes section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only offline`: the offline repeat visit and the outbox replay (bench/lib/offline.ts), spliced in. */
async function offlineOnly(): Promise<void> {
  const started = performance.now();
  const section = renderOfflineSection(await benchOffline(ROOT, log));
  await writeFormatted(spliceOfflineSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the offline section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only memory`: the server's RSS idle, loaded and after the quiet period (bench/lib/server-memory.ts), spliced in. */
async function memoryOnly(): Promise<void> {
  const started = performance.now();
  const section = renderServerMemorySection(await benchServerMemory(ROOT, log));
  await writeFormatted(spliceServerMemorySection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the memory section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only inp`: Interaction to Next Paint on the home of the existing build (bench/lib/inp.ts), spliced in. */
async function inpOnly(): Promise<void> {
  const started = performance.now();
  const section = renderInpSection(await benchInp(ROOT, log));
  await writeFormatted(spliceInpSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the INP section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only footprint`: `npm start`'s time to ready and the image's size (bench/lib/footprint.ts), spliced in. */
async function footprintOnly(): Promise<void> {
  const started = performance.now();
  const section = renderFootprintSection(await benchFootprint(ROOT, log));
  await writeFormatted(spliceFootprintSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the footprint section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

/** `--only api`: the browse API on both databases (BENCH_ONLY, BENCH_SCENARIOS apply), spliced into the report. */
async function apiOnly(): Promise<void> {
  const started = performance.now();
  const runs = await benchDatabases();
  const previous = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  const input = {
    machine: machine(),
    ads: ADS,
    duration: DURATION,
    probeSeconds: PROBE_SECONDS,
    connections: CONNECTIONS,
    bundle: undefined,
    runs,
    minutes: 0,
    previous,
  };
  await writeFormatted(spliceApiSections(previous, input));
  log(`wrote the API sections of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

async function benchDatabases(): Promise<DatabaseRun[]> {
  const only = process.env.BENCH_ONLY;
  const runs: DatabaseRun[] = [];
  if (only !== 'pglite') runs.push(await withPostgres((url, version, cpuMs) => benchDatabase('postgres', url, version, cpuMs)));
  if (only !== 'postgres') {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
      version: string;
    };
    runs.push(await benchDatabase('pglite', undefined, `PGlite ${pkg.version} (in this process, on disk in a temp folder)`));
  }
  return runs;
}

/** `--only photos`: the photo part alone, spliced into the existing report. */
async function photosOnly(): Promise<void> {
  const started = performance.now();
  const section = renderPhotoSection(await benchPhotos(PHOTO_RUNS, log));
  await writeFormatted(spliceSection(fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n', section));
  log(`wrote the photo section of ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

async function main() {
  const onlyArg = process.argv.indexOf('--only');
  if (onlyArg >= 0) {
    const part = process.argv[onlyArg + 1];
    if (part === 'transfer') return transferOnly();
    if (part === 'lighthouse') return lighthouseOnly();
    if (part === 'api') return apiOnly();
    if (part === 'realtime') return realtimeOnly();
    if (part === 'chat') return chatOnly();
    if (part === 'offline') return offlineOnly();
    if (part === 'memory') return memoryOnly();
    if (part === 'inp') return inpOnly();
    if (part === 'footprint') return footprintOnly();
    if (part === 'saved-searches') return savedSearchesOnly();
    if (part === 'media-hashes') return mediaHashesOnly();
    if (part !== 'photos')
      throw new Error(
        '--only takes one value: api, photos, transfer, lighthouse, realtime, chat, offline, memory, inp, footprint or saved-searches',
      );
    return photosOnly();
  }
  const started = performance.now();
  const info = machine();
  log(`machine: ${info.nproc} cores, ${info.cpu}, node ${info.node}; ${ADS} ads`);

  let bundle: BundleReport | undefined;
  if (!process.env.BENCH_SKIP_BUNDLE) {
    log('bundle: vite build');
    bundle = measureHomeBundle(ROOT);
    log(bundle.ok ? `bundle: JS ${bundle.js} B, CSS ${bundle.css} B (gzip)` : `bundle: ${bundle.error}`);
  }

  const runs = await benchDatabases();

  let photos: PhotoReport | undefined;
  if (!process.env.BENCH_SKIP_PHOTOS) photos = await benchPhotos(PHOTO_RUNS, log);

  const transfer = process.env.BENCH_SKIP_TRANSFER ? undefined : renderTransferSection(await benchTransfer(ROOT, log));

  const realtime = process.env.BENCH_SKIP_REALTIME ? undefined : renderRealtimeSection(await benchRealtime(ROOT, log));
  const chat = process.env.BENCH_SKIP_CHAT ? undefined : renderChatSection(await benchChat(log));
  const offline = process.env.BENCH_SKIP_OFFLINE ? undefined : renderOfflineSection(await benchOffline(ROOT, log));
  const memory = process.env.BENCH_SKIP_MEMORY ? undefined : renderServerMemorySection(await benchServerMemory(ROOT, log));

  const previous = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  // This scenario measures an existing build: without one it is left out, not the reason a long run fails.
  const distDir = path.resolve(ROOT, process.env.BENCH_DIST_DIR ?? 'dist');
  const skipLighthouse = process.env.BENCH_SKIP_LIGHTHOUSE || !fs.existsSync(path.join(distDir, 'index.html'));
  if (skipLighthouse && !process.env.BENCH_SKIP_LIGHTHOUSE) log(`lighthouse: skipped, no build in ${distDir} (npm run build)`);
  const lighthouse = skipLighthouse ? undefined : renderLighthouseSection(await benchLighthouse(ROOT, log), previousBefore(previous));
  const inp = skipLighthouse || process.env.BENCH_SKIP_INP ? undefined : renderInpSection(await benchInp(ROOT, log));
  const footprint = process.env.BENCH_SKIP_FOOTPRINT ? undefined : renderFootprintSection(await benchFootprint(ROOT, log));
  const report = renderReport({
    machine: info,
    ads: ADS,
    duration: DURATION,
    probeSeconds: PROBE_SECONDS,
    connections: CONNECTIONS,
    bundle,
    runs,
    photos,
    minutes: (performance.now() - started) / 60_000,
    previous,
  });
  // The report keeps what is below its notes marker as it was (an earlier transfer section included): replace it there.
  const withTransfer = transfer ? spliceTransferSection(report, transfer) : report;
  const withLighthouse = lighthouse ? spliceLighthouseSection(withTransfer, lighthouse) : withTransfer;
  const withRealtime = realtime ? spliceRealtimeSection(withLighthouse, realtime) : withLighthouse;
  const withChat = chat ? spliceChatSection(withRealtime, chat) : withRealtime;
  const withOffline = offline ? spliceOfflineSection(withChat, offline) : withChat;
  const withMemory = memory ? spliceServerMemorySection(withOffline, memory) : withOffline;
  const withInp = inp ? spliceInpSection(withMemory, inp) : withMemory;
  await writeFormatted(footprint ? spliceFootprintSection(withInp, footprint) : withInp);
  log(`wrote ${path.relative(ROOT, OUT)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
