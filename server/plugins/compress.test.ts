import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS } from '#server/app.ts';
import { idempotencyKeys } from '#server/db/schema.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import idempotencyPlugin from './idempotency.ts';

/**
 * The stored answer of an Idempotency-Key must be the plain body, whatever encoding the first request accepted: a
 * retry may accept another (or none). The app's own routes answer under the compression threshold, so this builds
 * the two plugins as buildApp registers them (compression first, then idempotency) around a route with a big answer.
 */
let t: TestApp;
const app = Fastify();
const big = { items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `Anuncio número ${i}` })) };

beforeAll(async () => {
  t = await createTestApp();
  app.decorate('config', t.config);
  app.decorate('db', t.database.db);
  await app.register(fastifyCompress, COMPRESS);
  await app.register(idempotencyPlugin);
  app.post('/api/big', async (_req, reply) => reply.status(201).send(big));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const post = (key: string, acceptEncoding?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/big',
    payload: { a: 1 },
    headers: { 'idempotency-key': key, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
  });

describe('compression and Idempotency-Key', () => {
  it('stores the plain answer and replays it compressed or not, as each retry accepts', async () => {
    const key = crypto.randomUUID();
    const first = await post(key, 'br, gzip');
    expect(first.statusCode).toBe(201);
    expect(first.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(first.rawPayload).toString('utf8'))).toEqual(big);

    const [row] = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row?.statusCode).toBe(201);
    expect(JSON.parse(row!.responseBody!)).toEqual(big);

    const gz = await post(key, 'gzip');
    expect(gz.headers['idempotent-replayed']).toBe('true');
    expect(gz.statusCode).toBe(201);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(big);

    const plain = await post(key);
    expect(plain.headers['idempotent-replayed']).toBe('true');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(big);
  });
});

describe('what is compressed on the fly', () => {
  it.each([
    ['application/json; charset=utf-8', true],
    ['text/html; charset=utf-8', true],
    ['text/csv', true],
    ['application/javascript; charset=utf-8', true],
    ['image/svg+xml', true],
    ['application/manifest+json', true],
    ['image/webp', false],
    ['image/png', false],
    ['application/zip', false],
    ['application/octet-stream', false],
    ['text/event-stream', false],
  ])('%s: %s', (type, compressed) => {
    expect((COMPRESS.customTypes as RegExp).test(type)).toBe(compressed);
  });
});
