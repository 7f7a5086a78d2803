/**
 * Seeds the reference data (sections, countries, Spain's provinces and municipalities) from the JSON files
 * committed under ./data (generated once by generate-reference-data.ts; nothing is fetched at run time).
 * Idempotent: rows that exist are left alone, so it runs on every start.
 */
import fs from 'node:fs';
import { count, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { cities, countries, sections, states } from '../schema.ts';
import { SECTION_SEED } from './sections.ts';

type Names = { es: string; en: string; de: string; pt_BR: string };
interface CountryRow {
  iso2: string;
  phone_code: string;
  names: Names;
}
interface StateRow {
  code: string;
  name: string;
  latitude: number;
  longitude: number;
}
interface CityRow {
  ine: string;
  state: string;
  name: string;
  latitude: number;
  longitude: number;
  population: number;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as T;
}

const BATCH = 500;

export async function seedReferenceData(db: Db): Promise<void> {
  await db
    .insert(sections)
    .values(SECTION_SEED.map((s, i) => ({ slug: s.slug, names: s.names, color: s.color, position: i + 1 })))
    .onConflictDoNothing({ target: sections.slug });

  const [countryCount] = await db.select({ n: count() }).from(countries);
  if ((countryCount?.n ?? 0) === 0) {
    const rows = readJson<CountryRow[]>('countries.json');
    for (let i = 0; i < rows.length; i += BATCH) {
      await db
        .insert(countries)
        .values(rows.slice(i, i + BATCH).map((c, j) => ({ iso2: c.iso2, names: c.names, phoneCode: c.phone_code, position: i + j + 1 })))
        .onConflictDoNothing();
    }
  }

  const [spain] = await db.select({ id: countries.id }).from(countries).where(eq(countries.iso2, 'ES'));
  if (!spain) throw new Error('Reference data: Spain is missing from countries.json');
  const [stateCount] = await db.select({ n: count() }).from(states).where(eq(states.countryId, spain.id));
  if ((stateCount?.n ?? 0) > 0) return;

  await db.transaction(async (tx) => {
    const stateRows = readJson<StateRow[]>('es-states.json');
    const inserted = await tx
      .insert(states)
      .values(stateRows.map((s) => ({ countryId: spain.id, code: s.code, name: s.name, latitude: s.latitude, longitude: s.longitude })))
      .returning({ id: states.id, code: states.code });
    const stateIds = new Map(inserted.map((s) => [s.code, s.id]));
    const cityRows = readJson<CityRow[]>('es-cities.json');
    for (let i = 0; i < cityRows.length; i += BATCH) {
      await tx.insert(cities).values(
        cityRows.slice(i, i + BATCH).map((c) => {
          const stateId = stateIds.get(c.state);
          if (stateId === undefined) throw new Error(`Reference data: city ${c.ine} has unknown state ${c.state}`);
          return { stateId, code: c.ine, name: c.name, latitude: c.latitude, longitude: c.longitude, population: c.population };
        }),
      );
    }
  });
}
