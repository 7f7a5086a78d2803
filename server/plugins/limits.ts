/**
 * Where every rate limiter of the app is made, so all of them count across processes when REDIS_URL is set:
 * rate-limiter-flexible's Redis limiter with the in-memory one as its insurance (Redis away: the call fails at once
 * and the process counts on its own until Redis is back), and @fastify/rate-limit's Redis store with the same
 * fallback to its local store. Without REDIS_URL: the in-memory limiters and local store, as before.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { SharedRedis } from './redis.ts';

export interface LimiterSpec {
  /** Names the counter (unique per limiter). */
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

const require = createRequire(import.meta.url);

export type LimiterFactory = (spec: LimiterSpec) => RateLimiterAbstract;

declare module 'fastify' {
  interface FastifyInstance {
    /** Makes a limiter: shared through Redis when configured, in memory otherwise. */
    limiter: LimiterFactory;
  }
}

export const memoryLimiter: LimiterFactory = (spec) => new RateLimiterMemory(spec);

export function limiterFactory(redis: Pick<SharedRedis, 'client' | 'prefix'> | undefined): LimiterFactory {
  if (!redis) return memoryLimiter;
  return (spec) =>
    new RateLimiterRedis({
      ...spec,
      keyPrefix: `${redis.prefix}rl:${spec.keyPrefix}`,
      storeClient: redis.client,
      // Not ready (down, reconnecting): straight to the insurance instead of waiting on a dead connection.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(spec),
    });
}

type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;
interface RateLimitStore {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}
type StoreConstructor = new (...args: unknown[]) => RateLimitStore;

/**
 * A @fastify/rate-limit store that counts in Redis and, when a Redis call fails, in the plugin's local store (the
 * plugin's own `skipOnError` would drop the limit altogether). The plugin builds it with `new Store(globalParams)`
 * and then a child per route.
 */
export function fallbackRateLimitStore(client: Redis, prefix: string): FastifyRateLimitStoreCtor {
  // The plugin's own stores (CommonJS, not in its typings).
  const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreConstructor;
  const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreConstructor;

  class Fallback implements RateLimitStore {
    constructor(
      private readonly shared: RateLimitStore,
      private readonly local: RateLimitStore,
    ) {}
    private call(method: 'incr' | 'read', key: string, cb: StoreCallback, timeWindow: number, max: number) {
      if (client.status !== 'ready') return this.local[method](key, cb, timeWindow, max);
      this.shared[method](key, (err, res) => (err ? this.local[method](key, cb, timeWindow, max) : cb(null, res)), timeWindow, max);
    }
    incr(key: string, cb: StoreCallback, timeWindow: number, max: number) {
      this.call('incr', key, cb, timeWindow, max);
    }
    read(key: string, cb: StoreCallback, timeWindow: number, max: number) {
      this.call('read', key, cb, timeWindow, max);
    }
    child(routeOptions: unknown) {
      return new Fallback(this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }
  return class extends Fallback {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(
        new RedisStore(params.continueExceeding, params.exponentialBackoff, client, `${prefix}rl:route:`),
        new LocalStore(params.continueExceeding, params.exponentialBackoff),
      );
    }
  };
}

/** Options for @fastify/rate-limit: its store, shared when Redis is configured. */
export function rateLimitStoreOptions(app: FastifyInstance): { store?: FastifyRateLimitStoreCtor } {
  return app.sharedRedis ? { store: fallbackRateLimitStore(app.sharedRedis.client, app.sharedRedis.prefix) } : {};
}

export default fp(
  async (app) => {
    app.decorate('limiter', limiterFactory(app.sharedRedis));
  },
  { name: 'limits', dependencies: ['shared-redis'] },
);
