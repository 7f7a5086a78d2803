import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, ConflictError, OfflineError, setSocketId, ValidationError } from './api-client.ts';

type Call = [string, RequestInit];
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; max-age=0; path=/';
});

describe('apiRequest', () => {
  it('marks every call as XHR and echoes the CSRF cookie on state-changing calls', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D; path=/';
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(json({ ok: true }, 201)));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('/api/x', { method: 'POST', body: { a: 1 }, idempotencyKey: 'k-1' });
    const [, init] = fetchMock.mock.calls[0] as Call;
    const headers = new Headers(init.headers);
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('X-XSRF-TOKEN')).toBe('abc=');
    expect(headers.get('Idempotency-Key')).toBe('k-1');
    expect(init.body).toBe('{"a":1}');
  });

  it('fetches a fresh CSRF token and retries once after 419', async () => {
    document.cookie = 'XSRF-TOKEN=old; path=/';
    const responses = [json({ error: 'csrf_mismatch' }, 419), new Response(null, { status: 204 }), json({ ok: 1 })];
    const fetchMock = vi.fn((url: string) => {
      if (url === '/sanctum/csrf-cookie') document.cookie = 'XSRF-TOKEN=new; path=/';
      return Promise.resolve(responses.shift()!);
    });
    vi.stubGlobal('fetch', fetchMock);
    const res = await apiRequest('/api/x', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/api/x', '/sanctum/csrf-cookie', '/api/x']);
    expect(new Headers((fetchMock.mock.calls[2] as unknown as Call)[1].headers).get('X-XSRF-TOKEN')).toBe('new');
  });

  it('throws typed errors: 422 ValidationError, 409 ConflictError, network OfflineError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json({ error: 'validation_failed', errors: { path: ['x'] } }, 422))),
    );
    await expect(apiRequest('/api/x')).rejects.toBeInstanceOf(ValidationError);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json({ error: 'conflict' }, 409))),
    );
    await expect(apiRequest('/api/x')).rejects.toBeInstanceOf(ConflictError);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('/api/x')).rejects.toBeInstanceOf(OfflineError);
  });

  it('sends the realtime socket id as X-Socket-ID while connected, so the server can leave this tab out (toOthers)', async () => {
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(json({ ok: true })));
    vi.stubGlobal('fetch', fetchMock);
    setSocketId('123.456');
    await apiRequest('/api/x');
    setSocketId(undefined);
    await apiRequest('/api/x');
    expect(new Headers((fetchMock.mock.calls[0] as Call)[1].headers).get('X-Socket-ID')).toBe('123.456');
    expect(new Headers((fetchMock.mock.calls[1] as Call)[1].headers).has('X-Socket-ID')).toBe(false);
  });

  it('sends URLSearchParams form-encoded as they are (the broadcasting auth bodies)', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(json({ auth: 'k:s' })));
    vi.stubGlobal('fetch', fetchMock);
    const body = new URLSearchParams({ socket_id: '1.2', channel_name: 'private-x' });
    await apiRequest('/broadcasting/auth', { method: 'POST', body });
    const [, init] = fetchMock.mock.calls[0] as Call;
    expect(init.body).toBe(body);
    expect(new Headers(init.headers).has('Content-Type')).toBe(false);
    expect(new Headers(init.headers).get('X-XSRF-TOKEN')).toBe('t');
  });
});
