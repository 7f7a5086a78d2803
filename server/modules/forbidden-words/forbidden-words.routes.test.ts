import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '#server/config.ts';
import errorsPlugin from '#server/plugins/errors.ts';
import i18nPlugin from '#server/plugins/i18n.ts';
import { createTestApp, withCsrf, XHR, type TestApp } from '#tests/test-app.ts';
import { assertNoForbiddenWords } from './assert-no-forbidden-words.ts';
import { forbiddenWordsRoutes } from './forbidden-words.routes.ts';

const URL = '/api/check-forbidden-words';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const check = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject(withCsrf({ method: 'POST', url: URL, payload: payload as object, headers }));

describe('POST /api/check-forbidden-words', () => {
  it('answers ok with no words for ordinary profile text', async () => {
    const res = await check({ text: 'Modelo de 26 años en Menorca, 16 años de experiencia en pasarela.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, words: [], matches: [] });
  });

  it('accepts an empty text', async () => {
    const res = await check({ text: '' });
    expect(res.json()).toEqual({ ok: true, words: [], matches: [] });
  });

  it('answers the offending words as written, with their ranges, in every language at once', async () => {
    const text = 'Soy m e n o r, 16 años, servicio completo, sin papeles. Teen, ohne Gummi, novinha';
    const res = await check({ text });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ ok: boolean; words: string[]; matches: { word: string; start: number; end: number; category: string }[] }>();
    expect(body.ok).toBe(false);
    expect(body.words).toEqual(['m e n o r', '16 años', 'servicio completo', 'sin papeles', 'Teen', 'ohne Gummi', 'novinha']);
    for (const m of body.matches) expect(text.slice(m.start, m.end)).toBe(m.word);
    expect(body.matches[0]).toMatchObject({ term: 'menor', category: 'minors', start: 4, end: 13 });
  });

  it('rejects a missing or non-string text with 422 field errors in the envelope', async () => {
    for (const payload of [{}, { text: 42 }, { text: null }]) {
      const res = await check(payload, { 'x-locale': 'es' });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const body = res.json<{ type: string; error: string; errors: Record<string, string[]> }>();
      expect(body).toMatchObject({ type: 'error', error: 'validation_failed' });
      expect(body.errors.text?.length).toBeGreaterThan(0);
    }
  });

  it('rejects a text over 10,000 characters with 422 naming the limit', async () => {
    expect((await check({ text: 'a'.repeat(10_000) })).statusCode).toBe(200);
    const res = await check({ text: 'a'.repeat(10_001) }, { 'x-locale': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors.text?.[0]).toMatch(/10000/);
  });

  it('requires the XHR header (400) and the CSRF token (419) like every POST', async () => {
    const noXhr = await t.app.inject({ method: 'POST', url: URL, payload: { text: 'hola' } });
    expect(noXhr.statusCode).toBe(400);
    expect(noXhr.json()).toMatchObject({ error: 'xhr_required' });
    const noCsrf = await t.app.inject({ method: 'POST', url: URL, payload: { text: 'hola' }, headers: XHR });
    expect(noCsrf.statusCode).toBe(419);
    expect(noCsrf.json()).toMatchObject({ error: 'csrf_mismatch' });
  });

  // Last: it uses up this address's allowance.
  it('limits checks to 60 a minute per address, answering 429 in the envelope', async () => {
    const ip = '203.0.113.9';
    const statuses: number[] = [];
    for (let k = 0; k < 61; k += 1) {
      const res = await t.app.inject(withCsrf({ method: 'POST', url: URL, payload: { text: 'hola' }, remoteAddress: ip }));
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json()).toMatchObject({ type: 'error', error: 'too_many_requests' });
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('assertNoForbiddenWords', () => {
  // A bare app with only what the guard needs, and one saving route that calls it as other modules will.
  let app: FastifyInstance;
  beforeAll(async () => {
    const server = Fastify().withTypeProvider<ZodTypeProvider>();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    server.decorate('config', testConfig());
    await server.register(fastifyCookie);
    await server.register(i18nPlugin);
    await server.register(errorsPlugin);
    await server.register(forbiddenWordsRoutes);
    await server.register(async (scope) => {
      // Another module's encapsulated routes still see the shared matcher.
      scope.post('/save', async (req, reply) => {
        assertNoForbiddenWords(req, req.body as Record<string, string | undefined>);
        return reply.status(204).send();
      });
    });
    await server.ready();
    app = server;
  });
  afterAll(async () => {
    await app.close();
  });

  const save = (payload: Record<string, unknown>, lang: string) =>
    app.inject({ method: 'POST', url: '/save', payload, headers: { 'x-locale': lang } });

  it('lets clean fields through, skipping empty ones', async () => {
    const res = await save({ name: 'Lucía', description: 'Modelo de 26 años en Menorca', bio: '' }, 'es');
    expect(res.statusCode).toBe(204);
  });

  it('refuses flagged fields with 422, one translated message per field naming the words, and the matches', async () => {
    const res = await save({ name: 'Lucía', description: 'Colegiala de 16 años, 16 años', title: 'sin condón' }, 'es');
    expect(res.statusCode).toBe(422);
    const body = res.json<{
      type: string;
      error: string;
      message: string;
      errors: Record<string, string[]>;
      data: { forbiddenWords: Record<string, { word: string }[]> };
    }>();
    expect(body).toMatchObject({ type: 'error', error: 'validation_failed' });
    expect(body.message).toBe('Hay texto que no podemos publicar: revisa las palabras marcadas.');
    expect(body.errors).toEqual({
      description: ['Contiene palabras no permitidas: "Colegiala" y "16 años".'],
      title: ['Contiene palabras no permitidas: "sin condón".'],
    });
    expect(Object.keys(body.data.forbiddenWords)).toEqual(['description', 'title']);
    expect(body.data.forbiddenWords.description!.map((m) => m.word)).toEqual(['Colegiala', '16 años', '16 años']);
  });

  it.each([
    ['en', 'Contains words that are not allowed: "teen".'],
    ['de', 'Enthält nicht erlaubte Wörter: "teen".'],
    ['pt_BR', 'Contém palavras não permitidas: "teen".'],
  ])('words the field message in the request language (%s)', async (lang, message) => {
    const res = await save({ description: 'teen model' }, lang);
    expect(res.json<{ errors: Record<string, string[]> }>().errors.description).toEqual([message]);
  });
});
