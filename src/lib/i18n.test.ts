import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTranslations, loadTranslations, TranslationsError } from './i18n-backend.ts';
import type { I18n } from './i18n-core.ts';
import { createI18n, detectionOptions } from './i18n.ts';

/** Loads `es` once with a stubbed network answer. */
async function load(answer: () => Promise<Response>): Promise<{ err: unknown; retry: boolean | undefined; data: unknown }> {
  vi.stubGlobal('fetch', vi.fn(answer));
  try {
    return { err: null, retry: undefined, data: await fetchTranslations('es') };
  } catch (err) {
    return { err, retry: err instanceof TranslationsError ? err.retry : undefined, data: undefined };
  }
}

const calls = () => (fetch as unknown as ReturnType<typeof vi.fn>).mock.calls.length;

function initialised(i18n: I18n) {
  return new Promise<void>((r) => (i18n.isInitialized ? r() : i18n.on('initialized', () => r())));
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
  it('asks again three times after a 5xx answer, then gives up; a 4xx answer is asked once', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('oops', { status: 503 }))),
    );
    await expect(loadTranslations('es', { wait: 1 })).rejects.toThrow(TranslationsError);
    expect(calls()).toBe(4);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 404 }))),
    );
    await expect(loadTranslations('es', { wait: 1 })).rejects.toThrow(TranslationsError);
    expect(calls()).toBe(1);
  });
  it('a retry that succeeds gives the translations', async () => {
    let n = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(n++ ? new Response('{"a":"b"}', { status: 200 }) : new Response('', { status: 502 }))),
    );
    await expect(loadTranslations('es', { wait: 1 })).resolves.toEqual({ a: 'b' });
    expect(calls()).toBe(2);
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
    await initialised(i18n);
    expect(i18n.language).toBe('pt_BR');
    expect(document.cookie).toContain('lang=pt_BR');
  });
});

describe('the fallback language (en) is loaded only when a key is missing', () => {
  const BUNDLES: Record<string, Record<string, string>> = {
    es: { hello: 'Hola', status: 'Estado' },
    en: { hello: 'Hello', status: 'Status', onlyEnglish: 'Only in English' },
    de: { hello: 'Hallo' },
  };
  const requested = () => (fetch as unknown as ReturnType<typeof vi.fn>).mock.calls.map(([url]) => String(url));

  async function start(path: string) {
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        const lng = url.split('/').pop()!;
        return Promise.resolve(new Response(JSON.stringify(BUNDLES[lng] ?? {}), { status: 200 }));
      }),
    );
    window.history.replaceState(null, '', path);
    const i18n = createI18n();
    await initialised(i18n);
    return i18n;
  }

  it('a Spanish page asks for the Spanish translations only', async () => {
    const i18n = await start('/es/legal/privacy-policy');
    expect(i18n.language).toBe('es');
    expect(i18n.t('hello')).toBe('Hola');
    // A lookup with its own default is no missing translation.
    expect(i18n.t('statuses.unknown_code', { defaultValue: 'unknown_code' })).toBe('unknown_code');
    expect(requested()).toEqual(['/api/language/es']);
  });

  it('the first missing key loads English once, and the key then reads in English', async () => {
    const i18n = await start('/de/legal/privacy-policy');
    expect(i18n.t('hello')).toBe('Hallo');
    const added = new Promise<void>((r) => i18n.on('added', (lng: string) => lng === 'en' && r()));
    expect(i18n.t('status')).toBe('status');
    expect(i18n.t('onlyEnglish')).toBe('onlyEnglish');
    await added;
    expect(i18n.t('status')).toBe('Status');
    expect(i18n.t('onlyEnglish')).toBe('Only in English');
    expect(i18n.t('hello')).toBe('Hallo');
    expect(requested()).toEqual(['/api/language/de', '/api/language/en']);
  });

  it('a visitor whose languages are all unsupported gets English', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('fr-FR');
    try {
      const i18n = await start('/');
      expect(i18n.language).toBe('en');
      expect(i18n.t('hello')).toBe('Hello');
      expect(requested()).toEqual(['/api/language/en']);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
