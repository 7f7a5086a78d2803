import { describe, expect, it } from 'vitest';
import { isReferenceRequest, REFERENCE_URLS } from './reference-cache.ts';

describe('service worker reference cache', () => {
  it('precaches the sections, the countries and the four translation files', () => {
    expect(REFERENCE_URLS).toEqual(
      expect.arrayContaining([
        '/api/sections',
        '/api/countries',
        '/api/language/es',
        '/api/language/en',
        '/api/language/de',
        '/api/language/pt_BR',
      ]),
    );
  });
  it('serves reference answers from the cache but never user data', () => {
    const u = (p: string) => new URL(p, 'https://vitrina.test');
    expect(isReferenceRequest(u('/api/cities/12'))).toBe(true);
    expect(isReferenceRequest(u('/api/country/3'))).toBe(true);
    expect(isReferenceRequest(u('/api/user'))).toBe(false);
    expect(isReferenceRequest(u('/api/language/fr'))).toBe(false);
    expect(isReferenceRequest(u('/api/sections/../user'))).toBe(false);
  });
});
