/**
 * The browser's translations (SPEC §9; src/lib/i18n-core.ts, decision 0029): languages en/es/de/pt_BR with en as
 * fallback (loaded only when a key is missing); detection order path → cookie → <html lang> → localStorage → sessionStorage → navigator → query string →
 * subdomain, the choice cached in the `lang` cookie (language-detector.ts). Translations load from
 * GET /api/language/{lng} (i18n-backend.ts); the backend's retry rules are those of SPEC §8 (5xx or no status:
 * retry; 4xx or bad JSON: fail, no retry).
 */
import { FALLBACK_LANGUAGE, isLanguage, LANGUAGE_COOKIE, toLanguage, type Language } from '#contract/languages.ts';
import { loadTranslations } from './i18n-backend.ts';
import { createI18nInstance, type I18n } from './i18n-core.ts';
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
  isFinal: isLanguage,
};

/**
 * The browser's translations in the visitor's language: the first of the detected languages we have (a visitor none
 * of whose languages we have gets the fallback one), remembered in the `lang` cookie at every change.
 */
export function createI18n(): I18n {
  const detector = new LanguageDetector(detectionOptions);
  return createI18nInstance({
    lng: detector.detect().find(isLanguage) ?? FALLBACK_LANGUAGE,
    load: (lng) => loadTranslations(lng),
    fallbackLng: FALLBACK_LANGUAGE,
    onLanguage: (lng) => detector.cacheUserLanguage(lng),
  });
}

/** Stores `lng` as the visitor's choice (the `lang` cookie) without switching to it yet. */
export function rememberLanguage(lng: Language) {
  new LanguageDetector(detectionOptions).cacheUserLanguage(lng);
}
