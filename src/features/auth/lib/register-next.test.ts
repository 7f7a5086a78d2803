import { afterEach, describe, expect, it } from 'vitest';
import { keepRegisterNext, REGISTER_NEXT_KEY, REGISTER_NEXT_TTL_MS, takeRegisterNext, withNext } from './register-next.ts';

afterEach(() => localStorage.clear());

describe('?next= across a registration', () => {
  it('keeps a same-site path when the form is sent and gives it once to the verification', () => {
    keepRegisterNext('/es?city=33&section=women#top');
    expect(takeRegisterNext()).toBe('/es?city=33&section=women#top');
    expect(takeRegisterNext()).toBeUndefined();
  });

  it('never keeps or follows another host, a protocol-relative or backslash path, or the guest-only screens', () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/es/login',
      '/es/register',
    ]) {
      keepRegisterNext('/es/favourites');
      keepRegisterNext(next);
      expect(takeRegisterNext(), next).toBeUndefined();
    }
    // Planted in storage by hand (another script of this origin): still checked when read.
    localStorage.setItem(REGISTER_NEXT_KEY, JSON.stringify({ next: '//evil.example', at: Date.now() }));
    expect(takeRegisterNext()).toBeUndefined();
    localStorage.setItem(REGISTER_NEXT_KEY, '{not json');
    expect(takeRegisterNext()).toBeUndefined();
  });

  it('a registration without next forgets an older one; an old one is not followed', () => {
    keepRegisterNext('/es/favourites');
    keepRegisterNext(null);
    expect(takeRegisterNext()).toBeUndefined();
    const then = Date.now();
    keepRegisterNext('/es/favourites', then);
    expect(takeRegisterNext(then + REGISTER_NEXT_TTL_MS + 1)).toBeUndefined();
  });

  it('carries next on the links between login and register, only when safe', () => {
    expect(withNext('/es/register', '/es?city=33')).toBe('/es/register?next=%2Fes%3Fcity%3D33');
    expect(withNext('/es/register', '//evil.example')).toBe('/es/register');
    expect(withNext('/es/login', null)).toBe('/es/login');
  });
});
