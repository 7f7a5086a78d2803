import { afterEach, describe, expect, it } from 'vitest';
import { detectionOptions } from './i18n.ts';
import { LanguageDetector } from './language-detector.ts';

const detector = () => new LanguageDetector(detectionOptions);

afterEach(() => {
  document.cookie = 'lang=; max-age=0; path=/';
  localStorage.clear();
  document.documentElement.removeAttribute('lang');
  window.history.replaceState(null, '', '/');
});

describe('LanguageDetector', () => {
  it('lists the candidates in our order: path, cookie, <html lang>, storage, the browser, the query string', () => {
    window.history.replaceState(null, '', '/de/legal/privacy-policy?lng=en');
    document.cookie = 'lang=en; path=/';
    document.documentElement.lang = 'pt-BR';
    localStorage.setItem('lang', 'es');
    const found = detector().detect();
    expect(found.slice(0, 4)).toEqual(['de', 'en', 'pt_BR', 'es']);
    expect(found.at(-1)).toBe('en');
  });

  it('maps what it finds onto our codes (the /pt_BR path gives pt_BR)', () => {
    window.history.replaceState(null, '', '/pt_BR');
    expect(detector().detect()[0]).toBe('pt_BR');
  });

  it('drops values that are not language codes', () => {
    window.history.replaceState(null, '', '/?lng=%22%3E%3Cb%3E');
    expect(detector().detect()).not.toContain('"><b>');
  });

  it('remembers the choice in the lang cookie', () => {
    detector().cacheUserLanguage('de');
    expect(document.cookie).toContain('lang=de');
  });
});
