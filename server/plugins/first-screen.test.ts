import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel, type BuiltModel } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import {
  CARD_SIZES,
  FIRST_SCREEN_ID,
  firstScreenPage,
  jsonForHtml,
  loadFirstScreenBuild,
  ROOT_ELEMENT,
  SLIDE_SIZES,
  themeInitHash,
  appStartHash,
  withLang,
  type FirstScreenBuild,
} from './first-screen.ts';

const SHELL = `<!doctype html><html><head><title>Vitrina</title></head><body>${ROOT_ELEMENT}</body></html>`;

let t: TestApp;
let distDir: string;
let lucia: BuiltModel;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-first-screen-test-'));
  fs.writeFileSync(path.join(distDir, 'index.html'), SHELL);
  // The build's folders for the server: a manifest, and a "renderer" that does not load (a syntax error).
  fs.mkdirSync(path.join(distDir, '.vite'));
  fs.writeFileSync(path.join(distDir, '.vite', 'manifest.json'), '{}');
  fs.mkdirSync(path.join(distDir, '.ssr'));
  fs.writeFileSync(path.join(distDir, '.ssr', 'entry-server.js'), 'export const renderFirstScreen = (;');
  t = await createTestApp({ distDir });
  // A name the block must escape: it could otherwise close the <script> element.
  lucia = await buildModel(t.app.db, { name: 'Lucía </script><b>', photos: 2, coverIndex: 1 });
  await buildModel(t.app.db, { name: 'Covadonga', photos: 1 });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** The data block of a page, parsed as the browser's JSON.parse would read the element's text. */
function block(html: string): { lng: string; answers: Record<string, unknown> } | undefined {
  const m = html.match(new RegExp(`<script type="application/json" id="${FIRST_SCREEN_ID}">([^<]*)</script>`));
  return m ? (JSON.parse(m[1]!) as { lng: string; answers: Record<string, unknown> }) : undefined;
}
const preloads = (html: string) => [...html.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map((m) => m[0]);

describe('the first screen inside the page', () => {
  it("the home comes with the listing, sections and promotions exactly as the API answers them, in the URL's language", async () => {
    const res = await page('/en');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const data = block(res.body);
    expect(data?.lng).toBe('en');
    for (const api of ['/api/models?', '/api/sections', '/api/fetchAllPublicityAds']) {
      const answer = await t.app.inject({ method: 'GET', url: api, headers: { ...XHR, 'x-locale': 'en' } });
      expect(data?.answers[api], api).toEqual(answer.json());
    }
    // The block sits in <head>, before the shell's own scripts.
    expect(res.body.indexOf(FIRST_SCREEN_ID)).toBeLessThan(res.body.indexOf('</head>'));
  });

  it('nothing in the block can end the script element: <, > and & are escaped', async () => {
    const html = (await page('/es')).body;
    const text = html.match(new RegExp(`id="${FIRST_SCREEN_ID}">([^]*?)</script>`))![1]!;
    expect(text).not.toMatch(/[<>&]/);
    expect(JSON.stringify(block(html))).toContain('Lucía </script><b>');
    expect(jsonForHtml({ a: '</script>&\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u0026\\u2028"}');
  });

  it("preloads the first row's covers with the cards' srcset and sizes, at high priority", async () => {
    const html = (await page('/es')).body;
    const cards = (block(html)!.answers['/api/models?'] as { data: { cover: { url: string; srcset: string } | null }[] }).data;
    const links = preloads(html);
    expect(links).toHaveLength(2);
    links.forEach((link, i) => {
      const cover = cards[i]!.cover!;
      expect(link).toContain(`href="${cover.url}"`);
      expect(link).toContain(`imagesrcset="${cover.srcset}"`);
      expect(link).toContain(`imagesizes="${CARD_SIZES}"`);
      expect(link).toContain('fetchpriority="high"');
    });
  });

  it("a model's page comes with the ad and its gallery, and preloads the gallery's first photo", async () => {
    const html = (await page(`/es/models/${lucia.adId}`)).body;
    const answers = block(html)!.answers;
    expect(Object.keys(answers).sort()).toEqual([`/api/getImagesByAd/${lucia.adId}`, `/api/models/${lucia.adId}`]);
    const gallery = answers[`/api/getImagesByAd/${lucia.adId}`] as { data: { url: string; media_id: number }[] };
    expect(gallery.data[0]!.media_id).toBe(lucia.coverMediaId);
    const links = preloads(html);
    expect(links).toHaveLength(1);
    expect(links[0]).toContain(`href="${gallery.data[0]!.url}"`);
    expect(links[0]).toContain(`imagesizes="${SLIDE_SIZES}"`);
  });

  it("the preloads' sizes are those of the images they stand for (else the browser would fetch another width)", () => {
    // Read as text: the server never imports the client.
    const read = (file: string) => fs.readFileSync(path.resolve(import.meta.dirname, '../..', file), 'utf8');
    expect(read('src/features/listings/components/model-card.tsx')).toContain(`const SIZES_GRID = '${CARD_SIZES}';`);
    expect(read('src/features/models/components/model-gallery.tsx')).toContain(`const SIZES_SLIDE = '${SLIDE_SIZES}';`);
  });

  it('an unknown or hidden ad leaves the page as the plain shell (the client shows its own not-found)', async () => {
    for (const url of ['/es/models/999999', '/es/models/0', '/es/models/abc']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SHELL);
    }
  });

  it('other pages, a home with a query, the shell itself and HEAD requests get the plain shell', async () => {
    for (const url of ['/', '/es/login', '/es?search=luc%C3%ADa', '/xx', '/es/models/1/edit', '/index.html']) {
      const res = await page(url);
      expect(res.body, url).toBe(SHELL);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/es' });
    expect(head.statusCode).toBe(200);
  });

  it("asks as an anonymous visitor: the request's cookies are not passed on", async () => {
    const res = await page('/es', { cookie: 'vitrina_session=whatever' });
    expect(block(res.body)?.answers['/api/models?']).toBeDefined();
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it("the build's folders for the server are never served, and a renderer that does not load is left out", async () => {
    for (const url of ['/.vite/manifest.json', '/.ssr/entry-server.js', '/.ssr/']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(url.endsWith('/') ? 200 : 404);
      expect(res.body, url).not.toContain('renderFirstScreen');
      expect(res.body, url).not.toBe('{}');
    }
    expect((await page('/es')).body).toContain(ROOT_ELEMENT);
  });

  it('goes out compressed like any dynamic answer', async () => {
    const res = await page('/es', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(block(zlib.brotliDecompressSync(res.rawPayload).toString('utf8'))).toBeDefined();
  });
});

describe('withLang', () => {
  it('sets lang on the <html> element, not on a comment that mentions the tag, and keeps one already there', () => {
    const shell =
      '<!doctype html>\n<!-- No lang attribute here: i18next reads <html lang> as a preference -->\n<html data-x="1"><head></head></html>';
    expect(withLang(shell, 'pt-BR')).toBe(shell.replace('<html data-x="1">', '<html lang="pt-BR" data-x="1">'));
    expect(withLang('<html lang="en"><body></body></html>', 'es')).toBe('<html lang="en"><body></body></html>');
  });
});

describe('the home rendered on the server (with a build that has the renderer)', () => {
  const build = (
    render: (input: {
      url: string;
      lng: string;
      translations: Record<string, unknown>;
      answers: Record<string, unknown>;
    }) => Promise<string | undefined>,
  ) => {
    const calls: { url: string; lng: string; translations: Record<string, unknown>; answers: Record<string, unknown> }[] = [];
    const b: FirstScreenBuild = {
      renderer: {
        renderFirstScreen: (input) => {
          calls.push(input);
          return render(input);
        },
      },
      files: (screen) =>
        screen.endsWith('home.tsx') ? { css: ['assets/home-1.css'], js: ['assets/home-1.js', 'assets/Card-1.js'] } : { css: [], js: [] },
    };
    return { b, calls };
  };

  it("puts the markup in the root, links the screen's stylesheets (render-blocking) and code, and renders with the page's answers", async () => {
    const { b, calls } = build(async ({ lng }) => `<main lang-was="${lng}">cards</main>`);
    const html = (await firstScreenPage(t.app, SHELL, '/de', b))!;
    expect(html).toContain('<div id="root"><main lang-was="de">cards</main></div>');
    // In its language before the app runs (the shell has no lang).
    expect(html).toMatch(/^<!doctype html><html lang="de">/);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/home-1.css" />');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/Card-1.js" />');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.answers).toEqual(block(html)!.answers);
    // The translations of the page's language, as the API serves them.
    const de = await t.app.inject({ method: 'GET', url: '/api/language/de', headers: XHR });
    expect(calls[0]!.translations).toEqual(de.json());
  });

  it('renders the same URL with the same answers once (later pages reuse the markup)', async () => {
    const { b, calls } = build(async () => '<p>once</p>');
    await firstScreenPage(t.app, SHELL, '/pt_BR', b);
    const again = (await firstScreenPage(t.app, SHELL, '/pt_BR', b))!;
    expect(again).toContain('<div id="root"><p>once</p></div>');
    expect(calls).toHaveLength(1);
  });

  it('a renderer that fails or gives up leaves the root empty; the data block still goes out', async () => {
    for (const render of [() => Promise.reject(new Error('boom')), () => Promise.resolve(undefined)]) {
      const { b } = build(render);
      const html = (await firstScreenPage(t.app, SHELL, '/es', b))!;
      expect(html).toContain(ROOT_ELEMENT);
      expect(block(html)?.answers['/api/models?']).toBeDefined();
    }
  });

  it("a model's page is rendered too, with its ad and gallery, and links its screen's files", async () => {
    const { b, calls } = build(async () => '<article>Lucía</article>');
    const html = (await firstScreenPage(t.app, SHELL, `/es/models/${lucia.adId}`, b))!;
    expect(html).toContain('<div id="root"><article>Lucía</article></div>');
    expect(Object.keys(calls[0]!.answers).sort()).toEqual([`/api/getImagesByAd/${lucia.adId}`, `/api/models/${lucia.adId}`]);
  });
});

describe('what the first paint needs: the stylesheets in the head, the theme script inline', () => {
  const THEME = "document.documentElement.setAttribute('data-theme', 'dark');\n";
  const APP_START = "console.log('start');\n";
  const SHELL_WITH_ASSETS =
    '<!doctype html><html><head><title>Vitrina</title><script src="/theme-init.js"></script>' +
    '<script type="module" crossorigin src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/runtime-1.js">' +
    `<link rel="stylesheet" crossorigin href="/assets/index-1.css"></head><body>${ROOT_ELEMENT}</body></html>`;
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-first-paint-test-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(
      path.join(dir, 'assets', 'index-1.css'),
      ':root[data-mantine-color-scheme=dark]{--mantine-color-body:#242424}.card{color:red}.unused-in-page{color:blue}',
    );
    fs.writeFileSync(path.join(dir, 'assets', 'home-1.css'), '.price{font-weight:700}.other-screen{margin:0}');
    fs.writeFileSync(path.join(dir, 'theme-init.js'), THEME);
    fs.writeFileSync(path.join(dir, 'app-start.js'), APP_START);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('links the whole stylesheets in the head, with no rules inline (a second pass over the page once they arrived)', async () => {
    const loaded = await loadFirstScreenBuild(t.app, dir);
    const b: FirstScreenBuild = {
      ...loaded,
      renderer: { renderFirstScreen: async () => '<main class="card"><b class="price">20</b></main>' },
      files: () => ({ css: ['assets/home-1.css'], js: [] }),
    };
    const html = (await firstScreenPage(t.app, SHELL_WITH_ASSETS, '/en', b))!;
    const head = html.slice(0, html.indexOf('</head>'));
    const body = html.slice(html.indexOf('</head>'));
    expect([...head.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/assets/index-1.css',
      '/assets/home-1.css',
    ]);
    expect(html).not.toContain('<style');
    expect(body).not.toContain('rel="stylesheet"');
    expect(body).toMatch(
      /<div id="root"><main class="card"><b class="price">20<\/b><\/main><\/div><script data-entry="[^"]+">[^<]*<\/script><\/body>/,
    );
    // The theme script inline, and the CSP source for it is its hash.
    expect(head).toContain(`<script>${THEME}</script>`);
    expect(head).not.toContain('src="/theme-init.js"');
    const hash = createHash('sha256').update(THEME).digest('base64');
    expect(themeInitHash(dir)).toBe(`'sha256-${hash}'`);
  });

  it('a page that is not rendered keeps its stylesheets and its entry script in the head', async () => {
    const loaded = await loadFirstScreenBuild(t.app, dir);
    const html = (await firstScreenPage(t.app, SHELL_WITH_ASSETS, '/en', { ...loaded, renderer: undefined }))!;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
    expect(head).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
    expect(html).not.toContain('<style');
    expect(html).not.toContain('data-entry');
  });

  it("a rendered page fetches the app's code after its photos: the entry script and the code preloads give way to the start script", async () => {
    const loaded = await loadFirstScreenBuild(t.app, dir);
    const b: FirstScreenBuild = {
      ...loaded,
      renderer: { renderFirstScreen: async () => '<main class="card">cards</main>' },
      files: () => ({ css: [], js: ['assets/home-1.js'] }),
    };
    const html = (await firstScreenPage(t.app, SHELL_WITH_ASSETS, '/en', b))!;
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toMatch(
      new RegExp(`<script data-entry="/assets/index-1.js">${APP_START.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</script></body>`),
    );
    expect(appStartHash(dir)).toBe(`'sha256-${createHash('sha256').update(APP_START).digest('base64')}'`);
  });
});
