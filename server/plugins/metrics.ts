/**
 * Prometheus metrics (prom-client). Exposed only when asked for: `GET /metrics` on the app's port with
 * `Authorization: Bearer $METRICS_TOKEN`, and/or on a listener of its own at METRICS_HOST:METRICS_PORT (loopback by
 * default; it also wants the token when one is set). With neither set, /metrics is a 404 and no hook is installed,
 * so a process that nobody scrapes pays nothing per request.
 *
 * What is measured:
 * - the Node process (prom-client's default metrics: CPU, memory, heap, event-loop lag, GC, handles), once per process
 *   (those collectors are process-wide and keep observers alive: tests build many apps in one process);
 * - per app, in a registry of its own: request duration by method, route pattern and status (the pattern Fastify
 *   matched, never the URL: one series per route, not per id); open websockets of the embedded realtime server; jobs
 *   queued, due and failed (read from the jobs table at scrape time, so every node reports the same shared queue);
 *   idempotent replays (answers sent with `Idempotent-Replayed`); cache lookups by cache and hit/miss
 *   (`app.metrics.cacheLookup`, called by the caches).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { API } from '#contract/routes.ts';
import { jobs } from '../db/schema.ts';
import { sendError } from './errors.ts';

export const METRICS_PATH = '/metrics';
/** GET /api/ready with its details, on the metrics listener. */
const READY_PATH = API.ready;

export interface AppMetrics {
  /** False when nothing exposes the metrics: then nothing is recorded either. */
  readonly enabled: boolean;
  /** A lookup in a named cache (`listings`, `photo-visibility`, …). */
  cacheLookup(cache: string, hit: boolean): void;
  /** Web Push (issue 25): a push accepted by a push service, one that failed (by reason), subscriptions removed (by reason). */
  push(event: 'sent' | 'failed' | 'removed', reason?: string): void;
  /** The exposition text: process metrics, then this app's. */
  render(): Promise<string>;
  readonly contentType: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

let processRegistry: Registry | undefined;
/** Node's own metrics, collected once per process whatever the number of apps. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Methods as labels: anything else a client sends is one `OTHER` series, not a new one per invented method. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Requests no route matched (the SPA fallback, 404s): one series, whatever the URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Constant-time comparison of the Authorization header with `Bearer <token>` (hashes: equal lengths always). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}

const disabled: AppMetrics = {
  enabled: false,
  cacheLookup: () => {},
  push: () => {},
  render: async () => '',
  contentType: 'text/plain; version=0.0.4; charset=utf-8',
};

function createAppMetrics(app: FastifyInstance): AppMetrics & {
  observe(req: FastifyRequest, reply: FastifyReply): void;
} {
  const registry = new Registry();
  const duration = new Histogram({
    name: 'vitrina_http_request_duration_seconds',
    help: 'Time from the request to its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One child per label set, kept: the hot path is then a Map lookup and an observe.
  const children = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  const replays = new Counter({
    name: 'vitrina_idempotent_replays_total',
    help: 'Answers replayed for a repeated Idempotency-Key instead of running the request again.',
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: 'vitrina_cache_lookups_total',
    help: 'Lookups in the in-process caches, by cache and result (hit or miss).',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
  });
  const pushSent = new Counter({
    name: 'vitrina_push_sent_total',
    help: 'Web Push messages a push service accepted.',
    registers: [registry],
  });
  const pushFailed = new Counter({
    name: 'vitrina_push_failed_total',
    help: 'Web Push messages not accepted, by reason (gone, rate_limited, server_error, network, refused, not_allowed).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const pushRemoved = new Counter({
    name: 'vitrina_push_subscriptions_removed_total',
    help: 'Push subscriptions removed, by reason (gone: the push service said so; user; suspended).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'vitrina_websocket_connections',
    help: 'Open websockets of the embedded realtime server in this process.',
    registers: [registry],
    collect() {
      this.set(app.realtime?.connectionCount ?? 0);
    },
  });
  const jobGauge = (name: string, help: string) => new Gauge({ name, help, registers: [registry] });
  const queued = jobGauge('vitrina_jobs_queued', 'Jobs waiting or running (the shared queue: the same on every node).');
  const due = jobGauge('vitrina_jobs_due', 'Queued jobs whose time has come and that no process holds: the backlog.');
  const failed = jobGauge('vitrina_jobs_failed', 'Jobs that used up their attempts and wait for a person.');
  let jobsScrape: Promise<void> | undefined;
  const readJobs = async () => {
    const [row] = await app.db
      .select({
        queued: sql<number>`count(*) filter (where ${jobs.failedAt} is null)`.mapWith(Number),
        due: sql<number>`count(*) filter (where ${jobs.failedAt} is null and ${jobs.runAt} <= now() and (${jobs.lockedUntil} is null or ${jobs.lockedUntil} < now()))`.mapWith(
          Number,
        ),
        failed: sql<number>`count(*) filter (where ${jobs.failedAt} is not null)`.mapWith(Number),
      })
      .from(jobs);
    queued.set(row?.queued ?? 0);
    due.set(row?.due ?? 0);
    failed.set(row?.failed ?? 0);
  };
  return {
    enabled: true,
    contentType: registry.contentType,
    cacheLookup(cache, hit) {
      cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
    },
    push(event, reason = 'other') {
      if (event === 'sent') pushSent.inc();
      else if (event === 'failed') pushFailed.inc({ reason });
      else pushRemoved.inc({ reason });
    },
    observe(req, reply) {
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      const status = String(reply.statusCode);
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) children.set(key, (child = duration.labels(method, route, status)));
      child.observe(reply.elapsedTime / 1000);
      if (reply.getHeader('idempotent-replayed') === 'true') replays.inc();
    },
    async render() {
      // Concurrent scrapes share one query; a failing database leaves the last values (and is logged).
      jobsScrape ??= readJobs()
        .catch((err: unknown) => app.log.warn({ err }, 'metrics: reading the jobs table failed'))
        .finally(() => (jobsScrape = undefined));
      await jobsScrape;
      return (await processMetrics().metrics()) + (await registry.metrics());
    },
  };
}

/**
 * The separate listener of METRICS_PORT: GET /metrics, and GET /api/ready with every part's details (the readiness
 * itself as JSON, 200 or 503: the app's port answers only the status to callers without the token).
 */
function metricsServer(app: FastifyInstance, metrics: AppMetrics, token: string | undefined): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || (path !== METRICS_PATH && path !== READY_PATH))
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    if (token && !bearerMatches(req.headers.authorization, token))
      return res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' }).end('Unauthorized\n');
    if (path === READY_PATH) {
      app.readiness.run(app.log).then(
        (readiness) =>
          res
            .writeHead(readiness.status === 'unavailable' ? 503 : 200, {
              'content-type': 'application/json; charset=utf-8',
              'cache-control': 'no-store',
            })
            .end(JSON.stringify(readiness)),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Readiness unavailable\n'),
      );
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
}

export default fp(
  async (app: FastifyInstance) => {
    const { token, port, host } = app.config.metrics;
    const metrics = token || port ? createAppMetrics(app) : undefined;
    app.decorate('metrics', metrics ?? disabled);
    if (metrics) app.addHook('onResponse', async (req, reply) => metrics.observe(req, reply));

    // Always a route, so that /metrics never falls through to the PWA's shell.
    app.get(METRICS_PATH, { schema: { summary: 'Prometheus metrics', tags: ['operations'] } }, async (req, reply) => {
      if (!metrics || !token) return sendError(req, reply, 404, 'not_found');
      if (!bearerMatches(req.headers.authorization, token)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        return sendError(req, reply, 401, 'unauthenticated');
      }
      void reply.header('cache-control', 'no-store').type(metrics.contentType);
      return metrics.render();
    });

    if (metrics && port) {
      const server = metricsServer(app, metrics, token);
      // Opened with the app's own listener (tests that only inject open no port), closed with the app.
      app.addHook('onListen', async () => {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => {
            server.off('error', reject);
            resolve();
          });
        }).then(
          () => app.log.info(`metrics: listening on http://${host}:${port}${METRICS_PATH}`),
          (err: unknown) => app.log.error({ err }, `metrics: could not listen on ${host}:${port}`),
        );
      });
      app.addHook('onClose', async () => {
        if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }
  },
  { name: 'metrics' },
);
