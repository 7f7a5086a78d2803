/**
 * The production map source (issue 16 point 4): MAP_STYLE_URL / MAP_TILES_URL / MAP_ATTRIBUTION validated at start-up,
 * given to the browser by GET /api/config, and allowed by the CSP only when set (unset: no third-party origin at all).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicConfig } from '#contract/config.ts';
import { API } from '#contract/routes.ts';
import { loadConfig } from '#server/config.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

describe('MAP_* configuration', () => {
  it('is absent by default', () => {
    expect(loadConfig({}).map).toBeUndefined();
    expect(loadConfig({ MAP_TILES_URL: '', MAP_STYLE_URL: '' }).map).toBeUndefined();
  });

  it('takes raster tiles with their origin; a {s} subdomain becomes a wildcard origin', () => {
    expect(loadConfig({ MAP_TILES_URL: 'https://tiles.example.com/{z}/{x}/{y}.png', MAP_ATTRIBUTION: '© Example' }).map).toEqual({
      styleUrl: undefined,
      tilesUrl: 'https://tiles.example.com/{z}/{x}/{y}.png',
      attribution: '© Example',
      origins: ['https://tiles.example.com'],
    });
    expect(loadConfig({ MAP_TILES_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' }).map?.origins).toEqual([
      'https://*.tile.example.org',
    ]);
  });

  it('takes a vector style, with the extra origins of its tiles, glyphs and sprites', () => {
    const map = loadConfig({
      MAP_STYLE_URL: 'https://maps.example.com/style.json',
      MAP_ORIGINS: 'https://tiles.example.net, https://*.cdn.example.net',
    }).map;
    expect(map?.styleUrl).toBe('https://maps.example.com/style.json');
    expect(map?.origins).toEqual(['https://maps.example.com', 'https://tiles.example.net', 'https://*.cdn.example.net']);
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => loadConfig({ MAP_TILES_URL: 'https://tiles.example.com/tile.png' })).toThrow(/MAP_TILES_URL/);
    expect(() => loadConfig({ MAP_TILES_URL: 'javascript:alert(1)/{z}/{x}/{y}' })).toThrow(/MAP_TILES_URL/);
    expect(() => loadConfig({ MAP_STYLE_URL: 'not a url' })).toThrow(/MAP_STYLE_URL/);
    expect(() => loadConfig({ MAP_STYLE_URL: 'ftp://maps.example.com/style.json' })).toThrow(/MAP_STYLE_URL/);
    expect(() => loadConfig({ MAP_STYLE_URL: 'https://maps.example.com/s.json', MAP_ORIGINS: 'https://x.example.com/path' })).toThrow(
      /MAP_ORIGINS/,
    );
    // Without a source they would do nothing: a mistake worth saying.
    expect(() => loadConfig({ MAP_ATTRIBUTION: '© Someone' })).toThrow(/MAP_ATTRIBUTION/);
    expect(() => loadConfig({ MAP_ATTRIBUTION: 'x'.repeat(301), MAP_TILES_URL: 'https://t.example.com/{z}/{x}/{y}.png' })).toThrow(
      /MAP_ATTRIBUTION/,
    );
  });
});

const csp = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;

describe('unset: the embedded base map only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives the browser no map source, and the CSP allows no other origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: API.config, headers: XHR });
    expect(res.statusCode).toBe(200);
    expect(res.json<PublicConfig>().map).toBeUndefined();
    const directives = csp(res.headers['content-security-policy']);
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(directives['connect-src']).toEqual(["'self'", 'ws:', 'wss:']);
  });
});

describe('set: the configured source', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      map: {
        styleUrl: undefined,
        tilesUrl: 'https://tiles.example.com/{z}/{x}/{y}.png',
        attribution: '© Example contributors',
        origins: ['https://tiles.example.com'],
      },
    });
  });
  afterAll(() => t.close());

  it('is given to the browser (URLs and attribution only) and its origin allowed for images and connections', async () => {
    const res = await t.app.inject({ method: 'GET', url: API.config, headers: XHR });
    expect(res.json<PublicConfig>().map).toEqual({
      tiles_url: 'https://tiles.example.com/{z}/{x}/{y}.png',
      attribution: '© Example contributors',
    });
    const directives = csp(res.headers['content-security-policy']);
    expect(directives['img-src']).toContain('https://tiles.example.com');
    expect(directives['connect-src']).toContain('https://tiles.example.com');
    expect(directives['script-src']).not.toContain('https://tiles.example.com');
  });
});
