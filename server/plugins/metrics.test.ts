/**
 * GET /metrics: a 404 unless METRICS_TOKEN or METRICS_PORT is set; with the token only for `Bearer <token>`; on
 * METRICS_PORT from its own listener. The request histogram is labelled by route pattern (never an id from the URL)
 * and status; the app's gauges and counters are there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { testConfig } from '#server/config.ts';
import { scheduleJob } from '#server/modules/jobs/jobs.ts';
import { freePort } from '#tests/local-processes.ts';
import { createTestApp, withCsrf, XHR, type TestApp } from '#tests/test-app.ts';
import { bearerMatches, UNMATCHED_ROUTE } from './metrics.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('metrics not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 in the envelope, whatever the Authorization', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found' });
    }
    expect(t.app.metrics.enabled).toBe(false);
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };
  beforeAll(async () => {
    t = await createTestApp({ metrics: { ...testConfig().metrics, token: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('401 without the token or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcd', TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('vitrina_');
    }
  });

  it('labels request durations by route pattern and status, never by the URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/models/987654', headers: XHR });
    await t.app.inject({ method: 'GET', url: '/api/models/123456?x=1', headers: XHR });
    await t.app.inject({ method: 'GET', url: API.health });
    await t.app.inject({ method: 'GET', url: '/api/no-such-route-4242', headers: XHR });
    const text = await scrape();
    expect(text).toContain('vitrina_http_request_duration_seconds_count{method="GET",route="/api/models/:id",status="404"} 2');
    expect(text).toMatch(/vitrina_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(text).toContain(`route="${UNMATCHED_ROUTE}",status="404"`);
    // The labels only (the process metrics' numbers may contain any digits).
    const labels = text
      .split('\n')
      .filter((l) => l.startsWith('vitrina_'))
      .map((l) => l.slice(0, l.lastIndexOf(' ')));
    for (const raw of ['987654', '123456', '4242', 'x=1']) expect(labels.filter((l) => l.includes(raw))).toEqual([]);
    // Node's own metrics too.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('reports open websockets, jobs queued / due / failed, replays and cache lookups', async () => {
    await scheduleJob(t.app.db, { name: 'metrics-test', key: 'metrics-test-later', runAt: new Date(Date.now() + 3_600_000) });
    await scheduleJob(t.app.db, { name: 'metrics-test', key: 'metrics-test-due', runAt: new Date(Date.now() - 1000) });
    // An idempotent request repeated: the second answer is a replay.
    const csrf = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const token = csrf.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const pageview = withCsrf(
      { method: 'POST', url: API.pageView, payload: { path: '/es' }, headers: { 'idempotency-key': 'metrics-replay-key-1' } },
      token,
    );
    const first = await t.app.inject(pageview);
    const second = await t.app.inject(pageview);
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.headers['idempotent-replayed']).toBe('true');
    // The listing's micro-cache: the same page asked three times is a miss, then two hits.
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/models?section=women', headers: XHR })).statusCode).toBe(200);
    // The photo-visibility cache reports its own lookups: an ad asked about twice is a miss, then a hit.
    const photo = '/media/ads/987001/00000000-0000-4000-8000-000000000000/320.webp';
    for (let i = 0; i < 2; i++) expect((await t.app.inject({ method: 'GET', url: photo })).statusCode).toBe(404);

    const text = await scrape();
    expect(text).toMatch(/^vitrina_websocket_connections 0$/m);
    expect(text).toMatch(/^vitrina_jobs_queued 2$/m);
    expect(text).toMatch(/^vitrina_jobs_due 1$/m);
    expect(text).toMatch(/^vitrina_jobs_failed 0$/m);
    expect(text).toMatch(/^vitrina_idempotent_replays_total 1$/m);
    expect(text).toContain('vitrina_cache_lookups_total{cache="listings",result="hit"} 2');
    expect(text).toContain('vitrina_cache_lookups_total{cache="listings",result="miss"} 1');
    expect(text).toContain('vitrina_cache_lookups_total{cache="photo-visibility",result="miss"} 1');
    expect(text).toContain('vitrina_cache_lookups_total{cache="photo-visibility",result="hit"} 1');
  });
});

describe('metrics on METRICS_PORT', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ metrics: { ...testConfig().metrics, port } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves /metrics on its own loopback listener, and 404 on the app port (no token set)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('vitrina_http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(404);
    const addr = t.app.server.address() as { port: number };
    expect((await fetch(`http://127.0.0.1:${addr.port}/metrics`)).status).toBe(404);
  });
});

describe('bearerMatches', () => {
  it('matches only the exact header', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches('', TOKEN)).toBe(false);
  });
});
