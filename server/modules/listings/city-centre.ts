/**
 * Where a model page places its map (issue 16 point 1): the centre of the ad's city as the reference data has it,
 * rounded to 2 decimals (about 1 km), never an ad's or a person's own position. The browser draws an area of about
 * 2 km around it.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cities } from '../../db/schema.ts';

export interface CityCentre {
  latitude: number;
  longitude: number;
}

/** Two decimals: about 1.1 km of latitude, less of longitude; enough for a city's area, too coarse for an address. */
export const roundCoordinate = (value: number): number => Math.round(value * 100) / 100;

/** Cities are reference data that no request changes: each centre is read once per database. */
const centresByDb = new WeakMap<Db, Map<number, CityCentre>>();

export async function cityCentre(db: Db, cityId: number): Promise<CityCentre | null> {
  let centres = centresByDb.get(db);
  if (!centres) centresByDb.set(db, (centres = new Map<number, CityCentre>()));
  const known = centres.get(cityId);
  if (known) return known;
  const [row] = await db.select({ latitude: cities.latitude, longitude: cities.longitude }).from(cities).where(eq(cities.id, cityId));
  if (!row) return null;
  const centre = { latitude: roundCoordinate(row.latitude), longitude: roundCoordinate(row.longitude) };
  centres.set(cityId, centre);
  return centre;
}
