import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAgent } from '#tests/agent.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import { canonicalUrl, signedCsrfToken } from './security.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

const LOGIN = JSON.stringify({ email: 'client@vitrina.test', password: 'demo-password-123' });

/** A request written byte for byte, as `curl --path-as-is` or a hand-made client sends it (inject would tidy it). */
function raw(requestLine: string, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(text.slice(9, 12)), text }));
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      connection: 'close',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.write(`${requestLine}\r\n${head}\r\n\r\n${body}`);
  });
}

describe('the XHR and CSRF guards whatever the spelling of the path', () => {
  const json = { 'content-type': 'application/json' };

  it('a percent-encoded /api path is guarded like /api (no sign-in without the headers)', async () => {
    const res = await raw('POST /%61pi/login HTTP/1.1', json, LOGIN);
    expect(res.status).toBe(400);
    expect(res.text).toContain('xhr_required');
    expect(res.text).not.toContain('vitrina_session=');
    const withXhr = await raw('POST /%61pi/login HTTP/1.1', { ...json, ...XHR }, LOGIN);
    expect(withXhr.status).toBe(419);
    expect(withXhr.text).not.toContain('vitrina_session=');
  });

  it('an absolute-form request target is guarded like its path', async () => {
    const res = await raw(`POST http://127.0.0.1:${port}/api/login HTTP/1.1`, { ...json, ...XHR }, LOGIN);
    expect(res.status).toBe(419);
    expect(res.text).not.toContain('vitrina_session=');
  });

  it('a target that does not canonicalise is refused, never routed', async () => {
    for (const target of ['/api/%zz/login', '/api/../api/login', '/api/%2e%2e/api/login', '/api/login%00', '/\\api/login']) {
      const res = await raw(`POST ${target} HTTP/1.1`, { ...json, ...XHR }, LOGIN);
      expect(res.status, target).toBe(400);
      expect(res.text, target).not.toContain('vitrina_session=');
    }
  });

  it('the canonical spelling of a path (unreserved escapes decoded, others kept)', () => {
    expect(canonicalUrl('/%61pi/login?x=%00')).toBe('/api/login?x=%00');
    expect(canonicalUrl('http://evil.test:80/api/login')).toBe('/api/login');
    expect(canonicalUrl('/api/cities/search/%c3%a1')).toBe('/api/cities/search/%C3%A1');
    expect(canonicalUrl('//api/login')).toBeNull();
    expect(canonicalUrl('*')).toBeNull();
  });
});

describe('signed double-submit CSRF token', () => {
  const post = (token: string | undefined, cookie: string | undefined, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'client@vitrina.test', password: 'demo-password-123' },
      headers: { ...XHR, ...(token !== undefined ? { 'x-xsrf-token': token } : {}) },
      cookies: { ...(cookie !== undefined ? { 'XSRF-TOKEN': cookie } : {}), ...extra },
    });

  it('a malformed percent-escape in X-XSRF-TOKEN is a 419 like any wrong token, not a 500', async () => {
    const res = await post('%E0%A4%A', '%E0%A4%A');
    expect(res.statusCode).toBe(419);
    expect(res.json()).toMatchObject({ error: 'csrf_mismatch' });
  });

  it('refuses a cookie and header pair chosen by an attacker', async () => {
    const res = await post('attacker-chosen', 'attacker-chosen');
    expect(res.statusCode).toBe(419);
    // Signed with another key: the shape is right, the signature is not.
    const forged = signedCsrfToken('another-key-another-key-another-key', undefined);
    expect((await post(forged, forged)).statusCode).toBe(419);
  });

  it('accepts the token the server issued, and binds it to the session', async () => {
    const agent = await newAgent(t.app);
    const anonymousToken = agent.cookies.get('XSRF-TOKEN')!;
    const login = await agent.post('/api/login', { email: 'client@vitrina.test', password: 'demo-password-123' });
    expect(login.statusCode).toBe(200);
    const sessionToken = agent.cookies.get('vitrina_session')!;
    // Sign-in issued a new token; the one from before sign-in is no good with the new session.
    expect(agent.cookies.get('XSRF-TOKEN')).not.toBe(anonymousToken);
    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...XHR, 'x-xsrf-token': anonymousToken },
      cookies: { 'XSRF-TOKEN': anonymousToken, vitrina_session: sessionToken },
    });
    expect(stale.statusCode).toBe(419);
    // Nor is another session's token.
    const other = await newAgent(t.app);
    await other.post('/api/login', { email: 'model@vitrina.test', password: 'demo-password-123' });
    const othersToken = other.cookies.get('XSRF-TOKEN')!;
    const crossed = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { ...XHR, 'x-xsrf-token': othersToken },
      cookies: { 'XSRF-TOKEN': othersToken, vitrina_session: sessionToken },
    });
    expect(crossed.statusCode).toBe(419);
    expect((await agent.post('/api/logout')).statusCode).toBeLessThan(300);
  });
});
