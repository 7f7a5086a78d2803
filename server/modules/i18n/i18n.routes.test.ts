import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/language/{lng}', () => {
  it.each(['es', 'en', 'de', 'pt_BR'])('returns the %s translation object from locales/', async (lng) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/language/${lng}`, headers: XHR });
    expect(res.statusCode).toBe(200);
    const expected = JSON.parse(fs.readFileSync(new URL(`../../../locales/${lng}.json`, import.meta.url), 'utf8')) as unknown;
    expect(res.json()).toEqual(expected);
  });

  it.each(['fr', 'pt', 'pt-BR', 'ES', '..%2Fpackage'])('answers 404 for the unknown language %s', async (lng) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/language/${lng}`, headers: XHR });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });
});
