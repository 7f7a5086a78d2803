import { afterEach, describe, expect, it } from 'vitest';
import { detectionOptions } from './i18n.ts';
import { LanguageDetector } from './language-detector.ts';

const detector = () => new LanguageDetector(detectionOptions);
/** Every source read, whatever it says: the order of the candidates. */
const everySource = () => new LanguageDetector({ ...detectionOptions, isFinal: undefined });

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
    const found = everySource().detect();
    expect(found.slice(0, 4)).toEqual(['de', 'en', 'pt_BR', 'es']);
    expect(found.at(-1)).toBe('en');
  });

  it('stops at the first language of ours, without reading the later sources (Web Storage costs a trip to the browser)', () => {
    window.history.replaceState(null, '', '/de/legal/privacy-policy');
    localStorage.setItem('lang', 'es');
    const read: string[] = [];
    const original = Object.getOwnPropertyDescriptor(window, 'localStorage')!;
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        read.push('localStorage');
        return original.get!.call(window) as Storage;
      },
    });
    try {
      expect(detector().detect()).toEqual(['de']);
      expect(read).toEqual([]);
      // A path that names no language of ours: the next sources are asked, up to the first one that does.
      window.history.replaceState(null, '', '/xx/legal');
      expect(detector().detect()).toEqual(['xx', 'es']);
      expect(read).toEqual(['localStorage']);
    } finally {
      Object.defineProperty(window, 'localStorage', original);
    }
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
