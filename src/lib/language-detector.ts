/**
 * Finds the visitor's language and remembers the choice: the part of i18next-browser-languagedetector that we use
 * (its detectors, in our order, and its cookie cache) in a fraction of its size, since it ships on every page. Each
 * source gives candidates; src/lib/i18n.ts takes the first supported one.
 */
export type DetectorName = 'path' | 'cookie' | 'htmlTag' | 'localStorage' | 'sessionStorage' | 'navigator' | 'querystring' | 'subdomain';

export interface DetectionOptions {
  order: DetectorName[];
  /** Which path segment holds the language (0: `/es/…`). */
  lookupFromPathIndex: number;
  lookupCookie: string;
  lookupLocalStorage: string;
  lookupSessionStorage: string;
  lookupQuerystring: string;
  /** Where the chosen language is stored. */
  caches: 'cookie'[];
  cookieMinutes: number;
  cookieOptions: { path: string; sameSite: 'lax' | 'strict' };
  /** Maps what a source says (`pt-BR`) onto our codes (`pt_BR`). */
  convertDetectedLanguage: (lng: string) => string;
  /**
   * A language we take as it is: the sources after the first one that names such a language are not read.
   * The first supported candidate is taken anyway, and reading Web Storage is a synchronous trip to the
   * browser's storage process on the page's start-up task (tens of milliseconds on a phone for sessionStorage alone).
   */
  isFinal?: (lng: string) => boolean;
}

type Found = string | readonly string[] | null | undefined;

// Storage and cookies can be switched off (privacy settings, sandboxed frames): that source then says nothing.
function fromStorage(kind: 'localStorage' | 'sessionStorage', key: string): Found {
  try {
    return window[kind].getItem(key);
  } catch {
    return undefined;
  }
}

function fromCookie(name: string): Found {
  try {
    return document.cookie
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${name}=`))
      ?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

const SOURCES: Record<DetectorName, (o: DetectionOptions) => Found> = {
  path: (o) => window.location.pathname.match(/\/([a-zA-Z][a-zA-Z0-9-]*)?/g)?.[o.lookupFromPathIndex]?.replace('/', ''),
  cookie: (o) => fromCookie(o.lookupCookie),
  htmlTag: () => document.documentElement.getAttribute('lang'),
  localStorage: (o) => fromStorage('localStorage', o.lookupLocalStorage),
  sessionStorage: (o) => fromStorage('sessionStorage', o.lookupSessionStorage),
  navigator: () => [...navigator.languages, navigator.language],
  querystring: (o) => new URLSearchParams(window.location.search).get(o.lookupQuerystring),
  // A language as the first label of the host name (de.example.com), read as i18next-browser-languagedetector does.
  subdomain: () =>
    window.location.hostname.match(/^(\w{2,5}(?:-(?:[a-z]{4}|[a-z]{2}|\d{3}))*)\.(([a-z0-9-]{1,63}\.[a-z]{2,6})|localhost)/i)?.[1],
};

/** Codes taken from outside (as i18next accepted them): letters, digits, `-_@.` (no `..`), at most 128 characters. */
function isSafeCode(code: string): boolean {
  return /^[\w@.-]{1,128}$/.test(code) && !code.includes('..') && !['__proto__', 'constructor', 'prototype'].includes(code);
}

export class LanguageDetector {
  constructor(private readonly options: DetectionOptions) {}

  detect(): string[] {
    const found: string[] = [];
    for (const name of this.options.order) {
      const said = SOURCES[name](this.options) ?? [];
      const codes: readonly string[] = typeof said === 'string' ? [said] : said;
      for (const code of codes) {
        if (!code || !isSafeCode(code)) continue;
        const lng = this.options.convertDetectedLanguage(code);
        found.push(lng);
        if (this.options.isFinal?.(lng)) return found;
      }
    }
    return found;
  }

  cacheUserLanguage(lng: string) {
    if (lng === 'cimode' || !this.options.caches.includes('cookie')) return;
    const { cookieMinutes, cookieOptions, lookupCookie } = this.options;
    const expires = new Date(Date.now() + cookieMinutes * 60_000).toUTCString();
    const sameSite = cookieOptions.sameSite === 'lax' ? 'Lax' : 'Strict';
    document.cookie = `${lookupCookie}=${encodeURIComponent(lng)}; Path=${cookieOptions.path}; Expires=${expires}; SameSite=${sameSite}`;
  }
}
