/**
 * search_page() (migration 0016) finds a search's most recent matches one of two ways, chosen on the words' frequency:
 * walking the filters' recency index, or every match from the GIN index. Both must answer exactly what the rule says —
 * the p_max most recent listed matches under the filters, ranked by ts_rank, then recency — whichever is chosen. Here
 * "común" is in most ads (the walk is chosen) and "rarísima" in one (the bitmap), and each query is also run with no
 * words given (always the bitmap); p_max is small so the cap itself is exercised.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/client.ts';
import { buildModel, CITY } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
const db = (): Db => t.database.db;
let oviedo = 0;
let women = 0;

async function rows<T>(q: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db().execute(q)) as { rows: T[] }).rows;
}

beforeAll(async () => {
  t = await createTestApp({ listingsCacheTtlMs: 0 });
  const day = 24 * 3600 * 1000;
  const base = Date.parse('2026-06-01T12:00:00Z');
  for (let i = 0; i < 14; i++) {
    await buildModel(db(), {
      name: `Modelo ${i}`,
      city: i % 3 === 0 ? CITY.gijon : CITY.oviedo,
      section: i % 2 === 0 ? 'women' : 'trans',
      // "común" once or twice (a different rank), "rarísima" in one ad only.
      description: `${i % 4 === 0 ? 'común común' : 'común'} sesión ${i === 5 ? 'rarísima' : ''}`,
      publishedAt: new Date(base + (i % 5) * day + i * 1000),
    });
  }
  oviedo = (await rows<{ id: number }>(sql`select id from cities where code = ${CITY.oviedo}`))[0]!.id;
  women = (await rows<{ id: number }>(sql`select id from sections where slug = 'women'`))[0]!.id;
});
afterAll(async () => t.close());

type Page = { ids: number[]; total: number };

async function searchPage(
  search: string,
  words: string[] | null,
  city: number | null,
  section: number | null,
  max: number,
  offset = 0,
): Promise<Page> {
  const list = await rows<{ id: number | null; total: string | number }>(
    sql`select id, total from search_page(websearch_to_tsquery('es_unaccent', ${search}),
          ${
            words
              ? sql`array[${sql.join(
                  words.map((w) => sql`${w}`),
                  sql`, `,
                )}]::text[]`
              : sql`null::text[]`
          }, null, null,
          ${city}::int, ${section}::int, 3, ${offset}, ${max})`,
  );
  return { ids: list.filter((r) => r.id !== null).map((r) => r.id!), total: Number(list[0]?.total ?? 0) };
}

/** The rule, as plainly as SQL says it. */
async function expected(search: string, city: number | null, section: number | null, max: number, offset = 0): Promise<Page> {
  const q = sql`websearch_to_tsquery('es_unaccent', ${search})`;
  const recent = await rows<{ id: number }>(sql`
    select id from (select a.id, a.published_at, ts_rank(a.search_vector, ${q}) as score from ads a
                     where a.is_listed and a.search_vector @@ ${q}
                       and (${city}::int is null or a.city_id = ${city}) and (${section}::int is null or a.section_id = ${section})
                     order by a.published_at desc, a.id desc limit ${max}) m
     order by score desc, published_at desc, id desc limit 3 offset ${offset}`);
  const [n] = await rows<{ n: number }>(sql`
    select count(*)::int as n from (select 1 from ads a where a.is_listed and a.search_vector @@ ${q}
      and (${city}::int is null or a.city_id = ${city}) and (${section}::int is null or a.section_id = ${section}) limit ${max}) m`);
  return { ids: recent.map((r) => r.id), total: n!.n };
}

describe('search_page: the walk and the bitmap answer the same page', () => {
  const filters: [string, () => [number | null, number | null]][] = [
    ['no filter', () => [null, null]],
    ['a city', () => [oviedo, null]],
    ['a section', () => [null, women]],
    ['a city and a section', () => [oviedo, women]],
  ];
  it.each(filters)('%s', async (_name, which) => {
    const [city, section] = which();
    for (const [search, words] of [
      ['común', ['comun']],
      ['rarísima', ['rarisima']],
      ['común sesión', ['comun', 'sesion']],
      ['modelo -rarísima', ['modelo']],
    ] as const) {
      for (const [max, offset] of [
        [2, 0],
        [4, 0],
        [4, 3],
        [1000, 0],
        [1000, 3],
      ]) {
        const want = await expected(search, city, section, max!, offset);
        expect(await searchPage(search, [...words], city, section, max!, offset), `${search} ${max} ${offset}`).toEqual(want);
        expect(await searchPage(search, null, city, section, max!, offset), `${search} ${max} ${offset} (bitmap)`).toEqual(want);
      }
    }
  });

  it('a query of stop words only matches nothing', async () => {
    expect(await searchPage('de la', ['de', 'la'], null, null, 1000)).toEqual({ ids: [], total: 0 });
  });

  it('past the last page, the total still comes back', async () => {
    const page = await searchPage('común', ['comun'], null, null, 1000, 30);
    expect(page).toEqual({ ids: [], total: 14 });
  });
});
