/**
 * Two app instances on one database and one Redis (REDIS_URL) behave as one: a catalogue change through A empties
 * B's listings cache at once, and login attempts count across both. With Redis stopped both keep answering on their
 * own (limits in each process, ready and health say degraded); started again, they share again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ModelList } from '#contract/listings.ts';
import { readyAnswerSchema } from '#contract/system.ts';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openSharedRedis } from '#server/plugins/redis.ts';
import { createDiskStorage } from '#server/plugins/storage.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, type BuiltModel } from '#tests/factories.ts';
import { freePort, REDIS_SERVER, startRedis, type RedisServer } from '#tests/local-processes.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

if (!REDIS_SERVER) console.warn('plugins/redis.test.ts is skipped (redis-server is not installed)');

const OPS_TOKEN = 'ops-token-for-the-readiness-details-0123';

describe.skipIf(!REDIS_SERVER)('two processes sharing one Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer | undefined;
  let port: number;
  let a: TestApp;
  let b: FastifyInstance;
  let admin: Agent;
  let visitorB: Agent;
  const models: BuiltModel[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    port = Number(new URL(redis.url).port);
    // A cache that would keep a stale listing for the whole test without invalidation.
    const overrides = {
      listingsCacheTtlMs: 600_000,
      realtime: { ...testConfig().realtime, redisUrl: redis.url, redisPrefix: 'vt:' },
      // /api/ready names its parts only with the metrics token.
      metrics: { ...testConfig().metrics, token: OPS_TOKEN },
    };
    a = await createTestApp(overrides);
    // The second instance: same database, same config, an app of its own (its own caches and limiters).
    b = await buildApp(a.config, a.database, createDiskStorage(a.config.dataDir));
    await b.ready();
    admin = (await signedIn(a.app, a.database.db, { role: 'admin' })).agent;
    visitorB = await newAgent(b);
    for (const name of ['Redisa Compartida', 'Redisa Segunda']) models.push(await buildModel(a.database.db, { name }));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  const listedOnB = async () => {
    const res = await visitorB.get('/api/models?search=Redisa');
    expect(res.statusCode).toBe(200);
    return res.json<ModelList>().data.map((c) => c.id);
  };
  const suspend = async (adId: number) => {
    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: adId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'Anuncio repetido muchas veces.',
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const login = async (app: FastifyInstance, email: string) =>
    (await (await newAgent(app)).post('/api/login', { email, password: 'wrong password 123' })).statusCode;
  const perEmailIp = () => a.app.authLimits.loginOptions.perEmailIp;
  const code = async (app: FastifyInstance) =>
    (await (await newAgent(app)).post('/api/consent/code', { contact: 'nadie@vitrina.test', code: '123456' })).statusCode;

  it('a catalogue change through A is in B’s very next listing', async () => {
    expect(await listedOnB()).toContain(models[0]!.adId);
    expect(await listedOnB()).toContain(models[0]!.adId); // a cache hit on B now
    await suspend(models[0]!.adId);
    expect(await listedOnB()).not.toContain(models[0]!.adId);
  });

  it('login attempts are counted across both', async () => {
    const email = 'compartido@vitrina.test';
    for (let i = 0; i < perEmailIp(); i++) expect(await login(a.app, email)).toBe(422);
    expect(await login(b, email)).toBe(429);
  });

  it('route limits of @fastify/rate-limit are counted across both', async () => {
    // POST /api/consent/code allows 10 a minute per address.
    for (let i = 0; i < 10; i++) expect(await code(i % 2 ? b : a.app)).not.toBe(429);
    expect(await code(b)).toBe(429);
    expect(await code(a.app)).toBe(429);
  });

  it('Redis stopped: both answer, limits apply in each process, ready and health say degraded', async () => {
    await redis!.stop();
    redis = undefined;
    await vi.waitFor(() => expect(a.app.sharedRedis!.up || b.sharedRedis!.up).toBe(false), { timeout: 10_000 });

    const health = await b.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ status: 'degraded' });
    const ready = await b.inject({ method: 'GET', url: '/api/ready', headers: { authorization: `Bearer ${OPS_TOKEN}` } });
    expect(ready.statusCode).toBe(200);
    expect(readyAnswerSchema.parse(ready.json()).data).toMatchObject({ status: 'degraded', failing: [], degraded: ['redis'] });

    // Limits still hold, per process: A refuses after its own attempts, B has counted none of them.
    const email = 'sinredis@vitrina.test';
    for (let i = 0; i < perEmailIp(); i++) expect(await login(a.app, email)).toBe(422);
    expect(await login(a.app, email)).toBe(429);
    expect(await login(b, email)).toBe(422);
    // The same for route limits (@fastify/rate-limit's local store takes over).
    for (let i = 0; i < 10; i++) expect(await code(a.app)).not.toBe(429);
    expect(await code(a.app)).toBe(429);
    expect(await code(b)).not.toBe(429);

    // A change now reaches only A's caches; B's listing (cached above) may be stale until Redis is back.
    expect(await listedOnB()).toContain(models[1]!.adId);
    await suspend(models[1]!.adId);
  });

  it('Redis started again: B empties its caches once and limits are shared again', async () => {
    redis = await startRedis(port);
    await vi.waitFor(() => expect(a.app.sharedRedis!.up && b.sharedRedis!.up).toBe(true), { timeout: 15_000 });
    expect((await b.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
    // The change made during the outage is seen on B (it could not hear of it, so it emptied its caches on return).
    expect(await listedOnB()).not.toContain(models[1]!.adId);

    const email = 'otravez@vitrina.test';
    for (let i = 0; i < perEmailIp(); i++) expect(await login(a.app, email)).toBe(422);
    expect(await login(b, email)).toBe(429);

    // And invalidation is shared again.
    const reinstate = await admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: models[0]!.adId, action: 'reinstate' });
    expect(reinstate.statusCode, reinstate.body).toBe(200);
    expect(await listedOnB()).toContain(models[0]!.adId);
  });

  it('a process starts while Redis is away, serves degraded, and joins when Redis comes', async () => {
    const port = await freePort();
    const config = { ...a.config, realtime: { ...a.config.realtime, redisUrl: `redis://127.0.0.1:${port}` } };
    const c = await buildApp(config, a.database, createDiskStorage(a.config.dataDir));
    let late: RedisServer | undefined;
    try {
      await c.ready();
      expect((await c.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'degraded' });
      expect((await (await newAgent(c)).get('/api/models?search=Redisa')).statusCode).toBe(200);
      late = await startRedis(port);
      await vi.waitFor(() => expect(c.sharedRedis!.up).toBe(true), { timeout: 15_000 });
      expect((await c.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ status: 'ok' });
    } finally {
      await c.close();
      await late?.stop();
    }
  });
});

describe.skipIf(!REDIS_SERVER)('an outage of Redis in the log', { timeout: 30_000 }, () => {
  it('is one warning, however many reconnection attempts fail, and one line when Redis is back', async () => {
    const lines: Array<[level: string, msg: string]> = [];
    const record =
      (level: string) =>
      (...args: unknown[]) =>
        void lines.push([level, String(args.find((x) => typeof x === 'string'))]);
    const log = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    } as unknown as FastifyBaseLogger;
    let redis = await startRedis();
    const port = Number(new URL(redis.url).port);
    const shared = await openSharedRedis(redis.url, 'vt-log:', log);
    try {
      expect(shared.up).toBe(true);
      await redis.stop();
      // Several failed reconnection attempts (each an `error` event, logged at debug).
      await vi.waitFor(() => expect(lines.filter(([level]) => level === 'debug').length).toBeGreaterThanOrEqual(6), { timeout: 15_000 });
      expect(lines.filter(([level]) => level === 'warn')).toEqual([['warn', expect.stringMatching(/Redis is unreachable/)]]);
      redis = await startRedis(port);
      await vi.waitFor(() => expect(shared.up).toBe(true), { timeout: 15_000 });
      expect(lines.filter(([level]) => level === 'info')).toEqual([['info', expect.stringMatching(/reachable again/)]]);
      expect(lines.filter(([level]) => level === 'warn' || level === 'error')).toHaveLength(1);
    } finally {
      await shared.close();
      await redis.stop();
    }
  });
});
