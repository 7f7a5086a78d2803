/**
 * GET /api/models/map (issue 16 point 2): the listing's matches counted per city, with the city's reference
 * coordinates, under the same visibility, section and search rules as GET /api/models.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cities } from '#server/db/schema.ts';
import type { ModelList, ModelsMap } from '#contract/listings.ts';
import { API } from '#contract/routes.ts';
import { buildModel, CITY, findCity } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
const ids = { oviedo: 0, gijon: 0, aviles: 0, madrid: 0 };
const coords = new Map<number, { latitude: number; longitude: number }>();

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  for (const [name, code] of Object.entries(CITY)) {
    const city = await findCity(db, code);
    ids[name as keyof typeof ids] = city.id;
    const [row] = await db.select({ latitude: cities.latitude, longitude: cities.longitude }).from(cities).where(eq(cities.id, city.id));
    coords.set(city.id, row!);
  }
  // A word nobody else uses, so the counts below are this file's own.
  await buildModel(db, { name: 'Zafirina Uno', city: CITY.oviedo, section: 'women' });
  await buildModel(db, { name: 'Zafirina Dos', city: CITY.oviedo, section: 'men' });
  await buildModel(db, { name: 'Zafirina Tres', city: CITY.gijon, section: 'women' });
  // Not listed: switched off, and a profile under review. Avilés has nothing visible.
  await buildModel(db, { name: 'Zafirina Cuatro', city: CITY.aviles, section: 'women', adActive: false });
  await buildModel(db, { name: 'Zafirina Cinco', city: CITY.aviles, section: 'women', profileStatus: 'pending' });
  await buildModel(db, { name: 'Zafirina Seis', city: CITY.madrid, section: 'webcam' });
});
afterAll(() => t.close());

const map = async (query: string) => t.app.inject({ method: 'GET', url: `${API.modelsMap}${query}`, headers: XHR });
const counts = (body: ModelsMap) => Object.fromEntries(body.data.map((c) => [c.city.id, c.count]));

describe('the listing counted per city', () => {
  it('counts the visible matches per city; a city with none never appears', async () => {
    const res = await map('?search=zafirina');
    expect(res.statusCode).toBe(200);
    const body = res.json<ModelsMap>();
    expect(counts(body)).toEqual({ [ids.oviedo]: 2, [ids.gijon]: 1, [ids.madrid]: 1 });
    expect(body.meta.total).toBe(4);
    // The busiest city first.
    expect(body.data[0]!.city).toMatchObject({ id: ids.oviedo, name: 'Oviedo' });
    expect(body.data[0]!.city.state).toBe('Asturias');
  });

  it('sends the city’s reference coordinates, nothing of the ads’ own', async () => {
    const body = (await map('?search=zafirina')).json<ModelsMap>();
    for (const c of body.data) {
      expect({ latitude: c.latitude, longitude: c.longitude }).toEqual(coords.get(c.city.id));
      expect(Object.keys(c).sort()).toEqual(['city', 'count', 'latitude', 'longitude']);
    }
  });

  it('filters by section as the listing does, and its total is the listing’s', async () => {
    const body = (await map('?search=zafirina&section=women')).json<ModelsMap>();
    expect(counts(body)).toEqual({ [ids.oviedo]: 1, [ids.gijon]: 1 });
    const listing = (
      await t.app.inject({ method: 'GET', url: '/api/models?search=zafirina&section=women', headers: XHR })
    ).json<ModelList>();
    expect(body.meta.total).toBe(listing.meta.total);
    // Without a search, every visible ad of the section (the demo-free test catalogue has these and the factories').
    const all = (await map('?section=webcam')).json<ModelsMap>();
    const allListing = (await t.app.inject({ method: 'GET', url: '/api/models?section=webcam', headers: XHR })).json<ModelList>();
    expect(all.meta.total).toBe(allListing.meta.total);
    expect(counts(all)[ids.madrid]).toBeGreaterThanOrEqual(1);
  });

  it('forgives a typo as the listing does, and says so; literal=1 does not', async () => {
    const body = (await map('?search=zafrina')).json<ModelsMap>();
    expect(body.meta.total).toBe(4);
    expect(body.meta.corrections).toEqual([{ from: 'zafrina', to: 'zafirina' }]);
    const literal = (await map('?search=zafrina&literal=1')).json<ModelsMap>();
    expect(literal).toEqual({ data: [], meta: { total: 0 } });
  });

  it('refuses bad input with a translated 4xx and never a 500', async () => {
    for (const query of ['?section=nope', '?city=1', '?page=2', `?search=${'x'.repeat(300)}`, '?literal=2']) {
      const res = await map(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ message: string }>().message, query).toBeTruthy();
    }
    // Control characters: answered as the listing answers them, never a database error.
    const nul = await map('?search=%00zafirina%01');
    const listing = await t.app.inject({ method: 'GET', url: '/api/models?search=%00zafirina%01', headers: XHR });
    expect(nul.statusCode).toBe(listing.statusCode);
    expect(nul.statusCode).toBeLessThan(500);
  });
});
