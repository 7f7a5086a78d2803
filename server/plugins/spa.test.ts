import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

/**
 * A built PWA as `vite build` leaves it (vite.config.ts precompress): text files with .br and .gz copies beside them,
 * a small one without. The contents are big enough to be worth compressing.
 */
const filler = (what: string) => Array.from({ length: 200 }, (_, i) => `${what} ${i};`).join('\n');
const FILES: Record<string, { body: string; precompressed: boolean }> = {
  'index.html': {
    body: `<!doctype html><html lang="es"><head><title>Vitrina</title></head><body>${filler('<p>shell</p>')}</body></html>`,
    precompressed: true,
  },
  'assets/index-Ab12Cd34.js': { body: filler('console.log("app")'), precompressed: true },
  'assets/index-Ef56Gh78.css': { body: filler('.card{color:red}'), precompressed: true },
  'sw.js': { body: filler('self.addEventListener("fetch",()=>{})'), precompressed: true },
  'manifest.webmanifest': { body: '{"name":"Vitrina","start_url":"/"}', precompressed: false },
};

let t: TestApp;
let distDir: string;

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-spa-test-'));
  for (const [name, { body, precompressed }] of Object.entries(FILES)) {
    const file = path.join(distDir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, body);
    if (precompressed) {
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body));
    }
  }
  t = await createTestApp({ distDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });

/** The body as the browser sees it once it has undone Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(raw).toString('utf8');
    case 'gzip':
      return zlib.gunzipSync(raw).toString('utf8');
    case undefined:
      return raw.toString('utf8');
    default:
      throw new Error(`unexpected content-encoding ${String(res.headers['content-encoding'])}`);
  }
}

const varies = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .includes('accept-encoding');

describe('built assets: precompressed, cached by kind', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    [undefined, undefined],
  ])('a hashed asset asked with Accept-Encoding %j goes out as %s, immutable for a year', async (accept, encoding) => {
    for (const name of ['assets/index-Ab12Cd34.js', 'assets/index-Ef56Gh78.css']) {
      const res = await get(`/${name}`, accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(varies(res)).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decoded(res)).toBe(FILES[name]!.body);
      // The build's copy itself, not a per-request compression of the plain file.
      if (encoding)
        expect(res.rawPayload.equals(fs.readFileSync(path.join(distDir, `${name}.${encoding === 'br' ? 'br' : 'gz'}`)))).toBe(true);
    }
    const js = await get('/assets/index-Ab12Cd34.js', accept);
    expect(js.headers['content-type']).toMatch(/javascript/);
  });

  it('the shell (at / and on a deep link), the service worker and the manifest are revalidated, never cached long', async () => {
    for (const url of ['/', '/es/anuncios/oviedo', '/sw.js', '/manifest.webmanifest']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('the shell goes out precompressed wherever it is answered', async () => {
    for (const url of ['/', '/es/anuncios/oviedo']) {
      const res = await get(url, 'br, gzip');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(varies(res), url).toBe(true);
      expect(res.rawPayload.equals(fs.readFileSync(path.join(distDir, 'index.html.br'))), url).toBe(true);
      const gz = await get(url, 'gzip');
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(decoded(gz), url).toBe(FILES['index.html']!.body);
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.body, url).toBe(FILES['index.html']!.body);
    }
    const sw = await get('/sw.js', 'br, gzip');
    expect(sw.headers['content-encoding']).toBe('br');
    expect(decoded(sw)).toBe(FILES['sw.js']!.body);
  });

  it('a file the build left without compressed copies is still served whole', async () => {
    const res = await get('/manifest.webmanifest', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(decoded(res)).toBe(FILES['manifest.webmanifest']!.body);
  });
});

describe('API answers: compressed over the threshold', () => {
  it('a JSON answer over 1 KB comes brotli-compressed when accepted, gzip otherwise, plain without the header', async () => {
    const plain = await get('/api/language/es', undefined, XHR);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/api/language/es', 'br, gzip', XHR);
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(varies(br)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(decoded(br))).toEqual(plain.json());

    const gz = await get('/api/language/es', 'gzip', XHR);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz))).toEqual(plain.json());
  });

  it('a small answer is not worth compressing', async () => {
    const res = await get('/api/health', 'br, gzip', XHR);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
