/**
 * A user's saved searches (issue 28, contract/saved-searches.ts): list, save, rename / change alerts / pause, delete,
 * and the e-mail's signed unsubscribe. Own rows only (another user's id is 404). Writes take the user's row lock, so
 * MAX_SAVED_SEARCHES holds under concurrent saves, and commit their answer with the change (`commit`, decision 0012)
 * since the outbox replays them.
 */
import crypto from 'node:crypto';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MAX_SAVED_SEARCHES, type SavedSearch, type SavedSearchCreate, type SavedSearchUpdate } from '#contract/saved-searches.ts';
import { SECTION_SLUGS } from '#contract/section-slugs.ts';
import type { Db } from '../../db/client.ts';
import { cities, savedSearches, savedSearchHits, sections, users } from '../../db/schema.ts';
import { fieldError, notFound, validationFailed } from '../../errors.ts';

/** Field messages are in the request's language (the error handler sends them as they are). */
type Translate = (key: string, vars?: Record<string, unknown>) => string;
type Commit<T> = ((tx: Db, result: T) => Promise<void>) | undefined;

interface Row {
  id: number;
  name: string;
  search: string;
  alerts: 'instant' | 'daily' | 'off';
  paused: boolean;
  last_alert_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  city_id: number | null;
  city_name: string | null;
  section_id: number | null;
  section_slug: string | null;
  section_names: Record<string, string> | null;
  pending: number | string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toSavedSearch(r: Row, lng: string): SavedSearch {
  return {
    id: r.id,
    name: r.name,
    search: r.search,
    city: r.city_id !== null ? { id: r.city_id, name: r.city_name ?? '' } : null,
    section:
      r.section_id !== null
        ? { id: r.section_id, slug: r.section_slug ?? '', name: r.section_names?.[lng] ?? r.section_names?.es ?? r.section_slug ?? '' }
        : null,
    alerts: r.alerts,
    paused: r.paused,
    pending: Number(r.pending),
    last_alert_at: iso(r.last_alert_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** The user's searches (or one), with their places named and the matched ads not yet announced. */
async function readRows(db: Db, userId: number, id?: number): Promise<Row[]> {
  const res = (await db.execute(sql`
    select s.id, s.name, s.search, s.alerts, s.paused, s.last_alert_at, s.created_at, s.updated_at,
           s.city_id, c.name as city_name, s.section_id, se.slug as section_slug, se.names as section_names,
           (select count(*) from saved_search_hits h join ads a on a.id = h.ad_id
             where h.search_id = s.id and h.alerted_at is null and a.is_listed) as pending
      from saved_searches s
      left join cities c on c.id = s.city_id
      left join sections se on se.id = s.section_id
     where s.user_id = ${userId} ${id === undefined ? sql`` : sql`and s.id = ${id}`}
     order by s.created_at desc, s.id desc`)) as { rows: Row[] };
  return res.rows;
}

export async function listSavedSearches(db: Db, userId: number, lng: string): Promise<SavedSearch[]> {
  return (await readRows(db, userId)).map((r) => toSavedSearch(r, lng));
}

async function readOne(db: Db, userId: number, id: number, lng: string): Promise<SavedSearch> {
  const [row] = await readRows(db, userId, id);
  if (!row) throw notFound();
  return toSavedSearch(row, lng);
}

/** The section's id from the listing's `section` filter (a slug, or an id as the listing also takes). */
async function sectionIdOf(db: Db, section: string | number | undefined, tr: Translate): Promise<number | null> {
  if (section === undefined) return null;
  const where =
    typeof section === 'number' || /^\d+$/.test(section)
      ? eq(sections.id, Number(section))
      : (SECTION_SLUGS as readonly string[]).includes(section)
        ? eq(sections.slug, section)
        : undefined;
  const [row] = where ? await db.select({ id: sections.id }).from(sections).where(where) : [];
  if (!row) throw fieldError('section', tr('savedSearches.errors.section'));
  return row.id;
}

async function cityIdOf(db: Db, city: number | undefined, tr: Translate): Promise<number | null> {
  if (city === undefined) return null;
  const [row] = await db.select({ id: cities.id }).from(cities).where(eq(cities.id, city));
  if (!row) throw fieldError('city', tr('savedSearches.errors.city'));
  return row.id;
}

type CreateInput = {
  name: string;
  search?: string | undefined;
  city?: number | undefined;
  section?: string | number | undefined;
  alerts?: SavedSearchCreate['alerts'];
};

export async function createSavedSearch(
  db: Db,
  userId: number,
  input: CreateInput,
  lng: string,
  tr: Translate,
  commit?: Commit<SavedSearch>,
): Promise<SavedSearch> {
  return db.transaction(async (tx) => {
    const cityId = await cityIdOf(tx, input.city, tr);
    const sectionId = await sectionIdOf(tx, input.section, tr);
    // The user's row lock makes the count and the insert one step for concurrent saves.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [n] = await tx.select({ n: count() }).from(savedSearches).where(eq(savedSearches.userId, userId));
    if (Number(n?.n ?? 0) >= MAX_SAVED_SEARCHES) {
      throw validationFailed({ name: [tr('savedSearches.errors.tooMany', { max: MAX_SAVED_SEARCHES })] });
    }
    const [row] = await tx
      .insert(savedSearches)
      .values({
        userId,
        name: input.name,
        search: (input.search ?? '').trim(),
        cityId,
        sectionId,
        alerts: input.alerts ?? 'instant',
      })
      .returning({ id: savedSearches.id });
    const saved = await readOne(tx, userId, row!.id, lng);
    await commit?.(tx, saved);
    return saved;
  });
}

/** Hits matched while a search could not alert are dropped when it is paused or its alerts turned off: resuming it
 * announces the ads that come after, not those of the pause. */
async function dropPending(tx: Db, searchId: number): Promise<void> {
  await tx
    .update(savedSearchHits)
    .set({ alertedAt: new Date() })
    .where(and(eq(savedSearchHits.searchId, searchId), isNull(savedSearchHits.alertedAt)));
}

export async function updateSavedSearch(
  db: Db,
  userId: number,
  id: number,
  change: SavedSearchUpdate,
  lng: string,
  commit?: Commit<SavedSearch>,
): Promise<SavedSearch> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: savedSearches.id })
      .from(savedSearches)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .for('update');
    if (!row) throw notFound();
    await tx
      .update(savedSearches)
      .set({
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.alerts !== undefined ? { alerts: change.alerts } : {}),
        ...(change.paused !== undefined ? { paused: change.paused } : {}),
        updatedAt: new Date(),
      })
      .where(eq(savedSearches.id, id));
    if (change.paused === true || change.alerts === 'off') await dropPending(tx, id);
    const saved = await readOne(tx, userId, id, lng);
    await commit?.(tx, saved);
    return saved;
  });
}

export async function deleteSavedSearch(db: Db, userId: number, id: number, commit?: Commit<{ id: number }>): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(savedSearches)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .returning({ id: savedSearches.id });
    if (!gone.length) throw notFound();
    await commit?.(tx, { id });
    return { id };
  });
}

/**
 * The e-mail's unsubscribe token: an HMAC of the search's id under the app key. It never expires (a digest read a
 * month later must still work) and only turns alerts off, which the owner can undo from the dashboard.
 */
export function unsubscribeToken(appKey: string, searchId: number | readonly number[]): string {
  // Several searches (the digest's one-click link) sign their ids in ascending order; one search signs its id alone, so
  // its one-click token is the same as its own link's.
  const ids = typeof searchId === 'number' ? [searchId] : [...new Set(searchId)].sort((a, b) => a - b);
  return crypto
    .createHmac('sha256', appKey)
    .update(`saved-search-unsubscribe|${ids.join(',')}`)
    .digest('base64url');
}

function tokenMatches(appKey: string, ids: readonly number[], token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(appKey, ids));
  const given = Buffer.from(token);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Turns the search's alerts off, by the signed link alone (no session); a wrong token or a gone search is 404. */
export async function unsubscribe(
  app: FastifyInstance,
  input: { id: number | string; token: string },
  commit?: Commit<{ id: number; name: string; alerts: 'off' }>,
): Promise<{ id: number; name: string; alerts: 'off' }> {
  const id = Number(input.id);
  if (!Number.isSafeInteger(id) || !tokenMatches(app.config.appKey, [id], input.token)) throw notFound();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(savedSearches)
      .set({ alerts: 'off', updatedAt: new Date() })
      .where(eq(savedSearches.id, id))
      .returning({ id: savedSearches.id, name: savedSearches.name });
    if (!row) throw notFound();
    await dropPending(tx, id);
    const result = { id: row.id, name: row.name, alerts: 'off' as const };
    await commit?.(tx, result);
    return result;
  });
}

/**
 * The digest's one-click unsubscribe (RFC 8058: the mail client posts to its List-Unsubscribe URL, no session): turns
 * off the alerts of every search the e-mail named (`id`: comma-separated, as signed). A wrong token, or searches that
 * are all gone, is 404. Answers the ids turned off and their names.
 */
export async function unsubscribeOneClick(
  app: FastifyInstance,
  input: { id: string; token: string },
): Promise<{ ids: number[]; names: string[] }> {
  const ids = [...new Set(input.id.split(',').map(Number))].filter((n) => Number.isSafeInteger(n) && n > 0);
  if (!ids.length || !tokenMatches(app.config.appKey, ids, input.token)) throw notFound();
  return app.db.transaction(async (tx) => {
    const rows = await tx
      .update(savedSearches)
      .set({ alerts: 'off', updatedAt: new Date() })
      .where(inArray(savedSearches.id, ids))
      .returning({ id: savedSearches.id, name: savedSearches.name });
    if (!rows.length) throw notFound();
    rows.sort((a, b) => a.id - b.id);
    for (const r of rows) await dropPending(tx, r.id);
    return { ids: rows.map((r) => r.id), names: rows.map((r) => r.name) };
  });
}
