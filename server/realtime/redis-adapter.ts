/**
 * Several Vitrina processes sharing one realtime layer through Redis (REDIS_URL), every key under REDIS_PREFIX:
 *
 * - Fan-out: one pub/sub channel `{prefix}realtime`. A process delivers to its own sockets at once and publishes the
 *   already-serialized frame; the others write it to theirs as it is (no parsing of the event, no re-serializing).
 * - Presence, per presence channel: a sorted set `{prefix}presence:{channel}:hb` (socket id → last heartbeat, ms), a
 *   hash `{prefix}presence:{channel}:sockets` (socket id → member JSON), per user a set
 *   `{prefix}presence:{channel}:user:{user_id}` of their socket ids and a set `{prefix}presence:{channel}:users` of
 *   the users there (bounded by Pusher's 100 members); `{prefix}presence:channels` lists the channels.
 *   Joining and leaving are Lua scripts, so "first socket of this user" and "last socket" are decided atomically
 *   across processes. Each process refreshes its sockets' heartbeats; any process removes sockets whose heartbeat is
 *   older than STALE_MS (their process died without leaving) and announces the member_removed that follows.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Adapter, RemoteCommand } from './adapter.ts';
import type { PresenceMember } from './broadcaster.ts';

export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 35_000;

const JOIN = `
if redis.call('SISMEMBER', KEYS[5], ARGV[5]) == 0 and redis.call('SCARD', KEYS[5]) >= tonumber(ARGV[6]) then return -1 end
redis.call('SADD', KEYS[5], ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[1])
if redis.call('SCARD', KEYS[3]) == 1 then return 1 end
return 0`;

const LEAVE = `
local removed = redis.call('SREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[4], ARGV[2]) end
if redis.call('SCARD', KEYS[3]) == 0 then redis.call('SREM', KEYS[5], ARGV[3]) end
if removed == 1 and redis.call('SCARD', KEYS[3]) == 0 then return 1 end
return 0`;

export interface RedisAdapterOptions {
  url: string;
  prefix: string;
  log: FastifyBaseLogger;
  heartbeatMs?: number;
  staleMs?: number;
}

type Handler = (command: RemoteCommand) => void;

export async function redisAdapter(opts: RedisAdapterOptions): Promise<Adapter> {
  const { prefix, log } = opts;
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const staleMs = opts.staleMs ?? STALE_MS;
  const node = crypto.randomBytes(8).toString('hex');
  const bus = `${prefix}realtime`;
  const channelsKey = `${prefix}presence:channels`;
  const keys = (channel: string, userId: string) => [
    `${prefix}presence:${channel}:hb`,
    `${prefix}presence:${channel}:sockets`,
    `${prefix}presence:${channel}:user:${userId}`,
    channelsKey,
    `${prefix}presence:${channel}:users`,
  ];
  const redisOptions = { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true };
  const cmd = new Redis(opts.url, redisOptions);
  // The subscription waits for Redis however long it takes: a process may start while Redis is away.
  const sub = new Redis(opts.url, { ...redisOptions, maxRetriesPerRequest: null });
  for (const [name, client] of [
    ['commands', cmd],
    ['subscriber', sub],
  ] as const) {
    // One line per outage, not one per reconnection attempt.
    let down = false;
    client.on('error', (err) => {
      if (!down) log.error({ err }, `realtime: Redis ${name} connection`);
      down = true;
    });
    client.on('ready', () => (down = false));
  }
  await Promise.all([cmd.connect(), sub.connect()]).catch((err: unknown) =>
    log.warn({ err }, 'realtime: Redis is unreachable at start; fan-out and presence across processes begin when it is reachable'),
  );

  let remote: Handler = () => {};
  let memberRemoved: (channel: string, userId: string) => void = () => {};
  /** This process's presence sockets, per channel: heartbeats are refreshed for these. */
  const local = new Map<string, Set<string>>();

  const subscribed = sub.subscribe(bus);
  if (sub.status === 'ready') await subscribed;
  else subscribed.catch((err: unknown) => log.error({ err }, 'realtime: subscribing to Redis'));
  // Messages: `b\n{origin}\n{channel}\n{except}\n{frame}` or `u\n{origin}\n{user id}`; names hold no newline.
  sub.on('message', (_channel: string, message: string) => {
    const a = message.indexOf('\n');
    const b = message.indexOf('\n', a + 1);
    if (a === -1 || b === -1 || message.slice(a + 1, b) === node) return;
    if (message[0] === 'u') return remote({ kind: 'terminate_user', userId: message.slice(b + 1) });
    const c = message.indexOf('\n', b + 1);
    const d = message.indexOf('\n', c + 1);
    if (c === -1 || d === -1) return;
    const except = message.slice(c + 1, d);
    remote({ kind: 'broadcast', channel: message.slice(b + 1, c), except: except || undefined, frame: message.slice(d + 1) });
  });

  const leave = async (channel: string, socketId: string, userId: string) =>
    (await cmd.eval(LEAVE, 5, ...keys(channel, userId), socketId, channel, userId)) === 1;

  const publishRemoved = (channel: string, userId: string) => {
    const frame = JSON.stringify({ event: 'pusher_internal:member_removed', channel, data: JSON.stringify({ user_id: userId }) });
    return cmd.publish(bus, `b\n${node}\n${channel}\n\n${frame}`);
  };

  async function beat(): Promise<void> {
    const now = Date.now();
    const pipeline = cmd.pipeline();
    for (const [channel, sockets] of local)
      for (const socketId of sockets) pipeline.zadd(`${prefix}presence:${channel}:hb`, 'XX', now, socketId);
    await pipeline.exec();
    // Sockets of processes that died: their heartbeat stopped.
    for (const channel of await cmd.smembers(channelsKey)) {
      const stale = await cmd.zrangebyscore(`${prefix}presence:${channel}:hb`, '-inf', now - staleMs);
      for (const socketId of stale) {
        const json = await cmd.hget(`${prefix}presence:${channel}:sockets`, socketId);
        const userId = json ? (JSON.parse(json) as PresenceMember).user_id : undefined;
        if (userId === undefined) {
          await cmd.zrem(`${prefix}presence:${channel}:hb`, socketId);
          continue;
        }
        if (await leave(channel, socketId, userId)) {
          memberRemoved(channel, userId);
          await publishRemoved(channel, userId);
        }
      }
    }
  }
  const timer = setInterval(() => void beat().catch((err: unknown) => log.error({ err }, 'realtime: presence heartbeat')), heartbeatMs);
  timer.unref();

  return {
    async publish(command) {
      const message =
        command.kind === 'broadcast'
          ? `b\n${node}\n${command.channel}\n${command.except ?? ''}\n${command.frame}`
          : `u\n${node}\n${command.userId}`;
      await cmd.publish(bus, message);
    },
    onRemote(handler) {
      remote = handler;
    },
    onMemberRemoved(handler) {
      memberRemoved = handler;
    },
    async join(channel, socketId, member, maxMembers) {
      const joined = await cmd.eval(
        JOIN,
        5,
        ...keys(channel, member.user_id),
        socketId,
        Date.now(),
        JSON.stringify(member),
        channel,
        member.user_id,
        maxMembers,
      );
      if (joined === -1) return { first: false, full: true };
      let sockets = local.get(channel);
      if (!sockets) local.set(channel, (sockets = new Set()));
      sockets.add(socketId);
      return { first: joined === 1 };
    },
    async leave(channel, socketId, userId) {
      const sockets = local.get(channel);
      sockets?.delete(socketId);
      if (sockets?.size === 0) local.delete(channel);
      return { last: await leave(channel, socketId, userId) };
    },
    async members(channel) {
      const [alive, all] = await Promise.all([
        cmd.zrangebyscore(`${prefix}presence:${channel}:hb`, Date.now() - staleMs, '+inf'),
        cmd.hgetall(`${prefix}presence:${channel}:sockets`),
      ]);
      const byUser = new Map<string, PresenceMember>();
      for (const socketId of alive) {
        const json = all[socketId];
        if (!json) continue;
        const member = JSON.parse(json) as PresenceMember;
        if (!byUser.has(member.user_id)) byUser.set(member.user_id, member);
      }
      return [...byUser.values()];
    },
    presenceChannels: () => cmd.smembers(channelsKey),
    async close() {
      clearInterval(timer);
      // QUIT would wait for a Redis that is away (the subscriber retries without limit): just drop the connection then.
      await Promise.allSettled([sub, cmd].map(async (c) => (c.status === 'ready' ? c.quit() : c.disconnect())));
    },
  };
}
