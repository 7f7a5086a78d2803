import { describe, expect, it } from 'vitest';
import { loginPath, NAMED_ROUTES, safeNext, withLng } from './paths.ts';

describe('withLng', () => {
  it('prefixes language-neutral paths', () => {
    expect(withLng('es', '/login')).toBe('/es/login');
    expect(withLng('pt_BR', '/model/dashboard')).toBe('/pt_BR/model/dashboard');
    expect(withLng('de', '/')).toBe('/de');
    expect(withLng('en', '/?page=2')).toBe('/en?page=2');
  });
  it('keeps paths that already carry a language, and anything that is not a path', () => {
    expect(withLng('es', '/en/profile')).toBe('/en/profile');
    expect(withLng('es', '/es')).toBe('/es');
    expect(withLng('es', 'https://example.com/')).toBe('https://example.com/');
    expect(withLng('es', '//evil.example')).toBe('//evil.example');
  });
});

describe('safeNext', () => {
  it('follows same-site paths', () => {
    expect(safeNext('/es/profile')).toBe('/es/profile');
    expect(safeNext('/es/model/dashboard?tab=ads#top')).toBe('/es/model/dashboard?tab=ads#top');
  });
  it('refuses other hosts, scheme tricks and nothing at all', () => {
    for (const next of [
      null,
      undefined,
      '',
      'es/profile',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ]) {
      expect(safeNext(next), String(next)).toBeUndefined();
    }
  });
  it('refuses the guest-only screens, which would bounce back', () => {
    expect(safeNext('/es/login')).toBeUndefined();
    expect(safeNext('/register?next=/es')).toBeUndefined();
  });
});

it('loginPath carries the page to come back to', () => {
  expect(loginPath('es', '/es/profile?x=1')).toBe('/es/login?next=%2Fes%2Fprofile%3Fx%3D1');
  expect(loginPath('de')).toBe('/de/login');
});

describe('NAMED_ROUTES', () => {
  it('builds the photo routes, with the ad when given', () => {
    expect(NAMED_ROUTES['upload.photos'].path()).toBe('/upload/photos');
    expect(NAMED_ROUTES['upload.photos'].path({ ad: 12 })).toBe('/upload/photos?ad=12');
    expect(NAMED_ROUTES['profile.photos'].path({ userId: 7 })).toBe('/profile/photos/7');
    expect(withLng('es', NAMED_ROUTES['profile.photos'].path({ userId: 7, ad: 3 }))).toBe('/es/profile/photos/7?ad=3');
  });
});
