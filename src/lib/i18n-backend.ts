/**
 * Loads a language's translations from GET /api/language/{lng} for i18next: the one thing we used
 * i18next-http-backend for, in a few lines instead of its 7 KB (it ships on every page). The retry rules are
 * the same (SPEC §8): a 5xx answer or a network failure asks i18next to retry (it does, `maxRetries` times,
 * `retryTimeout` apart); a 4xx answer or a body that is not JSON fails at once.
 */
import type { BackendModule, ReadCallback, ResourceKey } from 'i18next';
import { API } from '#contract/routes.ts';

export const LANGUAGE_REQUEST: RequestInit = {
  headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
  credentials: 'same-origin',
  cache: 'no-cache',
};

export class LanguageBackend implements BackendModule {
  static readonly type = 'backend';
  readonly type = 'backend';

  init() {}

  read(language: string, _namespace: string, callback: ReadCallback) {
    void load(API.language(language)).then(([err, data]) => callback(err, data));
  }
}

async function load(url: string): Promise<[string | null, ResourceKey | boolean]> {
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, LANGUAGE_REQUEST);
    if (res.status >= 500 || !res.status) return [`failed loading ${url}; status code: ${res.status}`, true];
    if (!res.ok) return [`failed loading ${url}; status code: ${res.status}`, false];
    body = await res.text();
  } catch (err) {
    return [`failed loading ${url}: ${err instanceof Error ? err.message : String(err)}`, true];
  }
  try {
    return [null, JSON.parse(body) as ResourceKey];
  } catch {
    return [`failed parsing ${url} to json`, false];
  }
}
