/**
 * What the ad-stats routes do: the signed-in advertiser's numbers per ad and week (GET /api/ad-stats), and a contact
 * tap reported by a visitor's browser after cookie consent (POST /api/analytics/contact-tap, analytics module).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AdStats, AdWeekStats } from '#contract/ad-stats.ts';
import type { ContactTapKind } from '#contract/analytics.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { adStatsCounter, weekOf, type Viewer } from './ad-counter.ts';

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/** The Mondays of the last `weeks` ISO weeks, newest first. */
export function weeksBack(weeks: number, now = new Date()): string[] {
  const monday = new Date(`${weekOf(now)}T00:00:00Z`);
  return Array.from({ length: weeks }, (_, i) => new Date(monday.getTime() - i * 7 * 86_400_000).toISOString().slice(0, 10));
}

/** Date columns come back as Date (node-postgres) or string (PGlite) depending on the driver. */
const day = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

/**
 * Per ad of `userId` (her own profile's, or her agency's models'), every week of the range with zeros where nothing
 * happened, newest first, and the favourites standing now. Favourites are counted from the table itself (the week a
 * favourite was added, while it stands), never who saved them.
 */
export async function adStatsOf(db: Db, userId: number, weeks: number, now = new Date()): Promise<AdStats[]> {
  const adList = await rows<{ id: number; title: string; model_name: string }>(
    db,
    sql`select a.id, a.title, a.model_name from ads a
          join model_profiles mp on mp.id = a.model_profile_id
          left join publicist_profiles pp on pp.id = mp.publicist_id
        where mp.user_id = ${userId} or pp.user_id = ${userId}
        order by a.model_name, a.id`,
  );
  if (adList.length === 0) return [];
  const range = weeksBack(weeks, now);
  const from = range.at(-1)!;
  const ids = sql`${`{${adList.map((a) => Number(a.id)).join(',')}}`}::int[]`;
  const [stored, favouritesByWeek, favouritesTotal] = await Promise.all([
    rows<{ ad_id: number; week: unknown; impressions: number; opens: number; calls: number; messages: number }>(
      db,
      sql`select ad_id, week, impressions, opens, calls, messages from ad_stats_weekly
           where ad_id = any(${ids}) and week >= ${from}::date`,
    ),
    rows<{ ad_id: number; week: unknown; n: number | string }>(
      db,
      sql`select ad_id, date_trunc('week', created_at at time zone 'UTC')::date as week, count(*) as n from favourites
           where ad_id = any(${ids}) and created_at >= (${from}::date)::timestamp at time zone 'UTC'
           group by 1, 2`,
    ),
    rows<{ ad_id: number; n: number | string }>(db, sql`select ad_id, count(*) as n from favourites where ad_id = any(${ids}) group by 1`),
  ]);
  const key = (adId: number, week: unknown) => `${Number(adId)}|${day(week)}`;
  const byWeek = new Map(stored.map((r) => [key(r.ad_id, r.week), r]));
  const favWeek = new Map(favouritesByWeek.map((r) => [key(r.ad_id, r.week), Number(r.n)]));
  const favTotal = new Map(favouritesTotal.map((r) => [Number(r.ad_id), Number(r.n)]));
  return adList.map((ad) => {
    const id = Number(ad.id);
    const weekly = range.map((week): AdWeekStats => {
      const s = byWeek.get(`${id}|${week}`);
      return {
        week,
        impressions: Number(s?.impressions ?? 0),
        opens: Number(s?.opens ?? 0),
        favourites: favWeek.get(`${id}|${week}`) ?? 0,
        calls: Number(s?.calls ?? 0),
        messages: Number(s?.messages ?? 0),
      };
    });
    const totals = { impressions: 0, opens: 0, favourites: 0, calls: 0, messages: 0 };
    for (const w of weekly) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += w[k];
    return { ad_id: id, title: ad.title, model_name: ad.model_name, favourites_total: favTotal.get(id) ?? 0, weeks: weekly, totals };
  });
}

/** One counted tap per kind, visitor (IP) and ad an hour: reloading and tapping again adds nothing. */
export const CONTACT_TAP_WINDOW_S = 3_600;

/** One limiter per app (keyed like the counter: several test apps share the in-memory limiter factory). */
const limiters = new WeakMap<Db, RateLimiterAbstract>();

/**
 * A contact tap on a listed ad: counted unless the tapper owns the ad or already tapped it (same kind, same IP)
 * within the hour. Another ad id (unknown, not listed) is a 404; how it was counted is not told (204 either way), so
 * the answer is no tool to probe the limit.
 */
export async function recordContactTap(
  app: FastifyInstance,
  tap: { ad_id: number; kind: ContactTapKind },
  ip: string,
  viewer: Viewer | null,
): Promise<void> {
  const [listed] = await rows<{ id: number }>(app.db, sql`select id from ads where id = ${tap.ad_id} and is_listed`);
  if (!listed) throw notFound();
  const counter = adStatsCounter(app);
  if (viewer && (await counter.owns(viewer.id, tap.ad_id))) return;
  let limiter = limiters.get(app.db);
  if (!limiter) {
    limiter = app.limiter({ keyPrefix: 'ad-contact-tap', points: 1, duration: CONTACT_TAP_WINDOW_S });
    limiters.set(app.db, limiter);
  }
  const fresh = await limiter.consume(`${ip}|${tap.ad_id}|${tap.kind}`).then(
    () => true,
    () => false,
  );
  if (fresh) counter.count(tap.kind === 'call' ? 'calls' : 'messages', [tap.ad_id]);
}
