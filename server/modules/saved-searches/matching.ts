/**
 * Matching a newly visible ad against the saved searches (issue 28). The database queues the ad: a statement trigger
 * on `ads` (migration 0020) inserts a `saved-searches:match` job whenever is_listed turns true, whatever the cause, in
 * the transaction of that change. The job, after the commit:
 *
 * 1. Prefilter by index (migration 0020): the searches all of whose `match_keys` are among the ad's (its scopes × its
 *    lexemes: `<@`), or whose `typo_keys` meet the deletion keys of the vocabulary words sharing its lexemes (`&&`),
 *    on partial GIN indexes of the searches that may alert (bench: saved-searches).
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

/**
 * Step 1: the searches that may alert and whose keys meet the ad's, in its city and section, grouped by query (many
 * searches share one: "everything in Oviedo"), so each query is checked once and few rows cross the wire.
 */
export async function candidatesFor(db: Db, adId: number, savedBefore?: Date): Promise<CandidateQuery[]> {
  // The ad's keys are computed once (a materialized CTE read as an init plan), so the GIN indexes are searched with them.
  return rows<CandidateQuery>(
    db,
    sql`with k as materialized (select saved_search_ad_keys(${adId}) as keys, saved_search_ad_typo_keys(${adId}) as typo),
             ad as materialized (select city_id, section_id from ads where id = ${adId} and is_listed)
        select s.search, s.city_id, s.section_id, array_agg(s.id) as ids
          from saved_searches s, ad
         where (s.match_keys <@ (select keys from k) or s.typo_keys && (select typo from k))
           and not s.paused and s.alerts <> 'off'
           and (s.city_id is null or s.city_id = ad.city_id) and (s.section_id is null or s.section_id = ad.section_id)
           ${savedBefore ? sql`and s.created_at <= ${savedBefore.toISOString()}::timestamptz` : sql``}
         group by s.search, s.city_id, s.section_id`,
  );
}

/** Steps 1 and 2: the ids of the searches the ad alerts, each distinct query checked once with the listing's rules. */
export async function findMatches(db: Db, adId: number, savedBefore?: Date): Promise<number[]> {
  const candidates = await candidatesFor(db, adId, savedBefore);
  if (candidates.length === 0) return [];
  const shown = await listingShowsAd(
    db,
    adId,
    candidates.map((c): ListingQuery => ({ search: c.search, cityId: c.city_id, sectionId: c.section_id })),
  );
  return candidates.flatMap((c, i) => (shown[i] ? c.ids.map(Number) : []));
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
