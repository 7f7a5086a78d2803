import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cities, countries, sections, states } from '../../db/schema.ts';

export function listSections(db: Db) {
  return db.select().from(sections).orderBy(asc(sections.position));
}

export function listCountries(db: Db) {
  return db
    .select({
      id: countries.id,
      iso2: countries.iso2,
      names: countries.names,
      phoneCode: countries.phoneCode,
      hasStates: sql<boolean>`exists (select 1 from ${states} where ${states.countryId} = ${countries.id})`,
    })
    .from(countries)
    .orderBy(asc(countries.position));
}

export async function findCountry(db: Db, id: number) {
  const [row] = await db.select().from(countries).where(eq(countries.id, id));
  return row;
}

export function listStates(db: Db, countryId: number) {
  return db.select().from(states).where(eq(states.countryId, countryId));
}

export async function findState(db: Db, id: number) {
  const [row] = await db.select({ id: states.id }).from(states).where(eq(states.id, id));
  return row;
}

export function listCities(db: Db, stateId: number) {
  return db.select().from(cities).where(eq(cities.stateId, stateId));
}

/** Cities whose name starts with (or, failing that, resembles) the text; biggest first. */
export async function searchCities(db: Db, q: string) {
  const term = sql`immutable_unaccent(lower(${q}))`;
  const name = sql`immutable_unaccent(lower(${cities.name}))`;
  return db
    .select({ id: cities.id, name: cities.name, state: states.name })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(sql`${name} like ${term} || '%' or ${name} like '% ' || ${term} || '%' or similarity(${name}, ${term}) > 0.25`)
    .orderBy(sql`(${name} like ${term} || '%') desc`, sql`similarity(${name}, ${term}) desc`, sql`${cities.population} desc`)
    .limit(20);
}

export async function findCityOption(db: Db, id: number) {
  const [row] = await db
    .select({ id: cities.id, name: cities.name, state: states.name })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(eq(cities.id, id));
  return row;
}

/** How far from a municipality's centre a point may be and still belong to it (about 55 km north–south). */
export const NEAREST_MAX_DEGREES = 0.5;

/**
 * The municipality whose centre is nearest to a point, with its province and country; undefined when none lies within
 * NEAREST_MAX_DEGREES (the open sea, another country). A bounding box narrows the rows, then an equirectangular
 * distance (longitude shrunk by the latitude's cosine) orders them: exact enough at this scale, and plain SQL that
 * PGlite and PostgreSQL run alike, without PostGIS or earthdistance.
 */
export async function nearestCity(db: Db, lat: number, lng: number) {
  const kx = Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  const dLng = Math.min(NEAREST_MAX_DEGREES / kx, 180);
  const distance = sql`(${cities.latitude} - ${lat}) * (${cities.latitude} - ${lat}) + (${cities.longitude} - ${lng}) * (${cities.longitude} - ${lng}) * ${kx * kx}`;
  // Places kept under their GeoNames id ("g…", see generate-reference-data.ts) are towns filed under a neighbour's
  // INE code but also districts of a city (Natahoyo in Gijón): one counts only when twice as near as a municipality.
  const ranked = sql`${distance} * case when ${cities.code} like 'g%' then 4 else 1 end`;
  const [row] = await db
    .select({
      cityId: cities.id,
      city: cities.name,
      stateId: states.id,
      state: states.name,
      countryId: states.countryId,
      latitude: cities.latitude,
      longitude: cities.longitude,
    })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(
      // The box is a cheap first filter; the distance check keeps the answer the nearest within the radius.
      sql`${cities.latitude} between ${lat - NEAREST_MAX_DEGREES} and ${lat + NEAREST_MAX_DEGREES}
        and ${cities.longitude} between ${lng - dLng} and ${lng + dLng}
        and ${distance} <= ${NEAREST_MAX_DEGREES * NEAREST_MAX_DEGREES}`,
    )
    .orderBy(ranked, asc(cities.id))
    .limit(1);
  return row;
}
