import { afterEach, describe, expect, it, vi } from 'vitest';
import { LanguageBackend } from './i18n-backend.ts';
import { createI18n, detectionOptions } from './i18n.ts';

/** Loads `es` through our backend with a stubbed network answer. */
function load(answer: () => Promise<Response>): Promise<{ err: unknown; retry: boolean | undefined; data: unknown }> {
  vi.stubGlobal('fetch', vi.fn(answer));
  const backend = new LanguageBackend();
  return new Promise((resolve) => {
    backend.read('es', 'translation', (err, data) => resolve({ err, retry: typeof data === 'boolean' ? data : undefined, data }));
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'lang=; max-age=0; path=/';
});

describe('translation loading retry rules (SPEC §8)', () => {
  it('asks /api/language/{lng} with the XHR header', async () => {
    const res = await load(() => Promise.resolve(new Response('{"a":"b"}', { status: 200 })));
    expect(res.err).toBeNull();
    expect(res.data).toEqual({ a: 'b' });
    const [url, init] = (fetch as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/language/es');
    expect(new Headers(init.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
  });
  it('retries a 5xx answer', async () => {
    const res = await load(() => Promise.resolve(new Response('oops', { status: 503 })));
    expect(res.err).toBeTruthy();
    expect(res.retry).toBe(true);
  });
  it('retries when there is no status (network failure)', async () => {
    const res = await load(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(res.err).toBeTruthy();
    expect(res.retry).toBe(true);
  });
  it('does not retry a 4xx answer', async () => {
    const res = await load(() => Promise.resolve(new Response('{}', { status: 404 })));
    expect(res.err).toBeTruthy();
    expect(res.retry).toBe(false);
  });
  it('does not retry an answer that is not JSON', async () => {
    const res = await load(() => Promise.resolve(new Response('<html>', { status: 200 })));
    expect(res.err).toBeTruthy();
    expect(res.retry).toBe(false);
  });
});

describe('language detection (SPEC §9)', () => {
  it('follows the order path, cookie, html lang, localStorage, sessionStorage, navigator, query string, subdomain', () => {
    expect(detectionOptions.order).toEqual([
      'path',
      'cookie',
      'htmlTag',
      'localStorage',
      'sessionStorage',
      'navigator',
      'querystring',
      'subdomain',
    ]);
    expect(detectionOptions.lookupCookie).toBe('lang');
    expect(detectionOptions.caches).toEqual(['cookie']);
  });
  it('maps browser tags onto our codes', () => {
    const convert = detectionOptions.convertDetectedLanguage;
    expect(convert('pt-BR')).toBe('pt_BR');
    expect(convert('de-AT')).toBe('de');
    expect(convert('fr')).toBe('fr');
  });
  it('takes the language from the first path segment before the cookie, and caches it in the lang cookie', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 200 }))),
    );
    document.cookie = 'lang=en; path=/';
    window.history.replaceState(null, '', '/pt_BR/legal/privacy-policy');
    const i18n = createI18n();
    await new Promise<void>((r) => (i18n.isInitialized ? r() : i18n.on('initialized', () => r())));
    expect(i18n.language).toBe('pt_BR');
    expect(document.cookie).toContain('lang=pt_BR');
    expect(i18n.options.fallbackLng).toEqual(['en']);
    expect(i18n.options.defaultNS).toBe('translation');
  });
});
