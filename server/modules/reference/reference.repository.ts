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
