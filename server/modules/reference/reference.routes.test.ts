import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changedTables, fingerprint, listTables } from '#server/fuzz/db-fingerprint.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import { NEAREST_PER_MINUTE } from './reference.routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...XHR, ...headers } });

describe('sections', () => {
  it('answers the six sections with colour, slug and four names on both spellings', async () => {
    for (const url of ['/api/sections', '/api/getSections']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const { data } = res.json<{ data: { slug: string; color: string; name: string; names: Record<string, string> }[] }>();
      expect(data.map((s) => s.slug).sort()).toEqual(['couples', 'gays', 'men', 'trans', 'webcam', 'women']);
      for (const s of data) {
        expect(s.color).toMatch(/^#[0-9a-f]{6}$/i);
        expect(Object.keys(s.names).sort()).toEqual(['de', 'en', 'es', 'pt_BR']);
      }
    }
  });

  it('names each section in the language the request asks for', async () => {
    const es = (await get('/api/sections', { 'accept-language': 'es-ES,es;q=0.9' })).json<{ data: { slug: string; name: string }[] }>();
    const de = (await get('/api/sections', { cookie: 'lang=de' })).json<{ data: { slug: string; name: string }[] }>();
    expect(es.data.find((s) => s.slug === 'couples')?.name).toBe('Parejas');
    expect(de.data.find((s) => s.slug === 'couples')?.name).toBe('Paare');
  });
});

describe('countries, states and cities', () => {
  it('lists countries with Spain marked as having states', async () => {
    const res = await get('/api/countries');
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: { id: number; iso2: string; has_states: boolean; name: string }[] }>();
    const spain = data.find((c) => c.iso2 === 'ES');
    expect(spain?.has_states).toBe(true);
    expect(spain?.name).toBe('España');
    expect(data.length).toBeGreaterThan(200);
  });

  it('gives Spain its 50 provinces plus Ceuta and Melilla, and Asturias its municipalities', async () => {
    const countries = (await get('/api/countries')).json<{ data: { id: number; iso2: string }[] }>();
    const spainId = countries.data.find((c) => c.iso2 === 'ES')!.id;
    const res = await get(`/api/country/${spainId}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: { states: { id: number; name: string; code: string }[] } }>();
    expect(data.states).toHaveLength(52);
    expect(data.states.map((s) => s.name)).toEqual(expect.arrayContaining(['Asturias', 'Ceuta', 'Melilla', 'Madrid']));

    const asturias = data.states.find((s) => s.code === '33')!;
    const cities = (await get(`/api/cities/${asturias.id}`)).json<{ data: { name: string; latitude: number; longitude: number }[] }>();
    const names = cities.data.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Oviedo', 'Gijón', 'Avilés']));
    const oviedo = cities.data.find((c) => c.name === 'Oviedo')!;
    expect(oviedo.latitude).toBeCloseTo(43.3603, 2);
    expect(oviedo.longitude).toBeCloseTo(-5.845, 2);
    // Sorted the Spanish way: Avilés before Gijón before Oviedo.
    expect(names.indexOf('Avilés')).toBeLessThan(names.indexOf('Gijón'));
    expect(names.indexOf('Gijón')).toBeLessThan(names.indexOf('Oviedo'));
  });

  it('answers 404 in the error envelope for unknown or malformed ids', async () => {
    for (const url of [
      '/api/country/999999',
      '/api/country/abc',
      '/api/country/-1',
      '/api/cities/999999',
      '/api/cities/1.5',
      '/api/cities/99999999999999',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ channel: 'notification', type: 'error', error: 'not_found' });
    }
  });
});

describe('request guards', () => {
  it('refuses /api calls without X-Requested-With', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sections' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'xhr_required' });
  });

  it('answers unknown API paths with a translated 404 envelope', async () => {
    const res = await get('/api/nope', { 'accept-language': 'de' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found', message: 'Wir konnten nicht finden, wonach du suchst.' });
  });
});

describe('city type-ahead', () => {
  it('finds cities by prefix, ignoring accents and case, biggest first', async () => {
    const res = await get('/api/cities/search?q=gijon');
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: { id: number; name: string; state: string }[] }>();
    expect(data[0]).toMatchObject({ name: 'Gijón', state: 'Asturias' });
    const avi = (await get('/api/cities/search?q=AVIL')).json<{ data: { name: string }[] }>().data.map((c) => c.name);
    expect(avi).toContain('Avilés');
  });

  it('forgives a typo', async () => {
    const { data } = (await get('/api/cities/search?q=Ovideo')).json<{ data: { name: string }[] }>();
    expect(data.map((c) => c.name)).toContain('Oviedo');
  });

  it('answers one city by id, and 404 / 400 for bad input', async () => {
    const oviedo = (await get('/api/cities/search?q=oviedo')).json<{ data: { id: number }[] }>().data[0]!;
    expect((await get(`/api/city/${oviedo.id}`)).json()).toMatchObject({ data: { name: 'Oviedo', state: 'Asturias' } });
    expect((await get('/api/city/99999999')).statusCode).toBe(404);
    expect((await get('/api/cities/search')).statusCode).toBe(422);
    expect((await get(`/api/cities/search?q=${'x'.repeat(61)}`)).statusCode).toBe(422);
  });
});

describe('nearest municipality', () => {
  type Nearest = {
    data: { country_id: number; state_id: number; state: string; city_id: number; city: string; latitude: number; longitude: number };
  };
  const nearest = (lat: string | number, lng: string | number, headers: Record<string, string> = {}) =>
    get(`/api/cities/nearest?lat=${lat}&lng=${lng}`, headers);

  it("answers Oviedo for Oviedo's coordinates, with its province and country, uncached", async () => {
    const res = await nearest(43.3603, -5.845);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json<Nearest>();
    expect(data).toMatchObject({ city: 'Oviedo', state: 'Asturias' });
    const spain = (await get('/api/countries')).json<{ data: { id: number; iso2: string }[] }>().data.find((c) => c.iso2 === 'ES')!;
    expect(data.country_id).toBe(spain.id);
    // The ids are the pickers' own: the state's cities list holds the city.
    const cities = (await get(`/api/cities/${data.state_id}`)).json<{ data: { id: number; name: string }[] }>().data;
    expect(cities.find((c) => c.id === data.city_id)?.name).toBe('Oviedo');
  });

  it('answers a coastal municipality for a point in the sea off Gijón', async () => {
    // About 6 km north of Gijón's beach: no municipality's centre is there.
    const { data } = (await nearest(43.6, -5.66)).json<Nearest>();
    expect(['Gijón', 'Carreño', 'Gozón', 'Villaviciosa']).toContain(data.city);
    expect(data.state).toBe('Asturias');
  });

  it('takes a point inside a municipality to that municipality, not a bigger neighbour', async () => {
    // Madrid's Puerta del Sol, and the centre of Seville.
    expect((await nearest(40.4169, -3.7035)).json<Nearest>().data.city).toBe('Madrid');
    expect((await nearest('37.3891', '-5.9845')).json<Nearest>().data.city).toBe('Sevilla');
  });

  it('answers a translated 404 where no municipality is near (the open Atlantic, another continent)', async () => {
    for (const [lat, lng] of [
      [45, -15],
      [-33.87, 151.21],
    ]) {
      const res = await nearest(lat!, lng!, { 'accept-language': 'en' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        error: 'not_found',
        message: 'We know no municipality near that spot. Choose the city in the lists.',
      });
    }
  });

  it('refuses bad coordinates with a translated 422, never a 500', async () => {
    for (const query of [
      '',
      'lat=43.36',
      'lng=-5.84',
      'lat=&lng=',
      'lat=91&lng=0',
      'lat=0&lng=180.5',
      'lat=-90.0001&lng=0',
      'lat=abc&lng=-5.84',
      'lat=1e1&lng=2',
      'lat=0x10&lng=2',
      'lat=NaN&lng=Infinity',
      'lat=43.36&lng=-5.84&lat=1',
      'lat=43.36&lng=-5.84&extra=1',
      `lat=${'1'.repeat(400)}&lng=1`,
    ]) {
      const res = await get(`/api/cities/nearest?${query}`, { 'accept-language': 'es' });
      expect(res.statusCode, query).toBe(422);
      expect(res.json(), query).toMatchObject({ error: 'validation_failed', message: 'Revisa los datos enviados.' });
    }
  });

  it('stores nothing and keeps the point out of the request log', async () => {
    const db = t.database.db;
    const tables = await listTables(db);
    const before = await fingerprint(db, tables);
    // With logging off Fastify hands every request the app's own (silent) logger: what a request logs passes here.
    const logged = vi.spyOn(t.app.log, 'info');
    try {
      expect((await nearest('43.3671', '-5.8442')).statusCode).toBe(200);
      const lines = logged.mock.calls.map((call) => JSON.stringify(call));
      expect(lines.some((line) => line.includes('/api/cities/nearest'))).toBe(true);
      expect(lines.filter((line) => line.includes('43.3671') || line.includes('5.8442'))).toEqual([]);
    } finally {
      logged.mockRestore();
    }
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
  });

  it('is rate-limited per visitor', async () => {
    // A visitor of their own (the other tests share the default address).
    const ask = (remoteAddress: string) =>
      t.app.inject({ method: 'GET', url: '/api/cities/nearest?lat=43.36&lng=-5.84', headers: XHR, remoteAddress });
    for (let i = 0; i < NEAREST_PER_MINUTE; i++) expect((await ask('203.0.113.7')).statusCode).toBe(200);
    const res = await ask('203.0.113.7');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: 'too_many_requests' });
    expect((await ask('203.0.113.8')).statusCode).toBe(200);
  });
});
