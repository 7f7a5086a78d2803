/**
 * Loads a language's translations from GET /api/language/{lng}. The retry rules are SPEC §8's: a 5xx answer or a
 * network failure is retried (three times, waiting 0.5 s, then 1 s, then 2 s, as i18next's loader did); a 4xx answer
 * or a body that is not JSON fails at once.
 */
import { API } from '#contract/routes.ts';
import type { Resources } from './i18n-core.ts';

export const LANGUAGE_REQUEST: RequestInit = {
  headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
  credentials: 'same-origin',
  cache: 'no-cache',
};

export class TranslationsError extends Error {
  constructor(
    message: string,
    /** Worth asking again (a server error, no answer). */
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** One attempt. */
export async function fetchTranslations(lng: string): Promise<Resources> {
  const url = API.language(lng);
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, LANGUAGE_REQUEST);
    if (!res.ok) throw new TranslationsError(`failed loading ${url}; status code: ${res.status}`, res.status >= 500 || !res.status);
    body = await res.text();
  } catch (err) {
    if (err instanceof TranslationsError) throw err;
    throw new TranslationsError(`failed loading ${url}: ${err instanceof Error ? err.message : String(err)}`, true);
  }
  try {
    return JSON.parse(body) as Resources;
  } catch {
    throw new TranslationsError(`failed parsing ${url} to json`, false);
  }
}

export async function loadTranslations(lng: string, { retries = 3, wait = 500 } = {}): Promise<Resources> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchTranslations(lng);
    } catch (err) {
      if (!(err instanceof TranslationsError) || !err.retry || attempt >= retries) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait * 2 ** attempt));
    }
  }
}
