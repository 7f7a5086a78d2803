import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageViews } from '#server/db/schema.ts';
import { createTestApp, withCsrf, XHR, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const stored = async () => (await t.database.db.select({ n: count() }).from(pageViews))[0]?.n ?? 0;

describe('POST /api/analytics/pageview', () => {
  it('stores a page view with the language and only the referrer host', async () => {
    const before = await stored();
    const res = await t.app.inject(
      withCsrf({
        method: 'POST',
        url: '/api/analytics/pageview',
        payload: { path: '/es/', referrer: 'https://example.org/a?b=c' },
        headers: { 'x-locale': 'es' },
      }),
    );
    expect(res.statusCode).toBe(204);
    expect(await stored()).toBe(before + 1);
    const rows = await t.database.db.select().from(pageViews);
    expect(rows.at(-1)).toMatchObject({ path: '/es/', language: 'es', referrerHost: 'example.org' });
  });

  it('rejects a path with a query string or no leading slash with 422 field errors and stores nothing', async () => {
    const before = await stored();
    for (const path of ['/es/?search=x', 'es/', '', 'x'.repeat(600)]) {
      const res = await t.app.inject(
        withCsrf({ method: 'POST', url: '/api/analytics/pageview', payload: { path }, headers: { 'x-locale': 'en' } }),
      );
      expect(res.statusCode, path).toBe(422);
      const body = res.json<{ error: string; errors: Record<string, string[]> }>();
      expect(body.error).toBe('validation_failed');
      expect(body.errors.path?.length).toBeGreaterThan(0);
    }
    expect(await stored()).toBe(before);
  });

  it('answers 422 (not 500) to a body that is not an object and 400 to broken JSON', async () => {
    const notObject = await t.app.inject(
      withCsrf({ method: 'POST', url: '/api/analytics/pageview', payload: '[1,2]', headers: { 'content-type': 'application/json' } }),
    );
    expect(notObject.statusCode).toBe(422);
    const broken = await t.app.inject(
      withCsrf({ method: 'POST', url: '/api/analytics/pageview', payload: '{"path":', headers: { 'content-type': 'application/json' } }),
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ type: 'error' });
  });

  it('requires the CSRF token echoed from the XSRF-TOKEN cookie', async () => {
    const before = await stored();
    const missing = await t.app.inject({ method: 'POST', url: '/api/analytics/pageview', payload: { path: '/es/' }, headers: XHR });
    expect(missing.statusCode).toBe(419);
    expect(missing.json()).toMatchObject({ error: 'csrf_mismatch' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/pageview',
      payload: { path: '/es/' },
      headers: { ...XHR, 'x-xsrf-token': 'a' },
      cookies: { 'XSRF-TOKEN': 'b' },
    });
    expect(wrong.statusCode).toBe(419);
    expect(await stored()).toBe(before);
  });

  it('issues a readable XSRF-TOKEN cookie at /sanctum/csrf-cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value.length).toBeGreaterThanOrEqual(32);
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.sameSite).toBe('Lax');
  });
});
