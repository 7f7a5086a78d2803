import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

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
