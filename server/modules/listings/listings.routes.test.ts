import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelProfiles } from '#server/db/schema.ts';
import type { ModelCard, ModelDetail, ModelList, PublicityAd, Image } from '#contract/listings.ts';
import { buildModel, buildPublicityAd, CITY, findCity, findSection, type BuiltModel, type ModelSpec } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

/**
 * The whole catalogue of this file is built once, before any listing request: GET /api/models is micro-cached
 * per app instance for a few seconds, so data added after a query could be answered from the cache. Tests that
 * need their own rows query with terms nobody else uses.
 */
let t: TestApp;
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

const ids = { oviedo: 0, gijon: 0, aviles: 0, madrid: 0, women: 0, men: 0, webcam: 0 };
let lucia: BuiltModel; // Oviedo, women, 3 photos, cover at position 1
let pelayo: BuiltModel; // Gijón, men
let xana: BuiltModel; // Avilés, women, no photos
let covadonga: BuiltModel; // Oviedo, men, "modelo" in the description
let noa: BuiltModel; // Madrid, webcam, "videollamada" everywhere
let martina: BuiltModel; // Oviedo, women
let jimena: BuiltModel; // named Jimena (older)
let aitana: BuiltModel; // mentions Jimena in her description (newer)
const hidden: Record<string, BuiltModel> = {};

async function model(spec: ModelSpec) {
  return buildModel(t.database.db, spec);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  ids.oviedo = (await findCity(db, CITY.oviedo)).id;
  ids.gijon = (await findCity(db, CITY.gijon)).id;
  ids.aviles = (await findCity(db, CITY.aviles)).id;
  ids.madrid = (await findCity(db, CITY.madrid)).id;
  ids.women = (await findSection(db, 'women')).id;
  ids.men = (await findSection(db, 'men')).id;
  ids.webcam = (await findSection(db, 'webcam')).id;

  lucia = await model({
    name: 'Lucía',
    city: CITY.oviedo,
    section: 'women',
    birthDate: '1995-06-15',
    publishedAt: ago(1),
    photos: 3,
    coverIndex: 1,
    description: 'Pasarela y fotografía de moda en estudio.',
  });
  pelayo = await model({ name: 'Pelayo', city: CITY.gijon, section: 'men', publishedAt: ago(2), photos: 1 });
  xana = await model({ name: 'Xana', city: CITY.aviles, section: 'women', publishedAt: ago(3) });
  covadonga = await model({
    name: 'Covadonga',
    city: CITY.oviedo,
    section: 'men',
    publishedAt: ago(4),
    description: 'Modelo de catálogo con book actualizado.',
  });
  noa = await model({
    name: 'Noa',
    city: CITY.madrid,
    section: 'webcam',
    title: 'Noa: sesiones por videollamada',
    description: 'Trabajo por videollamada para castings y pruebas de vestuario.',
    publishedAt: ago(5),
  });
  martina = await model({ name: 'Martina', city: CITY.oviedo, section: 'women', publishedAt: ago(6) });
  // Ranking: Jimena's ad is hers, but only her name says so (once, like Aitana's mention); Aitana's is newer.
  jimena = await model({ name: 'Jimena', city: CITY.gijon, section: 'women', title: 'Retrato y moda en Gijón', publishedAt: ago(48) });
  aitana = await model({
    name: 'Aitana',
    city: CITY.gijon,
    section: 'women',
    publishedAt: ago(7),
    description: 'Sesiones en pareja con mi compañera Jimena, en estudio y exteriores.',
  });

  // Never visible: every one is in Oviedo/women, so a broken visibility rule shows up in the plain listing too.
  const base = { city: CITY.oviedo, section: 'women', publishedAt: ago(0.5), photos: 2 } as const;
  hidden.pending = await model({ ...base, name: 'Valeria', profileStatus: 'pending' });
  hidden.rejected = await model({ ...base, name: 'Emma', profileStatus: 'rejected' });
  hidden.suspended = await model({ ...base, name: 'Daniela', profileStatus: 'suspended' });
  hidden.paused = await model({ ...base, name: 'Carla', profileStatus: 'paused' });
  hidden.unverified = await model({ ...base, name: 'Vega', profileStatus: 'unverified' });
  hidden.switchedOff = await model({ ...base, name: 'Olivia', adActive: false });
  hidden.adPending = await model({ ...base, name: 'Irene', adStatus: 'pending' });

  // Promoted placements: two live ones, and three that must not be served.
  await buildPublicityAd(db, { title: 'Estudio Luz Norte', advertiser: 'Luz Norte Fotografía S.L.', position: 2 });
  await buildPublicityAd(db, {
    title: 'Academia Cantábrico',
    advertiser: 'Academia Cantábrico S.C.',
    position: 1,
    endsAt: new Date(Date.now() + 24 * HOUR),
  });
  await buildPublicityAd(db, { title: 'Apagado', isActive: false });
  await buildPublicityAd(db, { title: 'Caducado', endsAt: ago(1) });
  await buildPublicityAd(db, { title: 'Futuro', startsAt: new Date(Date.now() + HOUR) });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...XHR, ...headers } });

async function list(query: string, headers: Record<string, string> = {}): Promise<ModelList> {
  const res = await get(`/api/models?${query}`, headers);
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json<ModelList>();
}
const idsOf = (l: ModelList) => l.data.map((c) => c.id);
const visibleOviedo = () => [lucia, covadonga, martina].map((m) => m.adId);
const allHidden = () => Object.values(hidden).map((m) => m.adId);

describe('GET /api/models: filters and answer shape', () => {
  it('answers { data, meta } with the most recent first', async () => {
    const l = await list('');
    expect(Object.keys(l).sort()).toEqual(['data', 'meta']);
    expect(Object.keys(l.meta).sort()).toEqual(['current_page', 'from', 'last_page', 'per_page', 'to', 'total']);
    expect(l.meta).toEqual({ current_page: 1, last_page: 1, per_page: 24, total: 8, from: 1, to: 8 });
    expect(idsOf(l)).toEqual([lucia, pelayo, xana, covadonga, noa, martina, aitana, jimena].map((m) => m.adId));
  });

  it('describes each card: name, age, city, section in the request language, cover, excerpt', async () => {
    const l = await list(`city=${ids.oviedo}`, { 'accept-language': 'de' });
    const card = l.data.find((c) => c.id === lucia.adId)!;
    expect(card).toMatchObject<Partial<ModelCard>>({
      user_id: lucia.userId,
      name: 'Lucía',
      title: 'Lucía en Oviedo',
      excerpt: 'Pasarela y fotografía de moda en estudio.',
      city: { id: ids.oviedo, name: 'Oviedo' },
      section: { id: ids.women, slug: 'women', name: 'Frauen', color: expect.stringMatching(/^#[0-9a-f]{6}$/i) as string },
      status: 'active',
      verified: true,
    });
    expect(card.age).toBeGreaterThanOrEqual(29);
    expect(card.cover).toMatchObject({ media_id: lucia.coverMediaId, is_cover: true });
    expect(card.cover!.srcset).toContain('800w');
    expect(new Date(card.published_at).toISOString()).toBe(card.published_at);
    expect(l.data.find((c) => c.id === covadonga.adId)!.cover).toBeNull();
  });

  it('filters by city', async () => {
    const l = await list(`city=${ids.oviedo}`);
    expect(idsOf(l)).toEqual(visibleOviedo());
    expect(l.meta).toMatchObject({ total: 3, from: 1, to: 3, last_page: 1 });
    expect(l.data.every((c) => c.city.name === 'Oviedo')).toBe(true);
    expect(idsOf(await list(`city=${ids.aviles}`))).toEqual([xana.adId]);
    // A city with no ads at all.
    expect(await list(`city=${(await findCity(t.database.db, 'Cangas de Onís')).id}`)).toMatchObject({
      data: [],
      meta: { total: 0, last_page: 1, from: null, to: null },
    });
  });

  it('filters by section, by slug or by numeric id', async () => {
    const bySlug = await list('section=men');
    expect(idsOf(bySlug)).toEqual([pelayo.adId, covadonga.adId]);
    expect(idsOf(await list(`section=${ids.men}`))).toEqual(idsOf(bySlug));
    expect(idsOf(await list('section=webcam'))).toEqual([noa.adId]);
    expect(idsOf(await list(`section=${ids.webcam}`))).toEqual([noa.adId]);
    expect((await list('section=999')).meta.total).toBe(0);
  });

  it('searches the ad text', async () => {
    expect(idsOf(await list('search=pasarela'))).toEqual([lucia.adId]);
    expect(idsOf(await list('search=catálogo'))).toEqual([covadonga.adId]);
    // The section's names are part of the document, in every language.
    expect(idsOf(await list('search=Männer'))).toEqual([pelayo.adId, covadonga.adId]);
  });

  it('combines city, section and search', async () => {
    expect(idsOf(await list(`city=${ids.oviedo}&section=women`))).toEqual([lucia.adId, martina.adId]);
    expect(idsOf(await list(`city=${ids.oviedo}&section=${ids.men}`))).toEqual([covadonga.adId]);
    expect(idsOf(await list(`city=${ids.gijon}&section=women&search=jimena`))).toEqual([jimena.adId, aitana.adId]);
    expect(idsOf(await list(`city=${ids.oviedo}&section=women&search=martina`))).toEqual([martina.adId]);
    expect((await list(`city=${ids.gijon}&section=men&search=martina`)).meta.total).toBe(0);
    // `status` is accepted for URL compatibility, and changes nothing: only verified profiles are listed.
    expect(idsOf(await list(`city=${ids.oviedo}&status=pending`))).toEqual(visibleOviedo());
  });
});

describe('GET /api/models: text search', () => {
  it('ignores accents and case', async () => {
    for (const q of ['Gijon', 'GIJÓN', 'gijón']) {
      const l = await list(`search=${encodeURIComponent(q)}`);
      expect(idsOf(l), q).toContain(pelayo.adId);
      expect(
        l.data.every((c) => c.city.name === 'Gijón'),
        q,
      ).toBe(true);
    }
    for (const q of ['lucia', 'LUCIA', 'Lucía']) expect(idsOf(await list(`search=${encodeURIComponent(q)}`)), q).toEqual([lucia.adId]);
  });

  it('stems Spanish words: "modelos" finds "modelo"', async () => {
    expect(idsOf(await list('search=modelos'))).toEqual([covadonga.adId]);
    expect(idsOf(await list('search=videollamadas&city=' + ids.madrid))).toEqual([noa.adId]);
  });

  it('forgives a typo, and only with the word that was meant', async () => {
    const l = await list('search=Ovideo');
    expect(idsOf(l).sort()).toEqual(visibleOviedo().sort());
    // Noa's webcam ad (Madrid, "videollamada", section "Video calls") is not a typo of Oviedo.
    expect(idsOf(l)).not.toContain(noa.adId);
    expect(l.data.every((c) => c.city.name === 'Oviedo')).toBe(true);
    const inAsturias = await list('search=Guijon');
    expect(idsOf(inAsturias)).toEqual(expect.arrayContaining([pelayo.adId]));
    expect(inAsturias.data.every((c) => c.city.name === 'Gijón')).toBe(true);
    // The filters still apply to the forgiving pass.
    expect(idsOf(await list('search=Ovideo&section=men'))).toEqual([covadonga.adId]);
    expect((await list(`search=Ovideo&city=${ids.gijon}`)).meta.total).toBe(0);
    // Nothing close at all: nothing found, and no error.
    expect((await list('search=zzqxw')).meta.total).toBe(0);
  });

  it('ranks an ad about the person above one that only mentions them, even a newer one', async () => {
    const l = await list('search=jimena');
    expect(idsOf(l)).toEqual([jimena.adId, aitana.adId]);
  });
});

describe('GET /api/models: pagination', () => {
  it('pages with from/to/last_page', async () => {
    const p1 = await list(`city=${ids.oviedo}&per_page=2`);
    expect(idsOf(p1)).toEqual(visibleOviedo().slice(0, 2));
    expect(p1.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3, from: 1, to: 2 });
    const p2 = await list(`city=${ids.oviedo}&per_page=2&page=2`);
    expect(idsOf(p2)).toEqual(visibleOviedo().slice(2));
    expect(p2.meta).toEqual({ current_page: 2, last_page: 2, per_page: 2, total: 3, from: 3, to: 3 });
  });

  it('answers an empty page past the end with the right total', async () => {
    const l = await list(`city=${ids.oviedo}&per_page=2&page=7`);
    expect(l).toEqual({ data: [], meta: { current_page: 7, last_page: 2, per_page: 2, total: 3, from: null, to: null } });
    expect((await list('page=1000')).meta).toMatchObject({ current_page: 1000, total: 8, from: null, to: null });
    expect((await list('per_page=48')).meta.per_page).toBe(48);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1001', 'page'],
    ['page=99999999999', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=49', 'per_page'],
    ['per_page=', 'per_page'],
    ['city=abc', 'city'],
    ['city=0', 'city'],
    ['city=2147483648', 'city'],
    ['section=aliens', 'section'],
    ['section=0', 'section'],
    [`search=${'x'.repeat(101)}`, 'search'],
  ])('refuses %s with 422 validation_failed naming the field', async (query, field) => {
    const res = await get(`/api/models?${query}`);
    expect(res.statusCode).toBe(422);
    const body = res.json<{ error: string; type: string; errors: Record<string, string[]> }>();
    expect(body).toMatchObject({ channel: 'notification', type: 'error', error: 'validation_failed' });
    expect(Object.keys(body.errors)).toContain(field);
    expect(body.errors[field]![0]).toEqual(expect.any(String));
  });

  it('refuses unknown query parameters', async () => {
    const res = await get('/api/models?city=1&colour=red');
    expect(res.statusCode).toBe(422);
    const body = res.json<{ error: string; errors: Record<string, string[]> }>();
    expect(body.error).toBe('validation_failed');
    expect(Object.values(body.errors).flat()).toEqual([expect.any(String)]);
  });

  it('never answers 500, whatever the search says', async () => {
    const odd = [
      "'",
      '"',
      '"unclosed',
      '&|!:*()',
      'a:* & b',
      '-',
      '--',
      'or',
      'de la y',
      '%',
      '_%\\',
      '\\',
      ' ',
      'ñ',
      '😀',
      '\u0000',
      'x\u0000y',
      '\u200b',
      'Oviedo OR Gijón -Madrid',
      '<script>',
      'a'.repeat(100),
    ];
    for (const q of odd) {
      const res = await get(`/api/models?search=${encodeURIComponent(q)}`);
      expect([200, 422], JSON.stringify(q)).toContain(res.statusCode);
    }
    for (const qs of ['page[]=1', 'page=1&page=2', 'city[a]=1', 'search[]=x', 'per_page=%00', 'section[]=men']) {
      const res = await get(`/api/models?${qs}`);
      expect([200, 422], qs).toContain(res.statusCode);
    }
  });
});

describe('visibility', () => {
  it('lists only switched-on, approved ads of active profiles', async () => {
    const all = await list('per_page=48');
    for (const id of allHidden()) expect(idsOf(all)).not.toContain(id);
    expect(idsOf(await list(`city=${ids.oviedo}&section=women&per_page=48`))).toEqual([lucia.adId, martina.adId]);
    for (const [status, m] of Object.entries(hidden)) {
      const name = (await t.app.inject({ method: 'GET', url: `/api/models/${m.adId}`, headers: XHR })).statusCode;
      expect(name, status).toBe(404);
    }
  });

  it("follows later changes to the model's profile: renamed, suspended, reinstated", async () => {
    const m = await model({ name: 'Eulalia', city: CITY.gijon, section: 'women', publishedAt: ago(30) });
    const db = t.database.db;
    await db.update(modelProfiles).set({ displayName: 'Brígida' }).where(eq(modelProfiles.id, m.profileId));
    const found = await list('search=brigida');
    expect(idsOf(found)).toEqual([m.adId]);
    expect(found.data[0]!.name).toBe('Brígida');
    await db.update(modelProfiles).set({ status: 'suspended' }).where(eq(modelProfiles.id, m.profileId));
    expect((await get(`/api/models/${m.adId}`)).statusCode).toBe(404);
    await db.update(modelProfiles).set({ status: 'active' }).where(eq(modelProfiles.id, m.profileId));
    expect((await get(`/api/models/${m.adId}`)).statusCode).toBe(200);
  });

  it('does not find hidden ads by name either', async () => {
    for (const name of ['Valeria', 'Emma', 'Daniela', 'Carla', 'Vega', 'Olivia', 'Irene']) {
      const l = await list(`search=${name}`);
      for (const id of allHidden()) expect(idsOf(l), name).not.toContain(id);
    }
  });

  it('answers a visible model page, and 404 for hidden, unknown or malformed ids', async () => {
    const res = await get(`/api/models/${lucia.adId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: ModelDetail }>().data).toMatchObject({
      id: lucia.adId,
      name: 'Lucía',
      description: 'Pasarela y fotografía de moda en estudio.',
      phone: '+34600000000',
      whatsapp: true,
      state: 'Asturias',
      city: { name: 'Oviedo' },
    });
    for (const url of [
      `/api/models/${hidden.suspended!.adId}`,
      `/api/models/${hidden.switchedOff!.adId}`,
      `/api/models/${hidden.adPending!.adId}`,
      '/api/models/99999999',
      '/api/models/abc',
      '/api/models/-1',
      '/api/models/99999999999999',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json(), url).toMatchObject({ type: 'error', error: 'not_found' });
    }
  });

  it('serves the gallery of a visible ad, cover first and exactly one cover', async () => {
    const res = await get(`/api/getImagesByAd/${lucia.adId}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Image[] }>();
    expect(data.map((i) => i.media_id)).toEqual([lucia.coverMediaId, ...lucia.mediaIds.filter((id) => id !== lucia.coverMediaId)]);
    expect(data.filter((i) => i.is_cover)).toHaveLength(1);
    expect(data[0]!.is_cover).toBe(true);
    for (const img of data) {
      expect(img.url).toMatch(new RegExp(`^/media/ads/${lucia.adId}/${img.uid}/800\\.webp$`));
      expect(img.srcset.split(', ')).toHaveLength(3);
    }
    expect((await get(`/api/getImagesByAd/${xana.adId}`)).json()).toEqual({ data: [] });
    for (const id of [...allHidden(), 99999999]) expect((await get(`/api/getImagesByAd/${id}`)).statusCode, String(id)).toBe(404);
    expect((await get('/api/getImagesByAd/abc')).statusCode).toBe(404);
  });

  it("serves a user's cover picture, null without photos, 404 when hidden or unknown", async () => {
    const res = await get(`/api/getCoverImage/${lucia.userId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: Image }>().data).toMatchObject({ media_id: lucia.coverMediaId, is_cover: true });
    expect((await get(`/api/getCoverImage/${pelayo.userId}`)).json()).toMatchObject({ data: { media_id: pelayo.coverMediaId } });
    expect((await get(`/api/getCoverImage/${xana.userId}`)).json()).toEqual({ data: null });
    for (const m of Object.values(hidden)) expect((await get(`/api/getCoverImage/${m.userId}`)).statusCode).toBe(404);
    expect((await get('/api/getCoverImage/99999999')).statusCode).toBe(404);
    expect((await get('/api/getCoverImage/x')).statusCode).toBe(404);
  });
});

describe('GET /api/fetchAllPublicityAds', () => {
  it('answers the live placements only, in order, each naming who paid', async () => {
    const res = await get('/api/fetchAllPublicityAds');
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: PublicityAd[] }>();
    expect(data.map((p) => p.title)).toEqual(['Academia Cantábrico', 'Estudio Luz Norte']);
    expect(data.map((p) => p.advertiser)).toEqual(['Academia Cantábrico S.C.', 'Luz Norte Fotografía S.L.']);
    for (const p of data) expect(p).toMatchObject({ target_url: 'https://example.com/', image_url: null });
  });
});

describe('micro-cache', () => {
  // Last in the file: it adds a visible ad after listing requests, which no other test expects.
  it('answers a repeated query from memory for a few seconds; another query sees new ads at once', async () => {
    const query = 'search=Zuriñe';
    expect((await list(query)).meta.total).toBe(0);
    const zurine = await model({ name: 'Zuriñe', city: CITY.aviles, section: 'trans' });
    expect((await list(query)).meta.total).toBe(0);
    expect(idsOf(await list(`${query}&per_page=10`))).toEqual([zurine.adId]);
    const res = await get(`/api/models?${query}`);
    expect(res.headers['cache-control']).toBe('public, max-age=5');
  });
});

describe('request guard', () => {
  it('refuses the listing without X-Requested-With', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/models' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'xhr_required' });
  });
});
