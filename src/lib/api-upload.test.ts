import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineError, setApiLanguage, ValidationError } from './api-client.ts';
import { apiUpload } from './api-upload.ts';

/** A stand-in for XMLHttpRequest: records what is sent and answers with the next scripted reply. */
class FakeXhr {
  static replies: ({ status: number; body?: unknown } | 'network-error')[] = [];
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  withCredentials = false;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    queueMicrotask(() => this.onabort?.());
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
    const reply = FakeXhr.replies.shift()!;
    queueMicrotask(() => {
      this.upload.onprogress?.({ loaded: 40, total: 100, lengthComputable: true });
      if (reply === 'network-error') return this.onerror?.();
      this.status = reply.status;
      this.responseText = reply.body === undefined ? '' : JSON.stringify(reply.body);
      this.onload?.();
    });
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.replies = [];
  FakeXhr.sent = [];
  document.cookie = 'XSRF-TOKEN=; max-age=0; path=/';
  setApiLanguage('es');
});

describe('apiUpload', () => {
  it('sends the XHR header, the CSRF token, the language and the form, and reports progress', async () => {
    document.cookie = 'XSRF-TOKEN=tok%3D; path=/';
    setApiLanguage('de');
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.replies = [{ status: 201, body: { channel: 'notification', type: 'success', message: 'ok' } }];
    const form = new FormData();
    form.append('ad_id', '3');
    const progress: [number, number][] = [];
    const res = await apiUpload('/api/upload/images', form, { onProgress: (l, t) => progress.push([l, t]) });
    expect(res).toEqual({ status: 201, data: { channel: 'notification', type: 'success', message: 'ok' } });
    const [xhr] = FakeXhr.sent;
    expect(xhr).toMatchObject({ method: 'POST', url: '/api/upload/images', withCredentials: true, body: form });
    expect(xhr!.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': 'tok=', 'X-Locale': 'de' });
    // The browser writes the multipart boundary: no Content-Type of ours.
    expect(Object.keys(xhr!.headers)).not.toContain('Content-Type');
    expect(progress).toEqual([[40, 100]]);
  });

  it('fetches a fresh CSRF token and sends again once after 419', async () => {
    document.cookie = 'XSRF-TOKEN=old; path=/';
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => {
        document.cookie = 'XSRF-TOKEN=new; path=/';
        return Promise.resolve(new Response(null, { status: 204 }));
      }),
    );
    FakeXhr.replies = [
      { status: 419, body: { error: 'csrf_mismatch' } },
      { status: 201, body: { ok: 1 } },
    ];
    const res = await apiUpload('/api/upload/images', new FormData());
    expect(res.status).toBe(201);
    expect(FakeXhr.sent.map((x) => x.headers['X-XSRF-TOKEN'])).toEqual(['old', 'new']);
  });

  it('throws the same typed errors as apiRequest', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.replies = [{ status: 422, body: { error: 'validation_failed', message: 'no' } }, 'network-error'];
    await expect(apiUpload('/x', new FormData())).rejects.toBeInstanceOf(ValidationError);
    await expect(apiUpload('/x', new FormData())).rejects.toBeInstanceOf(OfflineError);
  });

  it('aborts with an AbortError', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    controller.abort();
    await expect(apiUpload('/x', new FormData(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.sent).toHaveLength(0);
  });
});
