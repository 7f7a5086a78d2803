/**
 * Several processes sharing one realtime layer through a real redis-server: two app instances in this test process
 * (two ports) plus one truly separate `server/main.ts` process, all with the same Pusher app and REDIS_URL. A socket
 * on any of them receives what any other broadcast, presence is one list, and ending a user's sockets reaches every
 * process. Skipped, saying why, when redis-server is not installed (.ci/run installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import PusherServerSdk from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, type RealtimeConfig } from '#server/config.ts';
import type { FastifyBaseLogger } from 'fastify';
import { redisAdapter } from './redis-adapter.ts';
import {
  REDIS_SERVER,
  RawClient,
  freePort,
  listeningApp,
  parseData,
  startRedis,
  until,
  type ListeningApp,
  type RedisServer,
} from './test-helpers.ts';

if (!REDIS_SERVER) console.warn('redis.test.ts skipped: redis-server is not installed (apt-get install redis-server; .ci/run does it)');

const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;

describe.skipIf(!REDIS_SERVER)('realtime across processes through Redis', () => {
  let redis: RedisServer;
  let realtime: RealtimeConfig;
  let a: ListeningApp;
  let b: ListeningApp;
  let c: { port: number; child: ChildProcess; dataDir: string };
  const sockets: RawClient[] = [];
  const connect = async (port: number) => {
    const s = await RawClient.connect(port, realtime.key);
    sockets.push(s);
    return s;
  };

  beforeAll(async () => {
    redis = await startRedis();
    realtime = { ...testConfig().realtime, redisUrl: redis.url, redisPrefix: `vt-${crypto.randomBytes(4).toString('hex')}:` };
    [a, b] = await Promise.all([listeningApp(realtime), listeningApp(realtime)]);

    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-rt-node-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        PUSHER_APP_ID: realtime.appId,
        PUSHER_APP_KEY: realtime.key,
        PUSHER_APP_SECRET: realtime.secret,
        REDIS_URL: redis.url,
        REDIS_PREFIX: realtime.redisPrefix,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    c = { port, child, dataDir };
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`server/main.ts exited with ${child.exitCode}`);
      return fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
    });
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    if (c) {
      const exited = new Promise((r) => c.child.once('exit', r));
      c.child.kill('SIGTERM');
      await exited;
      fs.rmSync(c.dataDir, { recursive: true, force: true });
    }
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  }, 60_000);

  it('a broadcast from one process reaches sockets on the others, except the X-Socket-ID socket', async () => {
    const [onA, onB, onC, skipped] = await Promise.all([connect(a.port), connect(b.port), connect(c.port), connect(a.port)]);
    for (const s of [onA, onB, onC, skipped]) await s.subscribe(a.app.broadcaster, 'private-support.chat.1');
    await b.app.broadcaster.trigger(['private-support.chat.1'], 'App\\Events\\MessageSent', { seq: 1 }, { socketId: skipped.socketId });
    for (const s of [onA, onB, onC]) expect(parseData(await s.next('App\\Events\\MessageSent'))).toEqual({ seq: 1 });

    // The separate process's HTTP events API, through the SDK, reaches sockets here.
    const sdk = new PusherServerSdk({
      appId: realtime.appId,
      key: realtime.key,
      secret: realtime.secret,
      host: '127.0.0.1',
      port: String(c.port),
    });
    await sdk.trigger('private-support.chat.1', 'FromC', 'hi');
    for (const s of [onA, onB, onC, skipped]) expect((await s.next('FromC')).data).toBe('hi');
    expect(skipped.pending('App\\Events\\MessageSent')).toHaveLength(0);
  });

  it('client events cross processes, still not echoed to the sender', async () => {
    const [onA, onC] = await Promise.all([connect(a.port), connect(c.port)]);
    await onA.subscribe(a.app.broadcaster, 'presence-chat.2', { user_id: '1' });
    await onC.subscribe(a.app.broadcaster, 'presence-chat.2', { user_id: '2' });
    onA.send({ event: 'client-typing', channel: 'presence-chat.2', data: { typing: true } });
    expect(await onC.next('client-typing')).toMatchObject({ user_id: '1', data: { typing: true } });
    await onA.roundTrip();
    expect(onA.pending('client-typing')).toHaveLength(0);
  });

  it('presence is one list across processes: a user with tabs on two processes is one member', async () => {
    const channel = 'presence-support.staff';
    const observer = await connect(c.port);
    await observer.subscribe(a.app.broadcaster, channel, { user_id: 'obs' });
    const tabA = await connect(a.port);
    const tabB = await connect(b.port);
    const okA = await tabA.subscribe(a.app.broadcaster, channel, { user_id: '5', user_info: { name: 'Ana' } });
    expect(parseData<{ presence: { count: number } }>(okA).presence.count).toBe(2);
    const okB = await tabB.subscribe(a.app.broadcaster, channel, { user_id: '5', user_info: { name: 'Ana' } });
    expect(parseData<{ presence: { ids: string[] } }>(okB).presence.ids.sort()).toEqual(['5', 'obs']);
    expect(parseData(await observer.next('pusher_internal:member_added'))).toEqual({ user_id: '5', user_info: { name: 'Ana' } });
    const listed = async (app: ListeningApp) => (await app.app.broadcaster.presenceMembers(channel)).map((m) => m.user_id).sort();
    expect(await listed(a)).toEqual(['5', 'obs']);
    expect(await listed(b)).toEqual(['5', 'obs']);

    await tabA.close();
    // Still there on B: no member_removed (checked after a later broadcast has come through).
    await b.app.broadcaster.trigger([channel], 'marker', {});
    await observer.next('marker');
    expect(observer.pending('pusher_internal:member_added')).toHaveLength(0);
    expect(observer.pending('pusher_internal:member_removed')).toHaveLength(0);
    expect(await listed(a)).toEqual(['5', 'obs']);

    await tabB.close();
    expect(parseData(await observer.next('pusher_internal:member_removed'))).toEqual({ user_id: '5' });
    expect(await listed(b)).toEqual(['obs']);
  });

  it('terminateUserConnections on one process closes the user’s sockets on the others', async () => {
    const onC = await connect(c.port);
    onC.send({ event: 'pusher:signin', data: a.app.broadcaster.authenticateUser(onC.socketId, { id: 'u-77' }) });
    await onC.next('pusher:signin_success');
    const bystander = await connect(c.port);
    await a.app.broadcaster.terminateUserConnections('u-77');
    expect((await onC.closed).code).toBe(4009);
    await bystander.roundTrip();
  });

  it('sockets of a process that died are dropped after their heartbeat stops, with member_removed; keys stay under the prefix', async () => {
    const prefix = `vt-stale-${crypto.randomBytes(3).toString('hex')}:`;
    const dead = await redisAdapter({ url: redis.url, prefix, log: silent, heartbeatMs: 50, staleMs: 400 });
    const alive = await redisAdapter({ url: redis.url, prefix, log: silent, heartbeatMs: 50, staleMs: 400 });
    const removed: string[] = [];
    alive.onMemberRemoved((channel, userId) => removed.push(`${channel}/${userId}`));
    expect(await dead.join('presence-x', '1.1', { user_id: 'ghost' }, 100)).toEqual({ first: true });
    expect(await alive.join('presence-x', '2.2', { user_id: 'live' }, 100)).toEqual({ first: true });
    expect((await alive.members('presence-x')).map((m) => m.user_id).sort()).toEqual(['ghost', 'live']);

    const inspect = new Redis(redis.url);
    try {
      const keys = await inspect.keys('*');
      const ours = keys.filter((k) => k.startsWith(prefix));
      expect(ours.length).toBeGreaterThan(0);
      expect(keys.filter((k) => !k.startsWith('vt-'))).toEqual([]);
      // The dead process stops beating without leaving (close() here leaves its presence entries behind).
      await dead.close();
      await until(() => removed.length > 0);
      expect(removed).toEqual(['presence-x/ghost']);
      expect((await alive.members('presence-x')).map((m) => m.user_id)).toEqual(['live']);
    } finally {
      inspect.disconnect();
      await alive.close();
    }
  });

  it('a socket bound to a user by an authorized private subscription (no signin) is ended from another process', async () => {
    const onC = await connect(c.port);
    await onC.subscribe(a.app.broadcaster, 'private-support.chat.88', { user_id: 'u-88', user_info: { name: 'Ana' } });
    const bystander = await connect(c.port);
    await bystander.subscribe(a.app.broadcaster, 'private-support.chat.88', { user_id: 'staff-1' });
    await a.app.broadcaster.terminateUserConnections('u-88');
    expect((await onC.closed).code).toBe(4009);
    await bystander.roundTrip();
  });

  it(`a presence channel's 100 members are counted across processes`, async () => {
    const prefix = `vt-cap-${crypto.randomBytes(3).toString('hex')}:`;
    const [one, two] = await Promise.all([
      redisAdapter({ url: redis.url, prefix, log: silent }),
      redisAdapter({ url: redis.url, prefix, log: silent }),
    ]);
    try {
      for (let i = 0; i < 100; i++)
        expect((await (i % 2 ? one : two).join('presence-cap', `${i}.1`, { user_id: `m${i}` }, 100)).full).toBeUndefined();
      expect(await one.join('presence-cap', '500.1', { user_id: 'late' }, 100)).toEqual({ first: false, full: true });
      expect(await two.join('presence-cap', '501.1', { user_id: 'm7' }, 100)).toEqual({ first: false });
      expect(await two.members('presence-cap')).toHaveLength(100);
      // One leaves (its last socket): room for one more.
      expect(await one.leave('presence-cap', '1.1', 'm1')).toEqual({ last: true });
      expect(await one.join('presence-cap', '500.1', { user_id: 'late' }, 100)).toEqual({ first: true });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('the distinct-channel and per-connection caps hold on a process with Redis too', async () => {
    const raw = await connect(b.port);
    for (let i = 0; i < 100; i++) raw.send({ event: 'pusher:subscribe', data: { channel: `r-many-${i}` } });
    raw.send({ event: 'pusher:subscribe', data: { channel: 'r-one-too-many' } });
    expect(await raw.next('pusher:subscription_error')).toMatchObject({ channel: 'r-one-too-many', data: { type: 'LimitReached' } });
  });
});
