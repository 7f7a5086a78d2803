/**
 * The Redis that several Vitrina processes share for their caches' invalidation and their rate limits (REDIS_URL,
 * keys and channels under REDIS_PREFIX; the realtime layer uses the same two settings). Without REDIS_URL there is
 * nothing here and every process keeps today's in-process state.
 *
 * Redis is a help, never a dependency of a request: the commands connection queues nothing while Redis is down, so
 * a limiter's call fails at once and its in-memory insurance answers (plugins/limits.ts), and a publish that fails
 * leaves the invalidation local. One warning per outage (not one per request), one line when Redis is back; ioredis
 * reconnects and re-subscribes by itself, and `onReconnect` listeners run then (the caches empty themselves: an
 * invalidation sent by another process during the outage never reached this one).
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { Redis, type RedisOptions } from 'ioredis';

/** How long a request waits for a publish before it answers anyway (a Redis that hangs must not hang requests). */
export const PUBLISH_WAIT_MS = 250;

export interface SharedRedis {
  /** Prefix of every key and channel. */
  readonly prefix: string;
  /** This process's id in messages, so it can skip its own. */
  readonly node: string;
  /** The commands connection (limiters, publish). Fails fast while Redis is down. */
  readonly client: Redis;
  /** Both connections ready (false during an outage). */
  readonly up: boolean;
  /**
   * Publishes on `{prefix}{channel}`: resolves how many subscribers received it, or undefined (never rejects) when
   * Redis did not take it within PUBLISH_WAIT_MS.
   */
  publish(channel: string, message: string): Promise<number | undefined>;
  /** Messages on `{prefix}{channel}` from every process, this one included. */
  subscribe(channel: string, handler: (message: string) => void): void;
  /** Called each time Redis is reachable again after an outage. */
  onReconnect(listener: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** undefined without REDIS_URL. */
    sharedRedis: SharedRedis | undefined;
  }
}

/**
 * A connection with the settings every Redis user of the app wants: connects when asked, keeps retrying (at most
 * every 2 s) while Redis is away, and a command either runs on a live connection or fails (no unbounded queue).
 */
export function createRedisConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...options,
  });
}

export async function openSharedRedis(
  url: string,
  prefix: string,
  log: FastifyBaseLogger,
): Promise<SharedRedis & { close(): Promise<void> }> {
  const node = crypto.randomBytes(8).toString('hex');
  const client = createRedisConnection(url);
  // Subscriptions made before the connection is up wait for it; ioredis renews them on every reconnection.
  const sub = createRedisConnection(url, { enableOfflineQueue: true, maxRetriesPerRequest: null });
  const handlers = new Map<string, Array<(message: string) => void>>();
  const reconnectListeners: Array<() => void> = [];
  let up = false;
  let everUp = false;
  let closing = false;

  const update = () => {
    const now = client.status === 'ready' && sub.status === 'ready';
    if (now === up) return;
    up = now;
    if (now) {
      if (everUp) {
        log.info('Redis is reachable again: limits and cache invalidation are shared again');
        for (const listener of reconnectListeners) listener();
      }
      everUp = true;
    } else if (!closing) {
      log.warn('Redis is unreachable: rate limits count in this process only and caches are emptied locally until it is back');
    }
  };
  for (const [name, connection] of [
    ['commands', client],
    ['subscriber', sub],
  ] as const) {
    // Every failed reconnection attempt emits an error: debug only, the state change above is the warning.
    connection.on('error', (err) => log.debug({ err }, `Redis ${name} connection`));
    connection.on('ready', update);
    connection.on('close', update);
    connection.on('end', update);
  }
  sub.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });

  await Promise.all([client.connect(), sub.connect()]).catch((err: unknown) => {
    // Starting while Redis is away is allowed: the process serves on its own until Redis comes.
    if (!up) log.warn({ err }, 'Redis is unreachable at start: rate limits count in this process only until it is reachable');
  });
  update();

  return {
    prefix,
    node,
    client,
    get up() {
      return up;
    },
    async publish(channel, message) {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          client.publish(prefix + channel, message),
          new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), PUBLISH_WAIT_MS))),
        ]);
      } catch {
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
    subscribe(channel, handler) {
      const full = prefix + channel;
      const list = handlers.get(full);
      if (list) return void list.push(handler);
      handlers.set(full, [handler]);
      sub.subscribe(full).catch((err: unknown) => log.warn({ err, channel: full }, 'Redis: subscribing failed (retried on reconnection)'));
    },
    onReconnect(listener) {
      reconnectListeners.push(listener);
    },
    async close() {
      closing = true;
      client.disconnect();
      sub.disconnect();
    },
  };
}

export default fp(
  async (app) => {
    const { redisUrl, redisPrefix } = app.config.realtime;
    if (!redisUrl) return void app.decorate('sharedRedis', undefined);
    const shared = await openSharedRedis(redisUrl, redisPrefix, app.log);
    app.decorate('sharedRedis', shared);
    app.addHook('onClose', () => shared.close());
  },
  { name: 'shared-redis' },
);
