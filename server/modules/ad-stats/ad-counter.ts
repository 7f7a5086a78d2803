/**
 * The advertisers' numbers as they happen: impressions (an ad on a listing page served), opens (its model page served)
 * and contact taps, added up in memory and written every `config.adStatsFlushMs` (AD_STATS_FLUSH_MS, default a minute) as one upsert that adds
 * to the stored counts. The listing pays a Map update, never a query; several processes each add their own share,
 * so nothing is lost or counted twice between them. The app's close writes what is left (onClose runs before the
 * database closes: server/main.ts, tests/test-app.ts).
 *
 * An owner's own views are not counted: for a signed-in model or publicist the ids of her ads are read once a minute
 * at most and left out. Visitors are never named, here or in the table.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Role } from '#contract/roles.ts';
import type { Db } from '../../db/client.ts';

export const AD_STAT_COLUMNS = ['impressions', 'opens', 'calls', 'messages'] as const;
export type AdStatColumn = (typeof AD_STAT_COLUMNS)[number];
type Counts = Record<AdStatColumn, number>;

/** Who is looking, when signed in: only models and publicists own ads. */
export interface Viewer {
  id: number;
  role: Role;
}

/** A request that serves ads: who asks, and whether it is a screen someone is shown. */
export interface AdView {
  viewer: Viewer | null;
  /**
   * Only the app's own screens count: the PWA's API client and the server-rendered first screen always say which
   * language they show (`X-Locale`). Not counted: a prefetch (`Sec-Purpose`/`Purpose: prefetch`), the service
   * worker's own fetches — its warm-up keeps for offline use what a first visit already showed, its push handler
   * prefetches what a tap will open (sw/sw.ts, sw/push.ts: no `X-Locale`) — and other clients of the public API
   * (scrapers), none of which puts an ad in front of a person.
   */
  counted: boolean;
}

const PREFETCH = /(^|[\s,;])prefetch\b/i;

/**
 * Who loaded the page whose first screen is being built (server/plugins/spa.ts). That screen's answers are asked of the
 * API anonymously (app.inject without the page's cookie: they go into a page that caches may keep), so the API
 * request itself names no viewer; without this an owner's own full page load of her model page counted as an open.
 * Counting is done by the server where the answer is made, not by the client once it knows who is signed in, so a
 * visitor's open still counts when the app's code never runs. Only code in this process can set it, so no request
 * can claim to be someone else.
 */
const pageViewer = new AsyncLocalStorage<Viewer>();

/** Runs `fn` (the first screen's build) with the page's signed-in viewer, whose own ads it then leaves uncounted. */
export function withPageViewer<T>(viewer: Viewer | null | undefined, fn: () => Promise<T>): Promise<T> {
  return viewer ? pageViewer.run({ id: viewer.id, role: viewer.role }, fn) : fn();
}

/** The AdView of a request (what listing and model-page routes hand to the service). */
export function adViewOf(req: FastifyRequest): AdView {
  const purpose = [req.headers['sec-purpose'], req.headers.purpose, req.headers['x-purpose'], req.headers['x-moz']].flat().join(',');
  return {
    viewer: req.user ?? pageViewer.getStore() ?? null,
    counted: typeof req.headers['x-locale'] === 'string' && !PREFETCH.test(purpose),
  };
}

/** Rows per statement: 6 parameters each stays far below PostgreSQL's 65,535. */
const FLUSH_BATCH = 2_000;
/** Keys held while the database refuses the writes: past this, new counts wait for the next flush that works. */
const PENDING_MAX = 200_000;

/** Monday (YYYY-MM-DD) of the ISO week of `at`, in UTC like the favourites' `date_trunc('week', … at time zone 'UTC')`. */
export function weekOf(at: Date): string {
  const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - ((at.getUTCDay() + 6) % 7)));
  return monday.toISOString().slice(0, 10);
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/** The ids of the ads a user owns: her own profile's, or the models' of her agency. */
export async function ownedAdIds(db: Db, userId: number): Promise<number[]> {
  const list = await rows<{ id: number }>(
    db,
    sql`select a.id from ads a
          join model_profiles mp on mp.id = a.model_profile_id
          left join publicist_profiles pp on pp.id = mp.publicist_id
        where mp.user_id = ${userId} or pp.user_id = ${userId}`,
  );
  return list.map((r) => Number(r.id));
}

export class AdStatsCounter {
  private pending = new Map<string, Counts>();
  private readonly owned = new LRUCache<number, ReadonlySet<number>>({ max: 5_000, ttl: 60_000 });
  /** Owner look-ups still running: a flush waits for them, so what was served before it is in it. */
  private readonly lookups = new Set<Promise<void>>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log?: FastifyInstance['log'],
  ) {}

  /**
   * Adds one to `column` for each of `adIds` this week, leaving out the viewer's own ads (and everything, for a view
   * that does not count). Never throws, never waits.
   */
  count(column: AdStatColumn, adIds: readonly number[], view?: AdView, at = new Date()): void {
    if (adIds.length === 0 || view?.counted === false) return;
    const viewer = view?.viewer;
    if (!viewer || (viewer.role !== 'model' && viewer.role !== 'publicist')) return this.add(column, adIds, at);
    const known = this.owned.get(viewer.id);
    if (known) return this.add(column, known.size ? adIds.filter((id) => !known.has(id)) : adIds, at);
    const lookup = ownedAdIds(this.db, viewer.id).then(
      (ids) => {
        const own = new Set(ids);
        this.owned.set(viewer.id, own);
        this.add(
          column,
          adIds.filter((id) => !own.has(id)),
          at,
        );
      },
      // Not knowing whose ads they are, none is counted: an owner's view must never inflate her numbers.
      (err: unknown) => this.log?.warn({ err }, 'ad stats: owner look-up failed; this view is not counted'),
    );
    this.lookups.add(lookup);
    void lookup.finally(() => this.lookups.delete(lookup));
  }

  /** Whether `userId` owns `adId` (the same minute-long memory as `count`). */
  async owns(userId: number, adId: number): Promise<boolean> {
    let own = this.owned.get(userId);
    if (!own) {
      own = new Set(await ownedAdIds(this.db, userId));
      this.owned.set(userId, own);
    }
    return own.has(adId);
  }

  private add(column: AdStatColumn, adIds: readonly number[], at: Date): void {
    const week = weekOf(at);
    for (const id of adIds) {
      const key = `${id}|${week}`;
      let counts = this.pending.get(key);
      if (!counts) {
        if (this.pending.size >= PENDING_MAX) continue;
        counts = { impressions: 0, opens: 0, calls: 0, messages: 0 };
        this.pending.set(key, counts);
      }
      counts[column] += 1;
    }
  }

  /** Writes what was counted (one upsert per 2,000 ad-weeks). On failure the counts are kept for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    await Promise.all([...this.lookups]);
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const entries = [...batch];
    for (let i = 0; i < entries.length; i += FLUSH_BATCH) {
      const slice = entries.slice(i, i + FLUSH_BATCH);
      const values = sql.join(
        slice.map(([key, c]) => {
          const [id, week] = key.split('|');
          return sql`(${Number(id)}::int, ${week}::date, ${c.impressions}::int, ${c.opens}::int, ${c.calls}::int, ${c.messages}::int)`;
        }),
        sql`, `,
      );
      try {
        // An ad deleted since it was counted is skipped (its numbers went with it), not a failed batch.
        await this.db.execute(sql`
          insert into ad_stats_weekly (ad_id, week, impressions, opens, calls, messages)
          select v.ad_id, v.week, v.impressions, v.opens, v.calls, v.messages
            from (values ${values}) as v(ad_id, week, impressions, opens, calls, messages)
           where exists (select 1 from ads where ads.id = v.ad_id)
          on conflict (ad_id, week) do update set
            impressions = ad_stats_weekly.impressions + excluded.impressions,
            opens = ad_stats_weekly.opens + excluded.opens,
            calls = ad_stats_weekly.calls + excluded.calls,
            messages = ad_stats_weekly.messages + excluded.messages`);
      } catch (err) {
        this.log?.warn({ err }, 'ad stats: flush failed; the counts are kept for the next one');
        for (const [key, c] of entries.slice(i)) {
          const now = this.pending.get(key);
          if (!now) this.pending.set(key, c);
          else for (const col of AD_STAT_COLUMNS) now[col] += c[col];
        }
        return;
      }
    }
  }
}

/** One counter per database (every encapsulated plugin of an app shares `app.db`), created with its flush timer. */
const counters = new WeakMap<Db, AdStatsCounter>();

/**
 * The app's counter. The first caller, at registration time (listings, analytics and ad-stats routes all ask),
 * starts the periodic flush and hooks the last one to the app's close.
 */
export function adStatsCounter(app: FastifyInstance): AdStatsCounter {
  const existing = counters.get(app.db);
  if (existing) return existing;
  const counter = new AdStatsCounter(app.db, app.log);
  counters.set(app.db, counter);
  const every = app.config.adStatsFlushMs;
  const timer = every > 0 ? setInterval(() => void counter.flush(), every) : undefined;
  timer?.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await counter.flush();
  });
  return counter;
}
