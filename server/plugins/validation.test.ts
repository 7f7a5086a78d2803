import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAgent, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { nulPaths } from './validation.ts';

let t: TestApp;
let visitor: Agent;
let superAdmin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  visitor = await newAgent(t.app);
  superAdmin = await newAgent(t.app);
  expect((await superAdmin.post('/api/login', { email: 'superadmin@vitrina.test', password: 'demo-password-123' })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

const errorsOf = (res: { json(): unknown }) => (res.json() as { errors?: Record<string, string[]> }).errors ?? {};

describe('a NUL character anywhere in the input', () => {
  it('is refused in the query string, naming the field, in the request language', async () => {
    const res = await visitor.get('/api/cities/search?q=a%00b', { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    expect(errorsOf(res).q).toEqual(['It contains control characters that are not allowed.']);
  });

  it('is refused in a JSON body, naming the field, and nothing is stored', async () => {
    const before = t.app.mailer.outbox.length;
    const res = await visitor.post('/api/contact', {
      name: 'Pro\u0000be',
      email: 'probe@example.test',
      subject: 'Hola hola',
      message: 'Un mensaje suficientemente largo para pasar.',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(errorsOf(res))).toContain('name');
    expect(t.app.mailer.outbox.length).toBe(before);
  });

  it('is found in nested values and keys', () => {
    expect(nulPaths({ a: [{ b: 'x\u0000' }], ['k\u0000']: 1, ok: 'fine' })).toEqual([['a', 0, 'b'], ['k']]);
    expect(nulPaths({ a: 'fine', b: [1, null, true] })).toEqual([]);
  });
});

describe('ids are canonical decimal integers', () => {
  it("other spellings of a listed model's id name no record", async () => {
    const { adId } = await buildModel(t.database.db, { name: 'Canónica' });
    expect((await visitor.get(`/api/models/${adId}`)).statusCode).toBe(200);
    for (const id of [`0x${adId.toString(16)}`, `${adId}e0`, `+${adId}`, `0${adId}`, `${adId}.0`, '99999999999999999999999']) {
      expect((await visitor.get(`/api/models/${encodeURIComponent(id)}`)).statusCode, id).toBe(404);
    }
  });
});

describe('the audit log query', () => {
  it.each(['from=2026-99-99', 'to=2026-13-45', 'from=2026-02-30', 'actor=99999999999999999999999'])('refuses %s with 422', async (q) => {
    const res = await superAdmin.get(`/api/super-admin/audit?${q}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_failed' });
  });

  it('still takes real dates and ids', async () => {
    expect((await superAdmin.get('/api/super-admin/audit?from=2026-01-31&to=2026-12-31&actor=1')).statusCode).toBe(200);
  });
});
