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
  user_id: number | null;
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

/** Kept by the database (trigger ads_before_write): switched on, approved, and the profile active. */
const VISIBLE = sql`a.is_listed`;
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

const COLUMNS = sql`
  a.id, a.title, a.description, a.published_at, p.display_name, p.birth_date, p.status as profile_status,
  p.user_id, p.phone, p.whatsapp, c.id as city_id, c.name as city_name, st.name as state_name,
  s.id as section_id, s.slug as section_slug, s.names as section_names, s.color as section_color,
  m.id as cover_id, m.uid as cover_uid, m.width as cover_width, m.height as cover_height, m.variants as cover_variants`;
const JOINS = sql`
  join model_profiles p on p.id = a.model_profile_id
  join cities c on c.id = a.city_id
  join states st on st.id = c.state_id
  join sections s on s.id = a.section_id
  left join media m on m.ad_id = a.id and m.is_cover`;
const SELECT = sql`select ${COLUMNS} from ads a ${JOINS}`;
const PLACES = sql`join cities c on c.id = a.city_id join states st on st.id = c.state_id`;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  // node-postgres and PGlite both answer { rows }; drizzle types them differently.
  const res = (await db.execute(query)) as { rows: T[] };
  return res.rows;
}

const RECENT = sql`a.published_at desc nulls last, a.id desc nulls last`;

/** Filters only: the page walks a partial index and stops; the count is an index-only scan of the same index. */
async function recentPage(db: Db, where: SQL[], f: ListingFilters): Promise<{ rows: ListingRow[]; total: number }> {
  const cond = sql.join(where, sql` and `);
  const [list, count] = await Promise.all([
    rows<ListingRow>(db, sql`${SELECT} where ${cond} order by ${RECENT} limit ${f.limit} offset ${f.offset}`),
    rows<{ n: string | number }>(db, sql`select count(*) as n from ads a where ${cond}`),
  ]);
  return { rows: list, total: Number(count[0]?.n ?? 0) };
}

/**
 * Ranked (text search): scoring already visits every match, so the total comes from the same pass
 * (`count(*) over ()` is computed before the limit) and only the page's rows are joined for display.
 */
async function rankedPage(
  db: Db,
  where: SQL[],
  score: SQL,
  f: ListingFilters,
  from = sql`ads a`,
): Promise<{ rows: ListingRow[]; total: number }> {
  const cond = sql.join(where, sql` and `);
  const list = await rows<ListingRow & { total: string | number }>(
    db,
    sql`with hits as (
          select a.id, ${score} as score, count(*) over () as total from ${from} where ${cond}
          order by score desc, ${RECENT} limit ${f.limit} offset ${f.offset})
        select ${COLUMNS}, hits.total from hits join ads a on a.id = hits.id ${JOINS}
        order by hits.score desc, ${RECENT}`,
  );
  if (list.length > 0) return { rows: list, total: Number(list[0]!.total) };
  // Past the last page the window has no row to carry the total.
  const count = await rows<{ n: string | number }>(db, sql`select count(*) as n from ${from} where ${cond}`);
  return { rows: [], total: Number(count[0]?.n ?? 0) };
}

export async function listModels(db: Db, f: ListingFilters): Promise<{ rows: ListingRow[]; total: number }> {
  // `nulls last` as the ads_visible_* indexes are built (Drizzle's .desc() writes DESC NULLS LAST, while a bare DESC
  // means NULLS FIRST): only the same ordering lets PostgreSQL walk the index and stop after one page, where
  // otherwise it fetches and sorts every matching row. The columns are NOT NULL, so the order itself is unchanged.
  if (!f.search) return recentPage(db, filters(f), f);

  const tsq = sql`websearch_to_tsquery('es_unaccent', ${f.search})`;
  // search_vector weighs the model's name 'A': her own ad ranks above one that merely mentions her, however recent.
  // ts_rank, not ts_rank_cd: the same order for these short documents at about two thirds of the cost.
  const fts = await rankedPage(db, [...filters(f), sql`a.search_vector @@ ${tsq}`], sql`ts_rank(a.search_vector, ${tsq})`, f);
  if (fts.total > 0) return fts;

  const q = sql`immutable_unaccent(lower(${f.search}))`;
  const doc = sql`immutable_unaccent(lower(a.search_document))`;
  // The document also holds the section's names in four languages, for full-text search; they are no typo target:
  // "ovideo" is closer to "video" (of "Video calls", 0.44) than to "Oviedo" (0.27), and would bring every webcam
  // ad. The index finds candidates in the whole document; the ad's own words must match.
  const own = sql`immutable_unaccent(lower(concat_ws(' ', a.model_name, a.title, a.description, c.name, st.name)))`;
  return db.transaction(async (tx) => {
    // Scoped to this transaction: lets the trigram index answer `%>>` at our threshold.
    await tx.execute(sql.raw(`set local pg_trgm.strict_word_similarity_threshold = ${TRIGRAM_THRESHOLD}`));
    return rankedPage(
      tx,
      [...filters(f), sql`${doc} %>> ${q}`, sql`${own} %>> ${q}`],
      sql`strict_word_similarity(${q}, ${own})`,
      f,
      sql`ads a ${PLACES}`,
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

// Sections are reference data that never change while the server runs: one query per database, not one per listing.
const sectionIdsByDb = new WeakMap<Db, Promise<Map<string, number>>>();

export async function sectionIdBySlug(db: Db, slug: string): Promise<number | undefined> {
  let ids = sectionIdsByDb.get(db);
  if (!ids) {
    ids = rows<{ id: number; slug: string }>(db, sql`select id, slug from sections`).then((all) => new Map(all.map((r) => [r.slug, r.id])));
    // A failed load is not remembered, so the next request tries again.
    ids.catch(() => sectionIdsByDb.delete(db));
    sectionIdsByDb.set(db, ids);
  }
  return (await ids).get(slug);
}
