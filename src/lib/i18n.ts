/**
 * i18next for the browser (SPEC §9): languages en/es/de/pt_BR with en as fallback (loaded only when a key is missing),
 * namespace "translation",
 * detection order path → cookie → <html lang> → localStorage → sessionStorage → navigator → query string →
 * subdomain, the choice cached in the `lang` cookie (language-detector.ts). Translations load from
 * GET /api/language/{lng} (i18n-backend.ts); the backend's retry rules are those of SPEC §8 (5xx or no status:
 * retry; 4xx or bad JSON: fail, no retry).
 */
import i18next, { type i18n as I18n, type TOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, toLanguage, type Language } from '#contract/languages.ts';
import { LanguageBackend } from './i18n-backend.ts';
import { LanguageDetector, type DetectionOptions } from './language-detector.ts';

export const detectionOptions: DetectionOptions = {
  order: ['path', 'cookie', 'htmlTag', 'localStorage', 'sessionStorage', 'navigator', 'querystring', 'subdomain'],
  lookupFromPathIndex: 0,
  lookupCookie: LANGUAGE_COOKIE,
  lookupLocalStorage: LANGUAGE_COOKIE,
  lookupSessionStorage: LANGUAGE_COOKIE,
  lookupQuerystring: 'lng',
  caches: ['cookie'],
  cookieMinutes: 60 * 24 * 365,
  cookieOptions: { path: '/', sameSite: 'lax' },
  // Browsers say pt-BR or es-ES; our codes are pt_BR and es.
  convertDetectedLanguage: (lng: string) => toLanguage(lng) ?? lng,
  isFinal: (lng: string) => (LANGUAGES as readonly string[]).includes(lng),
};

/** A visitor none of whose languages we have gets the fallback one (fallbackLng no longer says so: see below). */
class FallingBackDetector extends LanguageDetector {
  override detect(): string[] {
    return [...super.detect(), FALLBACK_LANGUAGE];
  }
}

export function createI18n(): I18n {
  const instance = i18next.createInstance();
  // The fallback language is loaded only once a key is missing in the current one (es, de and pt_BR are complete
  // today): i18next would otherwise fetch it with the current language on every page. Until it has arrived the
  // missing key shows as its name; its arrival re-renders (bindI18nStore: 'added', see wantFallback).
  let fallbackWanted = false;
  const wantFallback = (_lngs: readonly string[], ns: string, _key: string, _fallback: string, _update: boolean, options: TOptions) => {
    // A lookup with its own default (an unknown status code) is not a missing translation; neither is one made
    // before the current language has loaded.
    if (fallbackWanted || options.defaultValue !== undefined || instance.language === FALLBACK_LANGUAGE) return;
    if (!instance.hasResourceBundle(instance.language, ns)) return;
    fallbackWanted = true;
    void instance.loadLanguages(FALLBACK_LANGUAGE, () => {
      // react-i18next re-renders on the store's 'added' (bindI18nStore below) only the components subscribed by then,
      // and the one that showed the missing key may subscribe later: React holds back a Suspense boundary's content
      // for up to 300 ms after it resolves. Say it again once that is over.
      setTimeout(
        () => (instance.store as unknown as { emit(event: string, ...args: unknown[]): void }).emit('added', FALLBACK_LANGUAGE, ns),
        1000,
      );
    });
  };
  void instance
    .use(LanguageBackend)
    .use(new FallingBackDetector(detectionOptions))
    .use(initReactI18next)
    .init({
      supportedLngs: [...LANGUAGES],
      // A function, so i18next asks it on every lookup (it caches array values per language). Also asked without a
      // language when React asks for translations before init has picked one: nothing to load then.
      fallbackLng: () => (fallbackWanted ? [FALLBACK_LANGUAGE] : []),
      load: 'currentOnly',
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      // Retries of the backend (SPEC §8: only 5xx and network failures are retried, see i18n-backend.ts).
      maxRetries: 3,
      retryTimeout: 500,
      // Not saving anything: i18next reports a missing key only with saveMissing on.
      saveMissing: true,
      missingKeyHandler: wantFallback,
      react: { useSuspense: true, bindI18nStore: 'added' },
    });
  return instance;
}

/** Stores `lng` as the visitor's choice (the detector's caches: the `lang` cookie) without switching to it yet. */
export function rememberLanguage(instance: I18n, lng: Language) {
  const detector = instance.services.languageDetector as { cacheUserLanguage?: (lng: string) => void } | undefined;
  detector?.cacheUserLanguage?.(lng);
}
