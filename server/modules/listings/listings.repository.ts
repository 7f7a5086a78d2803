/**
 * The public listing. Visible = ad switched on, ad approved, and the model's profile active (SPEC §4
 * "Verificado"). Text search is Spanish full-text on `search_vector` (accents and case ignored, stemmed); a word
 * that matches nothing is read as the known words closest to it within its typo budget ("luica" → Lucía, see
 * typos.ts), found in the vocabulary of listed ads (table search_words, kept by triggers on ads).
 */
import { and, asc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SearchCorrection } from '#contract/listings.ts';
import type { Db } from '../../db/client.ts';
import { publicityAds } from '../../db/schema.ts';
import { corrections, typoBudget, type Candidate, type Correction } from './typos.ts';

export interface ListingFilters {
  search?: string | undefined;
  /** Search the words as typed, without typo correction. */
  literal?: boolean | undefined;
  cityId?: number | undefined;
  sectionId?: number | undefined;
  limit: number;
  offset: number;
}

export interface ListingRow {
  id: number;
  /** ads.card_version: goes up with every change to what the card shows (migration 0016). */
  card_version: number;
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
 * Only the most recent matches are ranked, as Meilisearch caps its hits: scoring reads every candidate's vector, and
 * a word found in tens of thousands of ads would cost that on every page, for pages nobody reads.
 */
export const RANKED_MAX = 1000;
/** Nearest vocabulary words (by trigram distance) examined per unknown word before the exact typo count. */
const NEIGHBOURS = 40;

function filters(f: ListingFilters): SQL[] {
  const where: SQL[] = [VISIBLE];
  if (f.cityId) where.push(sql`a.city_id = ${f.cityId}`);
  if (f.sectionId) where.push(sql`a.section_id = ${f.sectionId}`);
  return where;
}

/**
 * The ad, its model and its cover. The city, its province and the section are reference data, added from memory
 * (places()): three joins fewer roughly halves PostgreSQL's planning of the page (0.6 → 0.2 ms), which is most of
 * what an uncached listing costs the database.
 */
const COLUMNS = sql`
  a.id, a.card_version, a.title, a.description, a.published_at, p.display_name, p.birth_date, p.status as profile_status,
  p.user_id, p.phone, p.whatsapp, a.city_id, a.section_id,
  m.id as cover_id, m.uid as cover_uid, m.width as cover_width, m.height as cover_height, m.variants as cover_variants`;
const JOINS = sql`
  join model_profiles p on p.id = a.model_profile_id
  left join media m on m.ad_id = a.id and m.is_cover`;
const SELECT = sql`select ${COLUMNS} from ads a ${JOINS}`;

/**
 * A list as one parameter (JSON, read with jsonb_array_elements_text or jsonb_to_recordset): the saved searches' check
 * passes hundreds of queries, and a parameter each made building and binding the statements a good part of its time.
 */
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  // node-postgres and PGlite both answer { rows }; drizzle types them differently.
  const res = (await db.execute(query)) as { rows: T[] };
  return res.rows;
}

/** A row as the query answers it: the reference data's names are added by withPlaces(). */
type AdRow = Omit<ListingRow, 'city_name' | 'state_name' | 'section_slug' | 'section_names' | 'section_color'>;

interface SectionRef {
  id: number;
  slug: string;
  names: Record<string, string>;
  color: string;
}

/**
 * Sections, cities and provinces are reference data that no request changes (seeded, SPEC §3): read once per
 * database, a city the first time an ad of it is shown. A failed load is not remembered, so the next request retries.
 */
interface Reference {
  sections: Promise<Map<number, SectionRef>>;
  cities: Map<number, { city_name: string; state_name: string }>;
}
const referenceByDb = new WeakMap<Db, Reference>();

function reference(db: Db): Reference {
  let ref = referenceByDb.get(db);
  if (!ref) {
    const sections = rows<SectionRef>(db, sql`select id, slug, names, color from sections`).then(
      (all) => new Map(all.map((r) => [r.id, r])),
    );
    ref = { sections, cities: new Map() };
    sections.catch(() => referenceByDb.delete(db));
    referenceByDb.set(db, ref);
  }
  return ref;
}

async function withPlaces(db: Db, found: AdRow[]): Promise<ListingRow[]> {
  if (found.length === 0) return [];
  const ref = reference(db);
  const missing = [...new Set(found.map((r) => r.city_id))].filter((id) => !ref.cities.has(id));
  if (missing.length > 0) {
    const places = await rows<{ id: number; city_name: string; state_name: string }>(
      db,
      sql`select c.id, c.name as city_name, st.name as state_name from cities c join states st on st.id = c.state_id
           where c.id in (${sql.join(
             missing.map((id) => sql`${id}`),
             sql`, `,
           )})`,
    );
    for (const pl of places) ref.cities.set(pl.id, { city_name: pl.city_name, state_name: pl.state_name });
  }
  const sections = await ref.sections;
  return found.map((r) => {
    const place = ref.cities.get(r.city_id);
    const section = sections.get(r.section_id);
    // Foreign keys guarantee both; a section added after start-up would show unnamed until a restart. Written out
    // field by field (not spread): this runs for every card of every uncached page.
    return {
      id: r.id,
      card_version: r.card_version,
      title: r.title,
      description: r.description,
      published_at: r.published_at,
      display_name: r.display_name,
      birth_date: r.birth_date,
      profile_status: r.profile_status,
      user_id: r.user_id,
      phone: r.phone,
      whatsapp: r.whatsapp,
      city_id: r.city_id,
      city_name: place?.city_name ?? '',
      state_name: place?.state_name ?? '',
      section_id: r.section_id,
      section_slug: section?.slug ?? '',
      section_names: section?.names ?? {},
      section_color: section?.color ?? '',
      cover_id: r.cover_id,
      cover_uid: r.cover_uid,
      cover_width: r.cover_width,
      cover_height: r.cover_height,
      cover_variants: r.cover_variants,
    };
  });
}

const RECENT = sql`a.published_at desc nulls last, a.id desc nulls last`;

/** A card of a page: its ad and the version of what it shows (the server keeps cards serialized per version). */
export interface CardRef {
  id: number;
  version: number;
}

/** listing_page() and search_page() answer a page as (id, card_version, total), a row without an ad past the last page. */
async function refsOf(db: Db, query: SQL): Promise<{ refs: CardRef[]; total: number }> {
  const list = await rows<{ id: number | null; card_version: number | null; total: string | number }>(db, query);
  const refs: CardRef[] = [];
  for (const r of list) if (r.id !== null) refs.push({ id: r.id, version: r.card_version ?? 0 });
  return { refs, total: Number(list[0]?.total ?? 0) };
}

/**
 * Filters only: listing_page() (migrations 0015, 0016) walks the partial index of the filters and stops after the
 * page, reads the total from listing_counts, in one round trip and with plans it keeps for the connection.
 */
function recentPage(db: Db, f: ListingFilters): Promise<{ refs: CardRef[]; total: number }> {
  return refsOf(db, sql`select * from listing_page(${f.cityId ?? null}, ${f.sectionId ?? null}, ${f.limit}, ${f.offset})`);
}

/** The rows of the listed ads among `ids`, for the cards not yet serialized at their version (any order). */
export async function cardRows(db: Db, ids: number[]): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  return withPlaces(db, await rows<AdRow>(db, sql`select * from listing_cards(${`{${ids.join(',')}}`}::int[])`));
}

/**
 * Ranked (text search) among the RANKED_MAX most recent matches, in one call to search_page() (migration 0016): it
 * chooses how to find those matches from the words' frequency and ranks them; its total is at most RANKED_MAX.
 * `words` are the wanted words of a plain query (for that choice; null otherwise), `tiers` the typed and best-reading
 * queries of a corrected search, whose matches rank first.
 */
function rankedPage(
  db: Db,
  match: SQL,
  words: string[] | null,
  tiers: { typed: SQL; best: SQL } | null,
  f: ListingFilters,
): Promise<{ refs: CardRef[]; total: number }> {
  const wordList = words?.length
    ? sql`array[${sql.join(
        words.map((w) => sql`${w}`),
        sql`, `,
      )}]::text[]`
    : sql`null::text[]`;
  return refsOf(
    db,
    sql`select * from search_page(${match}, ${wordList}, ${tiers?.typed ?? sql`null`}, ${tiers?.best ?? sql`null`},
                                  ${f.cityId ?? null}::int, ${f.sectionId ?? null}::int, ${f.limit}, ${f.offset}, ${RANKED_MAX})`,
  );
}

const tsquery = (words: string | SQL) => sql`plainto_tsquery('es_unaccent', ${words})`;

/** websearch's OR: with it, some words may match nothing even though the query as a whole found ads. */
const HAS_OR = /(^|\s)or(\s|$)/i;

/** The words people typed to find ads with: not those after a minus (websearch's NOT), not the OR operator. */
function wantedText(search: string): string {
  return search
    .split(/\s+/)
    .filter((w) => !w.startsWith('-') && w.toLowerCase() !== 'or')
    .join(' ');
}

interface Misspelt {
  /** Accent-blind, lower-case, as search_words holds words. */
  word: string;
  alternatives: Correction[];
}

/**
 * The typed words (5+ letters) that match no listed ad, with the known words they may stand for. A word counts as
 * matching when the vocabulary has it or full-text search finds it (a stem: "modelos"; a section name; a stop word).
 */
async function misspeltWords(db: Db, search: string): Promise<Misspelt[]> {
  const unseen = await rows<{ w: string }>(
    db,
    sql`select t.w from search_words_of(${wantedText(search)}) t(w)
        where length(t.w) >= 5 and not exists (select 1 from search_words s where s.word = t.w)`,
  );
  if (unseen.length === 0) return [];
  // One probe per word, all in one statement. Asked "is there one?" of a word it can read, the planner walked the
  // listed ads expecting an early hit, which for a word matching nothing means reading all of them; the words come
  // here as one parameter it cannot read, so each probe is the GIN index's lookup of that word (it stops at the first
  // hit). One statement of ~90 probes (the saved searches' check) is a third of the CPU of as many subqueries.
  const unknown = await rows<{ w: string }>(
    db,
    sql`select t.w from jsonb_array_elements_text(${json(unseen.map((r) => r.w))}) t(w)
         where numnode(${tsquery(sql`t.w`)}) > 0
           and not exists (select 1 from ads a where ${VISIBLE} and a.search_vector @@ ${tsquery(sql`t.w`)})`,
  );
  const words = unknown.map((r) => r.w).filter((w) => typoBudget(w) > 0);
  if (words.length === 0) return [];
  // A wrong first letter costs two typos, so below 9 letters only words with the same first letter qualify. The
  // vocabulary's lengths and first letters are computed once, not once per typed word (a third of this statement's
  // time for the saved searches' ~90 words); read in the table's order as the plain scan did, so the nearest
  // NEIGHBOURS, ties included, are the same words.
  const near = await rows<Candidate & { w: string }>(
    db,
    sql`with t as materialized (select w, length(w) as len, left(w, 1) as first from jsonb_array_elements_text(${json(words)}) t(w)),
             v as materialized (select word, ads, length(word) as len, left(word, 1) as first from search_words)
        select t.w, c.word, c.ads from t
        cross join lateral (
          select v.word, v.ads from v
           where v.len between t.len - 2 and t.len + 2 and (t.len >= 9 or v.first = t.first)
           order by v.word <-> t.w limit ${NEIGHBOURS}) c`,
  );
  return words
    .map((word) => ({
      word,
      alternatives: corrections(
        word,
        near.filter((c) => c.w === word),
      ),
    }))
    .filter((m) => m.alternatives.length > 0);
}

/** Replaces each misspelt word's lexeme in the query by the alternatives (all of them, or only the best). */
function rewrite(query: SQL, misspelt: Misspelt[], onlyBest: boolean): SQL {
  return misspelt.reduce((q, m) => {
    const alts = (onlyBest ? m.alternatives.slice(0, 1) : m.alternatives).map((a) => tsquery(a.word));
    return sql`ts_rewrite(${q}, ${tsquery(m.word)}, ${sql.join(alts, sql` || `)})`;
  }, query);
}

/** Accent-blind, lower-case: close enough to immutable_unaccent(lower()) to find the typed word in the search. */
const fold = (w: string) =>
  w
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** How the ads write a word (accents kept: "lucía", not "lucia"), from the rows found; else the word itself. */
function spelling(word: string, found: ListingRow[]): string {
  for (const r of found) {
    for (const text of [r.display_name, r.title, r.city_name, r.state_name, r.description]) {
      const hit = text.match(/[\p{L}\p{N}]+/gu)?.find((t) => fold(t) === word);
      if (hit) return hit.toLowerCase();
    }
  }
  return word;
}

export interface ListingPage {
  /** The page's cards, in order. */
  refs: CardRef[];
  /** The page's rows when they had to be read anyway (a corrected search names its words as the ads spell them). */
  rows?: ListingRow[];
  total: number;
  /** Present when misspelt words were corrected: the words, and the search as it was run. */
  corrected?: { corrections: SearchCorrection[]; search: string };
}

export async function listModels(db: Db, f: ListingFilters): Promise<ListingPage> {
  // `nulls last` as the ads_visible_* indexes are built (Drizzle's .desc() writes DESC NULLS LAST, while a bare DESC
  // means NULLS FIRST): only the same ordering lets PostgreSQL walk the index and stop after one page, where
  // otherwise it fetches and sorts every matching row. The columns are NOT NULL, so the order itself is unchanged.
  if (!f.search) return recentPage(db, f);

  const typed = sql`websearch_to_tsquery('es_unaccent', ${f.search})`;
  // search_vector weighs the model's name 'A': her own ad ranks above one that merely mentions her, however recent.
  const plain = HAS_OR.test(f.search)
    ? null
    : wantedText(f.search)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
        .map(fold);
  const exact = await rankedPage(db, typed, plain, null, f);
  // Every word of an AND query matched something if anything was found: nothing to correct, nothing more to ask.
  if (f.literal || (exact.total > 0 && !HAS_OR.test(f.search))) return exact;

  const misspelt = await misspeltWords(db, f.search);
  if (misspelt.length === 0) return exact;
  const best = rewrite(typed, misspelt, true);
  const all = rewrite(typed, misspelt, false);
  // Exact matches first (an OR query's other words), then the best reading of each misspelt word, then the other
  // alternatives; within each tier the usual rank.
  const page = await rankedPage(db, all, null, { typed, best }, f);
  // A correction that finds nothing either is no reading worth announcing.
  if (page.total === 0) return exact;
  const found = await cardRows(
    db,
    page.refs.map((r) => r.id),
  );
  const fixes = misspelt.map((m) => ({ from: m.word, to: spelling(m.alternatives[0]!.word, found) }));
  const search = f.search.replace(/[\p{L}\p{N}]+/gu, (t) => fixes.find((c) => c.from === fold(t))?.to ?? t);
  return { ...page, rows: found, corrected: { corrections: fixes, search } };
}

export async function findVisibleAd(db: Db, id: number): Promise<ListingRow | undefined> {
  const [row] = await withPlaces(db, await rows<AdRow>(db, sql`${SELECT} where a.id = ${id} and ${VISIBLE}`));
  return row;
}

export async function findVisibleAdOfUser(db: Db, userId: number): Promise<ListingRow | undefined> {
  const [row] = await withPlaces(
    db,
    await rows<AdRow>(db, sql`${SELECT} where p.user_id = ${userId} and ${VISIBLE} order by a.published_at desc limit 1`),
  );
  return row;
}

export async function sectionIdBySlug(db: Db, slug: string): Promise<number | undefined> {
  for (const section of (await reference(db).sections).values()) if (section.slug === slug) return section.id;
  return undefined;
}

export interface CityCount {
  city_id: number;
  city_name: string;
  state_name: string;
  latitude: number;
  longitude: number;
  count: number;
}

/**
 * The listing's matches counted per city, for the map (issue 16): the same visibility, section and search (typo
 * correction included) as listModels, and for a search the same RANKED_MAX most recent matches it ranks, so the
 * counts add up to the listing's total. One aggregate query (two with a correction), cities with no match left out.
 */
export async function countByCity(
  db: Db,
  f: Pick<ListingFilters, 'search' | 'literal' | 'sectionId'>,
): Promise<{ cities: CityCount[]; corrected?: { corrections: SearchCorrection[]; search: string } }> {
  const base = filters({ ...f, limit: 0, offset: 0 });
  const count = async (where: SQL[]) =>
    rows<CityCount & { count: string | number }>(
      db,
      sql`with m as (select a.city_id from ads a where ${sql.join(where, sql` and `)}
                     ${f.search ? sql`order by ${RECENT} limit ${RANKED_MAX}` : sql``})
          select c.id as city_id, c.name as city_name, st.name as state_name, c.latitude, c.longitude, n.count
          from (select city_id, count(*) as count from m group by city_id) n
          join cities c on c.id = n.city_id join states st on st.id = c.state_id
          order by n.count desc, c.name`,
    ).then((list) => list.map((r) => ({ ...r, count: Number(r.count), latitude: Number(r.latitude), longitude: Number(r.longitude) })));
  if (!f.search) return { cities: await count(base) };
  const typed = sql`websearch_to_tsquery('es_unaccent', ${f.search})`;
  const exact = await count([...base, sql`a.search_vector @@ ${typed}`]);
  if (f.literal || (exact.length > 0 && !HAS_OR.test(f.search))) return { cities: exact };
  const misspelt = await misspeltWords(db, f.search);
  if (misspelt.length === 0) return { cities: exact };
  const corrected = await count([...base, sql`a.search_vector @@ ${rewrite(typed, misspelt, false)}`]);
  if (corrected.length === 0) return { cities: exact };
  // The words as the listing names them (its spelling of the best reading); the map only needs to say it was corrected.
  const fixes = misspelt.map((m) => ({ from: m.word, to: m.alternatives[0]!.word }));
  const search = f.search.replace(/[\p{L}\p{N}]+/gu, (t) => fixes.find((c) => c.from === fold(t))?.to ?? t);
  return { cities: corrected, corrected: { corrections: fixes, search } };
}

/** Promoted placements switched on and running at `now`, in their order. */
export async function activePublicityAds(db: Db, now: Date) {
  return db
    .select()
    .from(publicityAds)
    .where(
      and(eq(publicityAds.isActive, true), lte(publicityAds.startsAt, now), or(isNull(publicityAds.endsAt), gt(publicityAds.endsAt, now))),
    )
    .orderBy(asc(publicityAds.position), asc(publicityAds.id));
}

/** A listing query as a saved search keeps it (issue 28): the filters GET /api/models is called with. */
export interface ListingQuery {
  search: string;
  cityId: number | null;
  sectionId: number | null;
}

/**
 * Whether the listing (listModels with each query's filters, typo correction on) shows ad `adId` among its results,
 * for each of `queries`: what a saved search's alert may name (issue 28). The same rules as listModels, for one ad:
 * listed, in the filters' city and section; with text, a match of the typed query; or, when that query finds no listed
 * ad at all (or is an OR query), a match of the corrected query; and among the RANKED_MAX most recent matches, as a
 * search ranks no others. The exact test is one statement for all the queries; only the few queries the ad does not
 * match as typed go through the correction, as the listing does.
 */
export async function listingShowsAd(db: Db, adId: number, queries: readonly ListingQuery[]): Promise<boolean[]> {
  const shown = queries.map(() => false);
  if (queries.length === 0) return shown;
  const [ad] = await rows<{ city_id: number; section_id: number; newer: string | number }>(
    db,
    sql`select a.city_id, a.section_id,
               (select count(*) from (select 1 from ads b where b.is_listed and (b.published_at, b.id) > (a.published_at, a.id)
                                      limit ${RANKED_MAX}) x) as newer
          from ads a where a.id = ${adId} and ${VISIBLE}`,
  );
  if (!ad) return shown;
  // Fewer than RANKED_MAX listed ads newer than this one: no search's cap can leave it out.
  const capped = Number(ad.newer) >= RANKED_MAX;
  const inScope = (q: ListingQuery) => (!q.cityId || q.cityId === ad.city_id) && (!q.sectionId || q.sectionId === ad.section_id);
  const texts = queries.map((q) => q.search.trim());
  // The tests on the text alone are asked once per distinct text (many searches share one in other places).
  const typed = [...new Set(texts.filter((t, i) => t && inScope(queries[i]!)))];
  const exact = typed.length
    ? await rows<{ i: number; hit: boolean }>(
        db,
        sql`select q.i::int as i, a.search_vector @@ websearch_to_tsquery('es_unaccent', q.s) as hit
              from ads a, jsonb_array_elements_text(${json(typed)}) with ordinality q(s, i)
             where a.id = ${adId}`,
      )
    : [];
  const hitTexts = new Set(exact.filter((r) => r.hit).map((r) => typed[Number(r.i) - 1]!));
  const withinCap = async (q: ListingQuery, match: SQL) => {
    if (!capped) return true;
    const [n] = await rows<{ n: string | number }>(
      db,
      sql`select count(*) as n from (select 1 from ads b, ads a
            where a.id = ${adId} and b.is_listed and (b.published_at, b.id) > (a.published_at, a.id)
              ${q.cityId ? sql`and b.city_id = ${q.cityId}` : sql``} ${q.sectionId ? sql`and b.section_id = ${q.sectionId}` : sql``}
              and b.search_vector @@ ${match} limit ${RANKED_MAX}) x`,
    );
    return Number(n?.n ?? 0) < RANKED_MAX;
  };
  // Not matched as typed: only a correction can show the ad. listModels corrects an AND query only when it finds no
  // listed ad as typed, and only its misspelt words, those that match no listed ad at all (misspeltWords): so an AND
  // query with such a word finds nothing as typed and is corrected, and one without has nothing to correct. Either
  // way the misspelt words alone decide, and the "finds anything as typed" test (a GIN lookup per query, a sixth of
  // the typo path's time) is not needed. An OR query is corrected whatever it finds, as in listModels.
  const rest = queries.flatMap((q, i) => (inScope(q) && texts[i] && !hitTexts.has(texts[i]) ? [i] : []));
  // The misspelt words of all of them found at once (a word's readings do not depend on the query it is in), then each
  // distinct text rewritten and tested in one statement.
  const toCorrect = [...new Set(rest.map((i) => texts[i]!))];
  const corrected = new Map<string, SQL>();
  if (toCorrect.length) {
    const misspelt = await misspeltWords(db, toCorrect.join(' '));
    for (const text of toCorrect) {
      const words = new Set(fold(wantedText(text)).split(/[^\p{L}\p{N}]+/u));
      const own = misspelt.filter((m) => words.has(m.word));
      if (own.length) corrected.set(text, rewrite(sql`websearch_to_tsquery('es_unaccent', ${text})`, own, false));
    }
  }
  const correctedHits = new Set<string>();
  if (corrected.size) {
    const list = [...corrected];
    const res = await rows<{ i: number; hit: boolean }>(
      db,
      sql`select v.i, a.search_vector @@ v.q as hit from ads a, (values ${sql.join(
        list.map(([, all], i) => sql`(${i}::int, ${all})`),
        sql`, `,
      )}) v(i, q) where a.id = ${adId}`,
    );
    for (const r of res) if (r.hit) correctedHits.add(list[Number(r.i)]![0]);
  }
  for (const [i, q] of queries.entries()) {
    if (!inScope(q)) continue;
    const text = texts[i]!;
    if (!text) shown[i] = true;
    else if (hitTexts.has(text)) shown[i] = await withinCap(q, sql`websearch_to_tsquery('es_unaccent', ${text})`);
    else if (correctedHits.has(text)) shown[i] = await withinCap(q, corrected.get(text)!);
  }
  return shown;
}
