/**
 * What GET /api/ready checks before a load balancer sends this process traffic: the database answers, Redis answers
 * (when REDIS_URL is set), and media storage takes a write and gives it back. Each check has its own time limit, so a
 * hung dependency makes the answer a prompt 503 naming it instead of a request that never ends. Later parts (shared
 * caches, an S3 bucket, the job queue) add their own checks with `app.readiness.add`.
 *
 * Checks that arrive while one is running share it: a flood of probes costs one round of checks, not one each.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Readiness } from '#contract/system.ts';
import { readBytes } from '#server/plugins/storage.ts';

/** A dependency is "failing" when it has not answered within this. */
export const CHECK_TIMEOUT_MS = 2_000;

export type ReadinessCheck = () => Promise<void>;

export interface ReadinessChecks {
  /**
   * Adds a named check (throws or rejects when the part is not usable). `degradesOnly`: the process serves without
   * this part (its failure makes the answer `degraded`, still 200, so a load balancer keeps every node when it goes).
   */
  add(name: string, check: ReadinessCheck, options?: { degradesOnly?: boolean }): void;
  /** Runs every check (concurrent callers share one run). */
  run(log: FastifyBaseLogger): Promise<Readiness>;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: ReadinessChecks;
  }
}

class TimeoutError extends Error {}

async function timed(check: ReadinessCheck, timeoutMs: number): Promise<{ ms: number; error?: unknown }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ms: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}

export function createReadinessChecks(timeoutMs = CHECK_TIMEOUT_MS): ReadinessChecks {
  const checks = new Map<string, ReadinessCheck>();
  const optional = new Set<string>();
  let running: Promise<Readiness> | undefined;
  const runAll = async (log: FastifyBaseLogger): Promise<Readiness> => {
    const results = await Promise.all([...checks].map(async ([name, check]) => [name, await timed(check, timeoutMs)] as const));
    const out: Readiness = { status: 'ready', failing: [], degraded: [], checks: {} };
    for (const [name, { ms, error }] of results) {
      if (error === undefined) {
        out.checks[name] = { status: 'ok', ms };
        continue;
      }
      const reason = error instanceof TimeoutError ? 'timeout' : 'error';
      out.checks[name] = { status: 'failing', ms, reason };
      (optional.has(name) ? out.degraded : out.failing).push(name);
      log.warn({ err: error, part: name }, `readiness: ${name} is failing (${reason})`);
    }
    if (out.failing.length) out.status = 'unavailable';
    else if (out.degraded.length) out.status = 'degraded';
    return out;
  };
  return {
    add(name, check, options) {
      if (checks.has(name)) throw new Error(`readiness check ${name} is already registered`);
      checks.set(name, check);
      if (options?.degradesOnly) optional.add(name);
    },
    run(log) {
      running ??= runAll(log).finally(() => (running = undefined));
      return running;
    },
  };
}

/**
 * Redis, when configured: a connection of its own (the realtime adapter's are busy with pub/sub and scripts), opened
 * on the first check, that never queues commands while down, so a ping fails at once instead of waiting.
 */
function redisCheck(url: string, log: FastifyBaseLogger): { check: ReadinessCheck; close: () => Promise<void> } {
  let client: Redis | undefined;
  return {
    check: async () => {
      if (!client) {
        client = new Redis(url, {
          lazyConnect: true,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          connectTimeout: CHECK_TIMEOUT_MS,
          retryStrategy: (times) => Math.min(times * 500, 5_000),
        });
        // Reconnection attempts report here; the check itself says whether Redis is usable.
        client.on('error', (err) => log.debug({ err }, 'readiness: Redis connection'));
        await client.connect().catch(() => undefined);
      }
      const pong: string = await client.ping();
      if (pong !== 'PONG') throw new Error(`unexpected PING answer ${pong}`);
    },
    close: async () => {
      client?.disconnect();
    },
  };
}

export default fp(
  async (app: FastifyInstance) => {
    const readiness = createReadinessChecks();
    app.decorate('readiness', readiness);
    readiness.add('database', async () => {
      await app.db.execute(sql`select 1`);
    });
    const redisUrl = app.config.realtime.redisUrl;
    if (redisUrl) {
      const redis = redisCheck(redisUrl, app.log);
      // Requests are served without Redis (plugins/redis.ts: limits and invalidation fall back to this process).
      readiness.add('redis', redis.check, { degradesOnly: true });
      app.addHook('onClose', redis.close);
    }
    // Write, read back and remove a small file: a full disk, a read-only mount or a bucket that refuses us all fail.
    readiness.add('storage', async () => {
      const key = `.ready/${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
      const probe = Buffer.from(`ready ${Date.now()}`);
      await app.storage.put(key, probe);
      try {
        const read = await readBytes(app.storage, key);
        if (!read) throw new Error('the file just written is not there');
        if (!read.equals(probe)) throw new Error('the file read back differs from the one written');
      } finally {
        await app.storage.remove(key);
      }
    });
  },
  { name: 'readiness' },
);
