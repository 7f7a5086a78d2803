/**
 * The model page's area map (issue 16 point 1): the model detail answers the centre of the ad's city, rounded to
 * 2 decimals (about 1 km), and nothing closer than that.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDetail } from '#contract/listings.ts';
import { cities } from '#server/db/schema.ts';
import { buildModel, CITY, findCity } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import { roundCoordinate } from './city-centre.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const detail = async (id: number) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/models/${id}`, headers: XHR });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: ModelDetail }>().data;
};

describe('the model detail’s coordinates', () => {
  it('are the city’s centre, rounded to 2 decimals', async () => {
    const db = t.database.db;
    for (const code of [CITY.oviedo, CITY.madrid]) {
      const city = await findCity(db, code);
      const [ref] = await db.select({ latitude: cities.latitude, longitude: cities.longitude }).from(cities).where(eq(cities.id, city.id));
      const { adId } = await buildModel(db, { name: `Coordenadas ${city.name}`, city: code });
      const data = await detail(adId);
      expect(data.city).toEqual({
        id: city.id,
        name: city.name,
        latitude: Math.round(ref!.latitude * 100) / 100,
        longitude: Math.round(ref!.longitude * 100) / 100,
      });
      // Never more precise than 2 decimals (the reference data has more).
      for (const v of [data.city.latitude!, data.city.longitude!]) expect(Math.abs(v * 100 - Math.round(v * 100))).toBeLessThan(1e-9);
    }
  });

  it('rounds to 2 decimals', () => {
    expect(roundCoordinate(43.36028)).toBe(43.36);
    expect(roundCoordinate(-5.84476)).toBe(-5.84);
    expect(roundCoordinate(40.41677)).toBe(40.42);
  });
});
