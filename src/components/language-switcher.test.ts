import { describe, expect, it } from 'vitest';
import { pathForLanguage } from './language-switcher.tsx';

describe('pathForLanguage', () => {
  it('replaces the language segment and keeps the rest of the page', () => {
    expect(pathForLanguage('/es/legal/privacy-policy', 'de')).toBe('/de/legal/privacy-policy');
    expect(pathForLanguage('/pt_BR', 'en')).toBe('/en');
    expect(pathForLanguage('/es/', 'en')).toBe('/en');
  });
  it('adds a language to a path that has none', () => {
    expect(pathForLanguage('/legal/terms-and-conditions', 'es')).toBe('/es/legal/terms-and-conditions');
    expect(pathForLanguage('/', 'de')).toBe('/de');
  });
});
