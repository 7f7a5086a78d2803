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
