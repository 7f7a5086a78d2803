/**
 * `node --expose-gc --import tsx bench/ops-overhead.ts`: what the operations hooks (issue 17 point 5) cost per request, measured as CPU
 * time per request of app.inject() in this process (the HTTP stack is the same for every variant, so the differences
 * are the hooks'). Variants, interleaved round by round so that a busy machine slows them alike:
 *
 *   bare        a Fastify route answering a listing page's bytes from memory, no logger
 *   log-before  + the JSON logger and the one-line-per-request hook as they were before (no request ids)
 *   log-ids     + request ids: X-Request-Id in and out, reqId on app.log lines (AsyncLocalStorage + mixin)
 *   metrics     + the metrics hook (METRICS_TOKEN set): histogram by route and status, replay counter
 *   app-off     the real app (PGlite, demo catalogue), GET /api/models answered from its micro-cache, metrics off
 *   app-on      the same with METRICS_TOKEN set
 *
 * Environment: OPS_BENCH_REQUESTS (per variant and round, 3000), OPS_BENCH_ROUNDS (5). Prints a Markdown table. Keep the
 * total modest: app.inject() keeps about the answer's size of heap per request (Fastify 5.12 / light-my-request, not
 * the app: the same server over HTTP holds steady), and 200,000 injects of a listing page exhaust a 4 GB heap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { loadConfig, type Config } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { seedAll } from '../server/db/seed/index.ts';
import metricsPlugin from '../server/plugins/metrics.ts';
import { loggerOptions, requestLine, requestLog } from '../server/plugins/request-log.ts';
import { createDiskStorage } from '../server/plugins/storage.ts';

const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
const REQUESTS = int(process.env.OPS_BENCH_REQUESTS, 3000);
const ROUNDS = int(process.env.OPS_BENCH_ROUNDS, 5);
const TOKEN = 'ops-bench-token-0123456789';

/** A small JSON answer: the route's own work is negligible, so the hooks' share shows. */
const BYTES = Buffer.from(
  JSON.stringify({
    data: Array.from({ length: 8 }, (_, i) => ({ id: i, title: `Anuncio ${i}`, city: 'Oviedo' })),
    meta: { current_page: 1, last_page: 10, per_page: 8, total: 80 },
  }),
);

/** Where the log lines go: written (serialized by pino) and dropped. */
const devNull = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

function jsonLogger() {
  const opts = loggerOptions({ env: 'production', logLevel: 'info' });
  return { ...opts, logger: { ...(opts.logger as object), stream: devNull() } };
}

function route(app: FastifyInstance) {
  app.get('/api/models', async (_req, reply) => reply.type('application/json; charset=utf-8').send(BYTES));
}

async function bare(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  route(app);
  return app;
}

/** The logging of before this change: Fastify's default ids, one line per request, nothing else. */
async function logBefore(): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: 'info', stream: devNull() }, disableRequestLogging: true });
  app.addHook('onResponse', async (req, reply) => {
    const responseTime = Math.round(reply.elapsedTime);
    req.log.info(
      { method: req.method, url: req.url, statusCode: reply.statusCode, responseTime },
      requestLine(req.method, req.url, reply.statusCode, responseTime),
    );
  });
  route(app);
  return app;
}

async function logIds(withMetrics: boolean): Promise<FastifyInstance> {
  const app = Fastify(jsonLogger());
  await app.register(requestLog);
  if (withMetrics) {
    app.decorate('config', { metrics: { token: TOKEN, port: undefined, host: '127.0.0.1' } } as unknown as Config);
    await app.register(metricsPlugin);
  }
  route(app);
  return app;
}

async function realApp(dataDir: string, metrics: boolean): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DIST_DIR: path.join(dataDir, 'no-dist'),
    APP_KEY: 'k'.repeat(40),
    SEED_DEMO: 'false',
    ...(metrics ? { METRICS_TOKEN: TOKEN } : {}),
  });
  const database = await openDatabase({ databaseUrl: undefined, dataDir: ':memory:' });
  await database.migrate();
  const storage = createDiskStorage(dataDir);
  await seedAll(database.db, { ...config, seedDemo: true, demoAds: 220 }, storage);
  const app = await buildApp(config, database, storage);
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** CPU µs per request over `n` sequential injects. */
async function cpuPerRequest(app: FastifyInstance, url: string, n: number): Promise<number> {
  const headers = { 'x-requested-with': 'XMLHttpRequest' };
  for (let i = 0; i < 200; i++) await app.inject({ method: 'GET', url, headers });
  // Start each measurement from a collected heap (run with --expose-gc), so no variant pays for another's garbage.
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-ops-bench-'));
  const off = await realApp(path.join(dataDir, 'off'), false);
  const on = await realApp(path.join(dataDir, 'on'), true);
  const variants: Array<[string, FastifyInstance, string]> = [
    ['bare', await bare(), '/api/models'],
    ['log-before', await logBefore(), '/api/models'],
    ['log-ids', await logIds(false), '/api/models'],
    ['metrics', await logIds(true), '/api/models'],
    ['app-off', off.app, '/api/models?page=1'],
    ['app-on', on.app, '/api/models?page=1'],
  ];
  const samples = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // A different order each round: no variant always follows the same one.
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    for (const [name, app, url] of order) samples.get(name)!.push(await cpuPerRequest(app, url, REQUESTS));
    console.error(`round ${round + 1}/${ROUNDS} done`);
  }
  const m = Object.fromEntries([...samples].map(([k, v]) => [k, median(v)]));
  const row = (name: string, vs: string) =>
    `| ${name} | ${m[name]!.toFixed(1)} | ${vs ? `${(m[name]! - m[vs]!).toFixed(1)} vs ${vs}` : ''} |`;
  console.log(
    `CPU per request (app.inject, median of ${ROUNDS} rounds × ${REQUESTS} requests; Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})\n`,
  );
  console.log('| variant | µs CPU / request | difference |');
  console.log('| --- | ---: | ---: |');
  console.log(row('bare', ''));
  console.log(row('log-before', 'bare'));
  console.log(row('log-ids', 'log-before'));
  console.log(row('metrics', 'log-ids'));
  console.log(row('app-off', ''));
  console.log(row('app-on', 'app-off'));
  for (const [, app] of variants.slice(0, 4)) await app.close();
  await off.close();
  await on.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
