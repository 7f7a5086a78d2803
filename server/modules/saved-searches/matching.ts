/**
 * Matching a newly visible ad against the saved searches (issue 28). The database queues the ad: a statement trigger
 * on `ads` (migration 0020) inserts a `saved-searches:match` job whenever is_listed turns true, whatever the cause, in
 * the transaction of that change. The job, after the commit:
 *
 * 1. Prefilter by index (migrations 0020, 0023): the searches without text by their city and section (btree); those with
 *    text when all of their `match_keys` are among the ad's (its scopes × its lexemes: `<@`), or their `typo_keys`
 *    meet the deletion keys of the vocabulary words sharing its lexemes (`&&`); partial indexes of the searches that
 *    may alert (bench: saved-searches).
 * 2. The exact check with the listing's own rules (listings.repository.ts listingShowsAd: visibility, city, section,
 *    typed text, typo correction, the ranking cap), once per distinct query among the candidates.
 * 3. A hit row per (search, ad) (once: its primary key), and the search's alert scheduled: `instant` at once or a day
 *    after its last alert, `daily` in the owner's next digest (alerts.ts). The alert job bundles every hit pending by then.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { scheduleJob } from '../jobs/jobs.ts';
import { listingShowsAd, type ListingQuery } from '../listings/listings.repository.ts';

/** The job the ads trigger queues (migration 0020 names it too). */
export const MATCH_JOB = 'saved-searches:match';
export const ALERT_JOB = 'saved-searches:alert';
export const DIGEST_JOB = 'saved-searches:digest';
/** At most one alert per search (instant) or one digest per user (daily) in this long. */
export const ALERT_INTERVAL_MS = 24 * 60 * 60_000;

/** The candidate searches of one distinct query (text, city, section). */
export interface CandidateQuery {
  search: string;
  city_id: number | null;
  section_id: number | null;
  ids: number[];
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

type Path = 'typed' | 'typo';

/**
 * Step 1, the candidates of one path, grouped by query (many searches share one: "everything in Oviedo") so that each
 * query is checked once and few rows cross the wire. Three index paths (migration 0023):
 * - `typed`, a search without text: it can show the ad only by its city and section, so a btree on (city, section),
 *   the four combinations of the ad's city or any and its section or any. They are most of an ad's matches; as
 *   `{scope}:all` keys in the GIN index they made every ad walk and recheck thousands of entries.
 * - `typed`, a search with text all of whose keys are the ad's (`<@`, GIN, rechecked on the heap).
 * - `typo`, a search one of whose typo keys is the ad's (`&&`, GIN), not found by `<@`: only the listing's correction
 *   can show it. Not in a bitmap OR with `<@`, which is rechecked as a whole: `typo_keys && …` against the ad's hundreds
 *   of deletion keys on every candidate row cost more than all the rest (bench: saved-searches).
 */
async function candidatesOf(db: Db, path: Path, adId: number, savedBefore?: Date): Promise<CandidateQuery[]> {
  const saved = savedBefore ? sql`and s.created_at <= ${savedBefore.toISOString()}::timestamptz` : sql``;
  const mayAlert = sql`not s.paused and s.alerts <> 'off'`;
  const inScope = sql`(s.city_id is null or s.city_id = (select city_id from ad))
    and (s.section_id is null or s.section_id = (select section_id from ad)) and exists (select 1 from ad)`;
  // The ad's row and keys are computed once (materialized CTEs read as init plans), so the indexes are searched with them.
  const ad = sql`ad as materialized (select city_id, section_id from ads where id = ${adId} and is_listed)`;
  if (path === 'typo') {
    return rows<CandidateQuery>(
      db,
      sql`with ${ad}, k as materialized (select saved_search_ad_keys(${adId}) as keys, saved_search_ad_typo_keys(${adId}) as typo)
          select s.search, s.city_id, s.section_id, array_agg(s.id) as ids
            from saved_searches s
           where s.typo_keys && (select typo from k) and not (s.match_keys <@ (select keys from k))
             and ${mayAlert} and ${inScope} ${saved}
           group by s.search, s.city_id, s.section_id`,
    );
  }
  return rows<CandidateQuery>(
    db,
    sql`with ${ad}, k as materialized (select saved_search_ad_keys(${adId}) as keys)
        select '' as search, s.city_id, s.section_id, array_agg(s.id) as ids
          from saved_searches s
         where s.search = '' and ${mayAlert}
           and ((s.city_id = (select city_id from ad) and s.section_id = (select section_id from ad))
             or (s.city_id = (select city_id from ad) and s.section_id is null)
             or (s.city_id is null and s.section_id = (select section_id from ad))
             or (s.city_id is null and s.section_id is null and exists (select 1 from ad)))
           ${saved}
         group by s.city_id, s.section_id
        union all
        select s.search, s.city_id, s.section_id, array_agg(s.id)
          from saved_searches s
         where s.search <> '' and s.match_keys <@ (select keys from k) and ${mayAlert} and ${inScope} ${saved}
         group by s.search, s.city_id, s.section_id`,
  );
}

const PATHS: readonly Path[] = ['typed', 'typo'];

/** Step 1: the candidate searches of a newly visible ad, grouped by query. */
export async function candidatesFor(db: Db, adId: number, savedBefore?: Date): Promise<CandidateQuery[]> {
  return (await Promise.all(PATHS.map((path) => candidatesOf(db, path, adId, savedBefore)))).flat();
}

/**
 * Steps 1 and 2: the ids of the searches the ad alerts, each distinct query checked once with the listing's rules. The
 * two paths share no search and go side by side on two of the pool's connections: the typo path's listing check (the
 * correction of each misspelt word) is the longest part of the work and needs nothing from the other.
 */
export async function findMatches(db: Db, adId: number, savedBefore?: Date): Promise<number[]> {
  const found = await Promise.all(
    PATHS.map(async (path) => {
      const candidates = await candidatesOf(db, path, adId, savedBefore);
      if (candidates.length === 0) return [];
      const shown = await listingShowsAd(
        db,
        adId,
        candidates.map((c): ListingQuery => ({ search: c.search, cityId: c.city_id, sectionId: c.section_id })),
      );
      return candidates.flatMap((c, i) => (shown[i] ? c.ids.map(Number) : []));
    }),
  );
  return found.flat();
}

/** When the search's (instant) or the user's (daily) next alert may go: now, or a day after the last. */
function dueAt(last: Date | string | null, now: Date): Date {
  if (!last) return now;
  const next = new Date(new Date(last).getTime() + ALERT_INTERVAL_MS);
  return next > now ? next : now;
}

/**
 * The match job: records the hits of a newly visible ad and schedules the alerts they call for. `queuedAt`: when the
 * ad became visible (the job's row); a search saved after that saw the ad in its listing already and is not alerted.
 */
export async function matchAd(app: FastifyInstance, adId: number, queuedAt?: Date, now = new Date()): Promise<void> {
  const matches = await findMatches(app.db, adId, queuedAt);
  if (matches.length === 0) return;
  const scheduled = await app.db.transaction(async (tx) => {
    const fresh = await rows<{ search_id: number }>(
      tx,
      sql`insert into saved_search_hits (search_id, ad_id, matched_at)
          select unnest(${`{${matches.join(',')}}`}::int[]), ${adId}, ${now.toISOString()}::timestamptz
          on conflict do nothing returning search_id`,
    );
    const ids = new Set(fresh.map((r) => r.search_id));
    if (ids.size === 0) return 0;
    const due = await rows<{ id: number; user_id: number; alerts: string; last: string | null; user_last: string | null }>(
      tx,
      sql`select s.id, s.user_id, s.alerts, s.last_alert_at as last,
                 (select max(d.last_alert_at) from saved_searches d where d.user_id = s.user_id and d.alerts = 'daily') as user_last
            from saved_searches s where s.id = any(${`{${[...ids].join(',')}}`}::int[])`,
    );
    for (const s of due) {
      if (s.alerts === 'instant') {
        await scheduleJob(tx, { name: ALERT_JOB, key: `${ALERT_JOB}:${s.id}`, payload: { search_id: s.id }, runAt: dueAt(s.last, now) });
      } else if (s.alerts === 'daily') {
        await scheduleJob(tx, {
          name: DIGEST_JOB,
          key: `${DIGEST_JOB}:${s.user_id}`,
          payload: { user_id: s.user_id },
          runAt: dueAt(s.user_last, now),
        });
      }
    }
    return due.length;
  });
  if (scheduled && app.hasDecorator('jobs')) app.jobs.poke();
}
