/**
 * The public listing. Visible = ad switched on, ad approved, and the model's profile active (SPEC §4
 * "Verificado"). Text search is Spanish full-text on `search_vector` (accents and case ignored, stemmed);
 * when that finds nothing, a trigram strict-word-similarity pass forgives typos ("Ovideo" → Oviedo).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export interface ListingFilters {
  search?: string | undefined;
  cityId?: number | undefined;
  sectionId?: number | undefined;
  limit: number;
  offset: number;
}

export interface ListingRow {
  id: number;
  title: string;
  description: string;
  published_at: string | Date;
  display_name: string;
  birth_date: string | null;
  profile_status: string;
  user_id: number;
  phone: string | null;
  whatsapp: boolean;
  city_id: number;
  city_name: string;
  state_name: string;
  section_id: number;
  section_slug: string;
  section_names: Record<string, string>;
  section_color: string;
  cover_id: number | null;
  cover_uid: string | null;
  cover_width: number | null;
  cover_height: number | null;
  cover_variants: number[] | null;
}

const VISIBLE = sql`a.is_active and a.status = 'active' and p.status = 'active'`;
/**
 * Below this strict word similarity a "typo" is a different word. Strict (whole-word) similarity keeps
 * "ovideo" close to "Oviedo" (0.27) and away from "videollamada" (0.18), which plain word similarity inverts.
 */
const TRIGRAM_THRESHOLD = 0.25;

function filters(f: ListingFilters): SQL[] {
  const where: SQL[] = [VISIBLE];
  if (f.cityId) where.push(sql`a.city_id = ${f.cityId}`);
  if (f.sectionId) where.push(sql`a.section_id = ${f.sectionId}`);
  return where;
}

const SELECT = sql`
  select a.id, a.title, a.description, a.published_at, p.display_name, p.birth_date, p.status as profile_status,
         p.user_id, p.phone, p.whatsapp, c.id as city_id, c.name as city_name, st.name as state_name,
         s.id as section_id, s.slug as section_slug, s.names as section_names, s.color as section_color,
         m.id as cover_id, m.uid as cover_uid, m.width as cover_width, m.height as cover_height, m.variants as cover_variants
  from ads a
  join model_profiles p on p.id = a.model_profile_id
  join cities c on c.id = a.city_id
  join states st on st.id = c.state_id
  join sections s on s.id = a.section_id
  left join media m on m.ad_id = a.id and m.is_cover`;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  // node-postgres and PGlite both answer { rows }; drizzle types them differently.
  const res = (await db.execute(query)) as { rows: T[] };
  return res.rows;
}

const COUNT_FROM = sql`from ads a join model_profiles p on p.id = a.model_profile_id`;
/** For conditions on the place's names too. */
const COUNT_FROM_PLACES = sql`${COUNT_FROM} join cities c on c.id = a.city_id join states st on st.id = c.state_id`;

async function page(
  db: Db,
  where: SQL[],
  order: SQL,
  f: ListingFilters,
  countFrom = COUNT_FROM,
): Promise<{ rows: ListingRow[]; total: number }> {
  const cond = sql.join(where, sql` and `);
  const [list, count] = await Promise.all([
    rows<ListingRow>(db, sql`${SELECT} where ${cond} order by ${order} limit ${f.limit} offset ${f.offset}`),
    rows<{ n: string | number }>(db, sql`select count(*) as n ${countFrom} where ${cond}`),
  ]);
  return { rows: list, total: Number(count[0]?.n ?? 0) };
}

export async function listModels(db: Db, f: ListingFilters): Promise<{ rows: ListingRow[]; total: number }> {
  // `nulls last` as the ads_visible_* indexes are built (Drizzle's .desc() writes DESC NULLS LAST, while a bare DESC
  // means NULLS FIRST): only the same ordering lets PostgreSQL walk the index and stop after one page, where
  // otherwise it fetches and sorts every matching row. The columns are NOT NULL, so the order itself is unchanged.
  const recent = sql`a.published_at desc nulls last, a.id desc nulls last`;
  if (!f.search) return page(db, filters(f), recent, f);

  const tsq = sql`websearch_to_tsquery('es_unaccent', ${f.search})`;
  // search_vector carries no weights (every word counts the same), so a match on the model's name is weighted
  // 'A' on top of it: her own ad ranks above one that merely mentions her, however recent.
  const rank = sql`ts_rank_cd(setweight(to_tsvector('es_unaccent', p.display_name), 'A') || a.search_vector, ${tsq})`;
  const fts = await page(db, [...filters(f), sql`a.search_vector @@ ${tsq}`], sql`${rank} desc, ${recent}`, f);
  if (fts.total > 0) return fts;

  const q = sql`immutable_unaccent(lower(${f.search}))`;
  const doc = sql`immutable_unaccent(lower(a.search_document))`;
  // The document also holds the section's names in four languages, for full-text search; they are no typo target:
  // "ovideo" is closer to "video" (of "Video calls", 0.44) than to "Oviedo" (0.27), and would bring every webcam
  // ad. The index finds candidates in the whole document; the ad's own words must match.
  const own = sql`immutable_unaccent(lower(concat_ws(' ', p.display_name, a.title, a.description, c.name, st.name)))`;
  return db.transaction(async (tx) => {
    // Scoped to this transaction: lets the trigram index answer `%>>` at our threshold.
    await tx.execute(sql.raw(`set local pg_trgm.strict_word_similarity_threshold = ${TRIGRAM_THRESHOLD}`));
    return page(
      tx,
      [...filters(f), sql`${doc} %>> ${q}`, sql`${own} %>> ${q}`],
      sql`strict_word_similarity(${q}, ${own}) desc, ${recent}`,
      f,
      COUNT_FROM_PLACES,
    );
  });
}

export async function findVisibleAd(db: Db, id: number): Promise<ListingRow | undefined> {
  const [row] = await rows<ListingRow>(db, sql`${SELECT} where a.id = ${id} and ${VISIBLE}`);
  return row;
}

export async function findVisibleAdOfUser(db: Db, userId: number): Promise<ListingRow | undefined> {
  const [row] = await rows<ListingRow>(db, sql`${SELECT} where p.user_id = ${userId} and ${VISIBLE} order by a.published_at desc limit 1`);
  return row;
}

export async function sectionIdBySlug(db: Db, slug: string): Promise<number | undefined> {
  const [row] = await rows<{ id: number }>(db, sql`select id from sections where slug = ${slug}`);
  return row?.id;
}
