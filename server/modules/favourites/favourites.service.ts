/**
 * Favourites (issue 28): an account's saved ads, their current state, and the device list merged in at sign-in or
 * registration. The table has no foreign key to ads on purpose: a favourite outlives its ad and then says so
 * ("removed") instead of vanishing. Only an available ad carries its card (and so its photo); the model never learns
 * who saved her ad: nothing here is readable by anyone but the favourite's owner.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { MAX_FAVOURITES, type DeviceFavourite, type Favourite, type FavouriteState, type FavouriteStates } from '#contract/favourites.ts';
import type { Language } from '#contract/languages.ts';
import type { Db } from '../../db/client.ts';
import { favourites, users } from '../../db/schema.ts';
import { notFound, validationFailed } from '../../errors.ts';
import type { Storage } from '../../plugins/storage.ts';
import { toCard } from '../listings/cards.ts';
import { cardRows } from '../listings/listings.repository.ts';
import { mergeFavouritesInto } from '../../lib/favourites-merge.ts';

interface StateRow {
  id: number;
  is_listed: boolean;
  ad_status: string;
  profile_status: string;
  consent_status: string;
  user_status: string | null;
  agency_status: string | null;
  agency_user_status: string | null;
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  // node-postgres and PGlite both answer { rows }; drizzle types them differently.
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

/**
 * What the listing's trigger (ads_before_write, migrations 0004/0012) decided, told the way a visitor understands it:
 * staff restrictions of the ad, the profile or either account are "suspended"; a refusal, a withdrawn consent or a
 * refused agency is "removed" (it will not come back by itself); anything else that keeps it off the listing (switched
 * off, paused, waiting for review) is "paused".
 */
export function stateOf(r: StateRow | undefined): FavouriteState {
  if (!r) return 'removed';
  if (r.is_listed) return 'available';
  if (r.ad_status === 'rejected' || r.profile_status === 'rejected' || r.consent_status === 'withdrawn' || r.agency_status === 'rejected') {
    return 'removed';
  }
  if ([r.ad_status, r.profile_status, r.user_status, r.agency_status, r.agency_user_status].includes('suspended')) return 'suspended';
  return 'paused';
}

async function stateRows(db: Db, ids: number[]): Promise<Map<number, StateRow>> {
  if (ids.length === 0) return new Map();
  const found = await rows<StateRow>(
    db,
    sql`select a.id, a.is_listed, a.status as ad_status, p.status as profile_status, p.consent_status,
               u.status as user_status, pp.status as agency_status, pu.status as agency_user_status
          from ads a
          join model_profiles p on p.id = a.model_profile_id
          left join users u on u.id = p.user_id
          left join publicist_profiles pp on pp.id = p.publicist_id
          left join users pu on pu.id = pp.user_id
         where a.id = any(${`{${ids.join(',')}}`}::int[])`,
  );
  return new Map(found.map((r) => [r.id, r]));
}

/** Each ad's state, with the listing's card while it is available (an ad unlisted between the two reads is paused). */
async function statesOf(db: Db, storage: Storage, ids: number[], lang: Language): Promise<Map<number, Pick<Favourite, 'state' | 'card'>>> {
  const byId = await stateRows(db, ids);
  const available = ids.filter((id) => stateOf(byId.get(id)) === 'available');
  const now = new Date();
  const cards = new Map((await cardRows(db, available)).map((r) => [r.id, toCard(storage, r, lang, now)]));
  const out = new Map<number, Pick<Favourite, 'state' | 'card'>>();
  for (const id of ids) {
    const card = cards.get(id);
    const state = stateOf(byId.get(id));
    out.set(id, card ? { state: 'available', card } : { state: state === 'available' ? 'paused' : state, card: null });
  }
  return out;
}

async function itemsOf(db: Db, storage: Storage, saved: { adId: number; createdAt: Date }[], lang: Language): Promise<Favourite[]> {
  const states = await statesOf(
    db,
    storage,
    saved.map((s) => s.adId),
    lang,
  );
  return saved.map((s) => ({ ad_id: s.adId, saved_at: s.createdAt.toISOString(), ...states.get(s.adId)! }));
}

function savedOf(db: Db, userId: number) {
  return db
    .select({ adId: favourites.adId, createdAt: favourites.createdAt })
    .from(favourites)
    .where(eq(favourites.userId, userId))
    .orderBy(desc(favourites.createdAt), desc(favourites.adId));
}

/** The user's favourites, newest first, each with its ad's state now. */
export async function listFavourites(db: Db, storage: Storage, userId: number, lang: Language): Promise<Favourite[]> {
  return itemsOf(db, storage, await savedOf(db, userId), lang);
}

/** Public: the state (and card while available) of the ads named, for a device's favourites and recent views. */
export async function favouriteStates(db: Db, storage: Storage, ids: number[], lang: Language): Promise<FavouriteStates['data']> {
  const states = await statesOf(db, storage, ids, lang);
  return ids.map((id) => ({ ad_id: id, ...states.get(id)! }));
}

/** Serialises one user's writes: the count checked against MAX_FAVOURITES cannot be passed by two at once. */
async function lockUser(tx: Db, userId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

async function countOf(tx: Db, userId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(favourites)
    .where(eq(favourites.userId, userId));
  return row?.n ?? 0;
}

/**
 * Saves an ad the listing shows (PUT, idempotent: saved again, it keeps its first date). An ad that does not exist or
 * is not listed is 404 — unless it is saved already (a replayed PUT after the ad was paused answers as the first did).
 */
export async function saveFavourite(
  db: Db,
  storage: Storage,
  userId: number,
  adId: number,
  lang: Language,
  commit?: (tx: Db, item: Favourite) => Promise<void>,
): Promise<Favourite> {
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const [existing] = await tx
      .select({ adId: favourites.adId, createdAt: favourites.createdAt })
      .from(favourites)
      .where(and(eq(favourites.userId, userId), eq(favourites.adId, adId)));
    let saved = existing;
    if (!saved) {
      if (stateOf((await stateRows(tx, [adId])).get(adId)) !== 'available') throw notFound('favourites.api.notFound');
      if ((await countOf(tx, userId)) >= MAX_FAVOURITES) {
        throw validationFailed(undefined, 'favourites.api.tooMany', { max: MAX_FAVOURITES });
      }
      [saved] = await tx.insert(favourites).values({ userId, adId }).returning({ adId: favourites.adId, createdAt: favourites.createdAt });
    }
    const [item] = await itemsOf(tx, storage, [saved!], lang);
    await commit?.(tx, item!);
    return item!;
  });
}

/** Removes a favourite (DELETE, idempotent: one that is not there is removed already). */
export async function removeFavourite(db: Db, userId: number, adId: number, commit?: (tx: Db, result: null) => Promise<void>) {
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(favourites)
      .where(and(eq(favourites.userId, userId), eq(favourites.adId, adId)))
      .returning({ adId: favourites.adId });
    // Idempotent for an ad that exists (or one she had saved); an id that names no ad and no favourite is a 404, as
    // every path naming nothing is.
    if (gone.length === 0) {
      const found = (await tx.execute(sql`select 1 from ads where id = ${adId}`)) as { rows: unknown[] };
      if (found.rows.length === 0) throw notFound();
    }
    await commit?.(tx, null);
  });
}

/** POST /api/favourites/merge: the device's favourites into the signed-in account; answers the whole list. */
export async function mergeFavourites(
  db: Db,
  storage: Storage,
  userId: number,
  list: DeviceFavourite[],
  lang: Language,
  commit?: (tx: Db, items: Favourite[]) => Promise<void>,
): Promise<Favourite[]> {
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    await mergeFavouritesInto(tx, userId, list);
    const items = await itemsOf(tx, storage, await savedOf(tx, userId), lang);
    await commit?.(tx, items);
    return items;
  });
}
