/**
 * GET /api/health (alive, touches nothing) and GET /api/ready (database, Redis when configured, storage), and the
 * request id every answer carries.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { readyAnswerSchema } from '#contract/system.ts';
import { testConfig } from '#server/config.ts';
import { freePort, REDIS_SERVER, startRedis } from '#tests/local-processes.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { createReadinessChecks } from './readiness.ts';

const silentLog = { warn() {}, debug() {}, info() {}, error() {} } as never;
const OPS_TOKEN = 'ops-token-for-the-readiness-details-0123';
/** The operator's view of /api/ready: with the metrics token. */
const OPERATOR = { authorization: `Bearer ${OPS_TOKEN}` };
const withToken = () => createTestApp({ metrics: { ...testConfig().metrics, token: OPS_TOKEN } });

describe('health and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await withToken();
  });
  afterAll(async () => {
    await t.close();
  });

  it('health answers without X-Requested-With and without asking the database', async () => {
    let queries = 0;
    const execute = t.app.db.execute.bind(t.app.db);
    t.app.db.execute = (...args: Parameters<typeof execute>) => {
      queries++;
      return execute(...args);
    };
    try {
      const res = await t.app.inject({ method: 'GET', url: API.health });
      expect(res.statusCode).toBe(200);
      // Anyone may ask: nothing about the process's parts (issue 24 D: it named the database engine).
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(queries).toBe(0);
    } finally {
      t.app.db.execute = execute;
    }
  });

  it('ready: anyone gets the status, not the parts', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }, { authorization: OPS_TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: API.ready, headers: { 'accept-language': 'en', ...headers } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        channel: 'notification',
        type: 'success',
        message: 'Ready to serve requests.',
        data: { status: 'ready' },
      });
    }
  });

  it('ready: 200 in the envelope, each part checked (with the metrics token)', async () => {
    const res = await t.app.inject({ method: 'GET', url: API.ready, headers: { 'accept-language': 'en', ...OPERATOR } });
    expect(res.statusCode).toBe(200);
    const body = readyAnswerSchema.parse(res.json());
    expect(body).toMatchObject({ type: 'success', message: 'Ready to serve requests.', data: { status: 'ready', failing: [] } });
    expect(Object.keys(body.data.checks!).sort()).toEqual(['database', 'storage']);
    expect(body.data.checks!.database!.status).toBe('ok');
    // The storage probe leaves nothing behind.
    expect(fs.readdirSync(`${t.app.storage.root}/.ready`)).toEqual([]);
  });

  it('ready: 503 naming storage when it cannot be written', async () => {
    const root = t.app.storage.root;
    fs.rmSync(root, { recursive: true, force: true });
    // A file where the folder should be: not even root can write under it.
    fs.writeFileSync(root, 'not a folder');
    try {
      const anonymous = await t.app.inject({ method: 'GET', url: API.ready, headers: { 'accept-language': 'es' } });
      expect(anonymous.statusCode).toBe(503);
      expect(anonymous.json()).toMatchObject({ type: 'error', error: 'service_unavailable', data: { status: 'unavailable' } });
      expect(anonymous.json<{ data: object }>().data).toEqual({ status: 'unavailable' });
      expect(anonymous.body).not.toMatch(/storage|database/);

      const res = await t.app.inject({ method: 'GET', url: API.ready, headers: { 'accept-language': 'es', ...OPERATOR } });
      expect(res.statusCode).toBe(503);
      const body = readyAnswerSchema.parse(res.json());
      expect(body).toMatchObject({
        type: 'error',
        error: 'service_unavailable',
        message: 'No disponible: falla storage.',
        data: { status: 'unavailable', failing: ['storage'] },
      });
      expect(body.data.checks!.storage).toMatchObject({ status: 'failing', reason: 'error' });
      expect(body.data.checks!.database!.status).toBe('ok');
      // Nothing internal in the answer (the path, the errno).
      expect(res.body).not.toContain(root);
      expect(res.body).not.toMatch(/ENOTDIR|EEXIST/);
    } finally {
      fs.rmSync(root, { force: true });
      fs.mkdirSync(root, { recursive: true });
    }
    expect((await t.app.inject({ method: 'GET', url: API.ready })).statusCode).toBe(200);
  });

  it('ready: 503 naming the database when it is closed; health still 200', async () => {
    const own = await withToken();
    const close = own.database.close.bind(own.database);
    await close();
    // Closed already: the TestApp's own close must not close it twice.
    own.database.close = async () => {};
    try {
      expect((await own.app.inject({ method: 'GET', url: API.ready })).statusCode).toBe(503);
      const res = await own.app.inject({ method: 'GET', url: API.ready, headers: OPERATOR });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'service_unavailable', data: { failing: ['database'] } });
      expect((await own.app.inject({ method: 'GET', url: API.health })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('readiness on the metrics port', () => {
  it('answers every part without a token there (loopback listener), and only the status on the app port', async () => {
    const port = await freePort();
    const t = await createTestApp({ metrics: { ...testConfig().metrics, port } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`http://127.0.0.1:${port}${API.ready}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as { status: string; failing: string[]; checks: Record<string, unknown> };
      expect(body).toMatchObject({ status: 'ready', failing: [], degraded: [] });
      expect(Object.keys(body.checks).sort()).toEqual(['database', 'storage']);
      const app = t.app.server.address() as { port: number };
      expect(await (await fetch(`http://127.0.0.1:${app.port}${API.ready}`)).json()).toMatchObject({ data: { status: 'ready' } });
      expect(JSON.stringify(await (await fetch(`http://127.0.0.1:${app.port}${API.ready}`)).json())).not.toContain('checks');
    } finally {
      await t.close();
    }
  });
});

describe('readiness checks', () => {
  it('a check that does not answer in time fails as a timeout; concurrent runs share one round', async () => {
    const checks = createReadinessChecks(50);
    let calls = 0;
    checks.add('fast', async () => {
      calls++;
    });
    checks.add('hung', () => new Promise(() => {}));
    const [a, b] = await Promise.all([checks.run(silentLog), checks.run(silentLog)]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
    expect(a).toMatchObject({
      status: 'unavailable',
      failing: ['hung'],
      checks: { fast: { status: 'ok' }, hung: { status: 'failing', reason: 'timeout' } },
    });
    expect(() => checks.add('fast', async () => {})).toThrow(/already/);
  });
});

if (!REDIS_SERVER) console.warn('operations.test.ts: the Redis readiness test is skipped (redis-server is not installed)');

describe.skipIf(!REDIS_SERVER)('readiness with REDIS_URL', () => {
  it('checks Redis, and names it as degraded (still 200) when it goes away', { timeout: 60_000 }, async () => {
    const redis = await startRedis();
    let stopped = false;
    const t = await createTestApp({
      realtime: { ...testConfig().realtime, redisUrl: redis.url },
      metrics: { ...testConfig().metrics, token: OPS_TOKEN },
    });
    try {
      const ok = await t.app.inject({ method: 'GET', url: API.ready, headers: OPERATOR });
      expect(ok.statusCode).toBe(200);
      expect(readyAnswerSchema.parse(ok.json()).data.checks!.redis!.status).toBe('ok');
      await redis.stop();
      stopped = true;
      const down = await t.app.inject({ method: 'GET', url: API.ready, headers: OPERATOR });
      expect(down.statusCode).toBe(200);
      expect(readyAnswerSchema.parse(down.json()).data).toMatchObject({ status: 'degraded', failing: [], degraded: ['redis'] });
    } finally {
      await t.close();
      if (!stopped) await redis.stop();
    }
  });
});

describe('request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('every answer carries one, fresh per request', async () => {
    const a = await t.app.inject({ method: 'GET', url: API.health });
    const b = await t.app.inject({ method: 'GET', url: '/api/no-such-route', headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.statusCode).toBe(404);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    // Refusals by the guards too (no X-Requested-With).
    const refused = await t.app.inject({ method: 'GET', url: '/api/user' });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['x-request-id']).toBeDefined();
  });

  it('keeps a well-formed incoming X-Request-Id and replaces anything else', async () => {
    const sent = 'edge-7f3a9c2e4b1d4e8f9a0b';
    const kept = await t.app.inject({ method: 'GET', url: API.health, headers: { 'x-request-id': sent } });
    expect(kept.headers['x-request-id']).toBe(sent);
    for (const bad of [
      'short',
      'with space inside it',
      'a'.repeat(129),
      'line\\nbreak-0123456789',
      '{"json":"0123456789"}',
      '-leading-dash-123',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: API.health, headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
