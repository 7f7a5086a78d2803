/**
 * Favourites' store (issue 28), loaded on demand by favourites.ts.
 *
 * - A visitor's favourites live on the device (IndexedDB, Dexie, as the outbox): the ad's id, when it was saved, and
 *   the card as it was, so the list shows offline; their states are refreshed from GET /api/favourites/states.
 * - A signed-in user's are the account's (GET /api/favourites through TanStack Query, persisted with the user's other
 *   private answers and wiped with them when another user signs in). Hearts flipped write PUT/DELETE through the
 *   outbox (exactly once, in order: one scope per user), shown at once (optimistic), and a refetch made while some are
 *   still queued replays them over the server's answer, so nothing flickers back.
 * - When someone signs in on a device holding a visitor's favourites, they are sent once to POST
 *   /api/favourites/merge and the device list is cleared (registration sends them in its body as well).
 * - The cover photos of the available ones are kept offline (favourites-photos.ts); an unavailable one's is dropped.
 * - The account's list is also written here, on the device, at every change (`account` table): the query cache's
 *   saved copy is written at most once a second (query-persist.ts), so a reload within that second restored an older
 *   list — an offline removal followed by a reload then showed an empty list (the copy from before the hearts were
 *   added, with the removal applied) or the removed one again (its removal replayed by the worker meanwhile).
 */
import { QueryObserver, queryOptions, type QueryClient } from '@tanstack/react-query';
import { Dexie, type EntityTable } from 'dexie';
import { MAX_FAVOURITES } from '#contract/favourite-limits.ts';
import type { Favourite, FavouriteList, FavouriteState, FavouriteStates } from '#contract/favourites.ts';
import type { User } from '#contract/auth.ts';
import type { ModelCard } from '#contract/listings.ts';
import { API } from '#contract/routes.ts';
import { listOps, OutboxQuotaError } from '#src/offline/outbox.ts';
import { sendOrQueue } from '#src/offline/send-or-queue.ts';
import { apiGet, apiRequest, ApiError } from './api-client.ts';
import { FAVOURITES_DB_NAME } from './device-databases.ts';
import { fetchStates } from './favourite-states.ts';
import { publishFavouriteIds } from './favourites-ids.ts';
import { FAVOURITE_PHOTOS_CACHE, keepOnlyPhotos, keptPhotoUrl } from './favourites-photos.ts';
import { DEFAULT_PLACEMENT, handleAnswer, type Presenter } from './response-handler.ts';
import { sessionEndedFor, USER_QUERY_KEY } from './session.ts';

/** One favourite as a list shows it: the account's answer, or a device row with its last known state. */
export interface FavouriteItem {
  ad_id: number;
  saved_at: string;
  state: FavouriteState;
  /** The card while available; null otherwise (an unavailable ad's photo is never shown). */
  card: ModelCard | null;
  /** An unavailable ad's name as this device last saw it, if it did. */
  name?: string | undefined;
}

interface DeviceRow extends FavouriteItem {
  /** When its state was last asked (ms), 0 never. */
  checked_at: number;
}

/** What was last seen of an ad (its name), so an account favourite that became unavailable still says whose it was. */
interface Remembered {
  ad_id: number;
  name: string;
  title: string;
}

/** The signed-in account's list as this device last had it, and when (ms; the query's `dataUpdatedAt`). */
interface AccountCopy {
  user_id: number;
  items: FavouriteItem[];
  at: number;
}

type FavouritesDb = Dexie & {
  favourites: EntityTable<DeviceRow, 'ad_id'>;
  remembered: EntityTable<Remembered, 'ad_id'>;
  account: EntityTable<AccountCopy, 'user_id'>;
};

let shared: FavouritesDb | undefined;
function favouritesDb(): FavouritesDb {
  if (!shared) {
    shared = new Dexie(FAVOURITES_DB_NAME) as FavouritesDb;
    shared.version(1).stores({ favourites: 'ad_id, saved_at', remembered: 'ad_id' });
    shared.version(2).stores({ favourites: 'ad_id, saved_at', remembered: 'ad_id', account: 'user_id' });
  }
  return shared;
}

// --- the visitor's list on the device ------------------------------------------------------------------------------

export async function deviceFavourites(): Promise<FavouriteItem[]> {
  const rows = await favouritesDb().favourites.orderBy('saved_at').reverse().toArray();
  return rows.map(({ ad_id, saved_at, state, card, name }) => ({ ad_id, saved_at, state, card, name }));
}

const listeners = new Set<() => void>();
/** Told when the device list changed (the page re-reads it). */
export function onDeviceFavouritesChanged(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
async function deviceChanged() {
  const rows = await favouritesDb().favourites.toArray();
  publishFavouriteIds(rows.map((r) => r.ad_id));
  for (const l of listeners) l();
  void keepOnlyPhotos(FAVOURITE_PHOTOS_CACHE, photosOf(rows));
}

function photosOf(items: FavouriteItem[]): string[] {
  return items.flatMap((f) => {
    const url = f.state === 'available' ? keptPhotoUrl(f.card?.cover) : null;
    return url ? [url] : [];
  });
}

/** Refreshes the device list's states (online); offline it keeps the last known ones. */
export async function refreshDeviceStates(): Promise<void> {
  const db = favouritesDb();
  const rows = await db.favourites.toArray();
  if (rows.length === 0 || !navigator.onLine) return;
  let states: FavouriteStates['data'];
  try {
    states = await fetchStates(rows.map((r) => r.ad_id));
  } catch {
    return;
  }
  const byId = new Map(states.map((s) => [s.ad_id, s]));
  const now = Date.now();
  await db.favourites.bulkPut(
    rows.map((r) => {
      const s = byId.get(r.ad_id);
      if (!s) return r;
      // An unavailable ad keeps its name but loses its card and photo, here as on the server.
      return { ...r, state: s.state, card: s.card, name: s.card?.name ?? r.card?.name ?? r.name, checked_at: now };
    }),
  );
  await deviceChanged();
}

export async function removeDeviceFavourite(adId: number): Promise<void> {
  await favouritesDb().favourites.delete(adId);
  await deviceChanged();
}

async function toggleOnDevice(card: ModelCard, ui: Presenter): Promise<void> {
  const db = favouritesDb();
  if (await db.favourites.get(card.id)) {
    await db.favourites.delete(card.id);
  } else {
    if ((await db.favourites.count()) >= MAX_FAVOURITES) {
      ui.notify({ type: 'warning', message: ui.t('favourites.full'), placement: DEFAULT_PLACEMENT });
      return;
    }
    await db.favourites.put({ ad_id: card.id, saved_at: new Date().toISOString(), state: 'available', card, checked_at: 0 });
  }
  await deviceChanged();
}

// --- the signed-in account's list ----------------------------------------------------------------------------------

export const FAVOURITES_QUERY_ROOT = 'favourites';
const SCOPE = 'favourites';
const KINDS = new Set(['favourite.save', 'favourite.remove']);
/** Queued ops whose change the server has not made yet (a refused one, `failed`, is not applied). */
const STILL_TO_SEND = new Set(['pending', 'sending', 'auth']);

/** One heart flip: saved (with its card as the heart had it) or removed. */
interface Flip {
  adId: number;
  save: boolean;
  card: ModelCard | null;
  at: number;
}

const applyFlip = (list: FavouriteItem[], { adId, save, card, at }: Flip): FavouriteItem[] => {
  const others = list.filter((f) => f.ad_id !== adId);
  return save ? [{ ad_id: adId, saved_at: new Date(at).toISOString(), state: 'available', card }, ...others] : others;
};

/**
 * Flips sent straight to the server (online, nothing queued before them) and not answered yet, per user. They are not
 * in the outbox, yet a list fetched meanwhile may have been read by the server before the flip reached it: applied over
 * such answers like the queued ones, or the heart went back to how it was (the sync's first fetch often races the
 * first heart tapped).
 */
const sending = new Map<number, Flip[]>();

/** Applies the user's queued heart flips over a list, in the order they were made, then those being sent. */
async function withQueued(userId: number, list: FavouriteItem[]): Promise<FavouriteItem[]> {
  const ops = await listOps(userId)
    .then((all) => all.filter((o) => o.scope === SCOPE && KINDS.has(o.kind) && STILL_TO_SEND.has(o.status)))
    .catch(() => []);
  let out = list;
  for (const op of ops) {
    const card = (op.meta?.card as ModelCard | undefined) ?? null;
    out = applyFlip(out, { adId: Number(op.meta?.adId), save: op.kind === 'favourite.save', card, at: op.createdAt });
  }
  for (const flip of sending.get(userId) ?? []) out = applyFlip(out, flip);
  return out;
}

/** Keeps the account's list on the device as it is now, unless a newer one is there already (never throws). */
async function keepAccountCopy(userId: number, items: FavouriteItem[], at: number): Promise<void> {
  try {
    const db = favouritesDb();
    await db.transaction('rw', db.account, async () => {
      const kept = await db.account.get(userId);
      if (!kept || kept.at <= at)
        await db.account.put({ user_id: userId, items: JSON.parse(JSON.stringify(items)) as FavouriteItem[], at });
    });
  } catch {
    // Storage unavailable: the query cache's own saved copy is all there is.
  }
}

/** Keeps what the cache holds now for `userId` (after an optimistic change, an answer or a fetch). */
function keepFromCache(client: QueryClient, userId: number): Promise<void> {
  const key = favouritesQueryOptions(userId).queryKey;
  const state = client.getQueryState<FavouriteItem[]>(key);
  return state?.data ? keepAccountCopy(userId, state.data, state.dataUpdatedAt) : Promise.resolve();
}

/** Another account's list leaves this device when someone else (or no one) signs in here. */
async function dropAccountCopies(keep: number | null): Promise<void> {
  try {
    await favouritesDb()
      .account.filter((c) => c.user_id !== keep)
      .delete();
  } catch {
    // Nothing stored, or storage unavailable.
  }
}

/**
 * Puts back the list this device kept if it is newer than the cache's (restored from the saved copy, which may predate
 * the last changes), then applies the queued flips over it; applying them twice changes nothing.
 */
export async function reapplyQueued(client: QueryClient, userId: number): Promise<void> {
  const key = favouritesQueryOptions(userId).queryKey;
  const kept = await favouritesDb()
    .account.get(userId)
    .catch(() => undefined);
  const state = client.getQueryState<FavouriteItem[]>(key);
  if (kept && (state?.data === undefined || kept.at > state.dataUpdatedAt)) client.setQueryData(key, kept.items, { updatedAt: kept.at });
  const list = client.getQueryData<FavouriteItem[]>(key);
  if (!list) return;
  const next = await withQueued(userId, list);
  if (JSON.stringify(next) !== JSON.stringify(list)) client.setQueryData(key, next);
}

async function remember(items: Favourite[]) {
  const known = items.flatMap((f) => (f.card ? [{ ad_id: f.ad_id, name: f.card.name, title: f.card.title }] : []));
  if (known.length)
    await favouritesDb()
      .remembered.bulkPut(known)
      .catch(() => undefined);
}

/** The account's list with the queued flips applied; unavailable ones named from what this device saw of them. */
export const favouritesQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: [FAVOURITES_QUERY_ROOT, userId] as const,
    queryFn: async ({ signal }): Promise<FavouriteItem[]> => {
      const { data } = await apiGet<FavouriteList>(API.favourites, signal);
      void remember(data);
      return withQueued(userId, await withNames(data));
    },
  });

/** Gives an unavailable account favourite the name this device last saw (the server sends no card for it). */
async function withNames(items: Favourite[]): Promise<FavouriteItem[]> {
  const missing = items.filter((f) => !f.card).map((f) => f.ad_id);
  if (missing.length === 0) return items;
  const known = new Map(
    (
      await favouritesDb()
        .remembered.bulkGet(missing)
        .catch(() => [])
    ).flatMap((r) => (r ? [[r.ad_id, r] as const] : [])),
  );
  return items.map((f) => {
    const r = known.get(f.ad_id);
    if (f.card || !r) return f;
    return { ...f, name: r.name };
  });
}

async function setOnAccount(adId: number, card: ModelCard | null, save: boolean, user: User, client: QueryClient, ui: Presenter) {
  const key = favouritesQueryOptions(user.id).queryKey;
  const list = client.getQueryData<FavouriteItem[]>(key) ?? [];
  if (save && list.length >= MAX_FAVOURITES) {
    ui.notify({ type: 'warning', message: ui.t('favourites.full'), placement: DEFAULT_PLACEMENT });
    return;
  }
  const method = save ? 'PUT' : 'DELETE';
  const flip: Flip = { adId, save, card, at: Date.now() };
  // A fetch already under way may have been answered before the flip: its answer would put the heart back. It is
  // cancelled now and asked again once the flip is answered (the list may hold others than this one).
  let askAgain = client.isFetching({ queryKey: key }) > 0;
  await client.cancelQueries({ queryKey: key });
  // Shown at once; the answer (or the replay) confirms it. Kept on the device before it is shown: once the list on
  // screen has changed, a reload finds it so.
  await keepAccountCopy(user.id, applyFlip(client.getQueryData<FavouriteItem[]>(key) ?? [], flip), flip.at);
  client.setQueryData<FavouriteItem[]>(key, (old = []) => applyFlip(old, flip), { updatedAt: flip.at });
  const path = API.favourite(adId);
  const inFlight = sending.get(user.id) ?? [];
  sending.set(user.id, [...inFlight, flip]);
  try {
    const res = await sendOrQueue(
      {
        userId: user.id,
        scope: SCOPE,
        kind: save ? 'favourite.save' : 'favourite.remove',
        method,
        path,
        label: save ? 'favourites.op.add' : 'favourites.op.remove',
        ...(card ? { summary: card.name } : {}),
        meta: { adId, card: card ? (JSON.parse(JSON.stringify(card)) as Record<string, unknown>) : null },
        invalidate: [[FAVOURITES_QUERY_ROOT]],
      },
      (idempotencyKey) => apiRequest<{ data?: Favourite }>(path, { method, idempotencyKey }),
    );
    const item = res.sent?.data.data;
    if (item) {
      client.setQueryData<FavouriteItem[]>(key, (old = []) => old.map((f) => (f.ad_id === item.ad_id ? item : f)));
      await keepFromCache(client, user.id);
    }
  } catch (err) {
    void client.invalidateQueries({ queryKey: key });
    if (err instanceof OutboxQuotaError) ui.notify({ type: 'error', message: ui.t('outbox.quota'), placement: DEFAULT_PLACEMENT });
    else if (err instanceof ApiError) handleAnswer({ status: err.status, data: err.data }, ui);
    else ui.notify({ type: 'error', message: ui.t('favourites.failed'), placement: DEFAULT_PLACEMENT });
  } finally {
    const left = (sending.get(user.id) ?? []).filter((f) => f !== flip);
    if (left.length) sending.set(user.id, left);
    else sending.delete(user.id);
    // A fetch still under way was read before the flip, or is about to be answered without it: asked again.
    askAgain ||= client.isFetching({ queryKey: key }) > 0;
    if (askAgain) void client.invalidateQueries({ queryKey: key });
  }
}

// --- both ----------------------------------------------------------------------------------------------------------

function userOf(client: QueryClient): User | null | undefined {
  const state = client.getQueryState<User | null>(USER_QUERY_KEY);
  // A session ended on the server (sign-out, deletion) while the page still shows its user: a visitor already.
  if (state?.data && sessionEndedFor(state.data.id)) return null;
  if (state?.data !== undefined) return state.data;
  // Not known and not coming (offline at the first visit): a visitor's device list is what this device has.
  return state?.status === 'error' ? null : undefined;
}

export async function toggle(card: ModelCard, client: QueryClient, ui: Presenter): Promise<void> {
  const user = userOf(client);
  if (!user) return toggleOnDevice(card, ui);
  const saved = (client.getQueryData<FavouriteItem[]>(favouritesQueryOptions(user.id).queryKey) ?? []).some((f) => f.ad_id === card.id);
  await setOnAccount(card.id, card, !saved, user, client, ui);
}

/** The list's "Quitar" (the ad may be gone: no card needed). */
export async function remove(adId: number, client: QueryClient, ui: Presenter): Promise<void> {
  const user = userOf(client);
  if (user) await setOnAccount(adId, null, false, user, client, ui);
  else await removeDeviceFavourite(adId);
}

let merging: Promise<void> | undefined;
/** Sends the device's favourites to the signed-in account once, then forgets them here. */
async function mergeDevice(client: QueryClient, userId: number): Promise<void> {
  const db = favouritesDb();
  const rows = await db.favourites.toArray();
  if (rows.length === 0 || !navigator.onLine) return;
  try {
    const res = await apiRequest<{ data: Favourite[] }>(API.favouritesMerge, {
      method: 'POST',
      body: { favourites: rows.map((r) => ({ ad_id: r.ad_id, saved_at: r.saved_at })) },
    });
    await db.favourites.bulkDelete(rows.map((r) => r.ad_id));
    for (const l of listeners) l();
    void remember(res.data.data);
    client.setQueryData(favouritesQueryOptions(userId).queryKey, await withQueued(userId, await withNames(res.data.data)));
  } catch {
    // Offline or refused: the device keeps them, and the next sign-in or reconnection tries again.
  }
}

/** Keeps the hearts' ids in step with whoever is signed in, and merges a visitor's list at sign-in. */
export function startFavouritesSync(client: QueryClient): () => void {
  let userId: number | null | undefined;
  let stopObserver: (() => void) | undefined;

  const followAccount = (id: number) => {
    const observer = new QueryObserver(client, favouritesQueryOptions(id));
    const publish = (items: FavouriteItem[] | undefined, at: number) => {
      if (!items) return;
      publishFavouriteIds(items.map((f) => f.ad_id));
      void keepOnlyPhotos(FAVOURITE_PHOTOS_CACHE, photosOf(items));
      // Answers fetched, merged or replayed are kept too (an older restored list never replaces a newer kept one).
      void keepAccountCopy(id, items, at);
    };
    stopObserver = observer.subscribe((r) => publish(r.data, r.dataUpdatedAt));
    const now = observer.getCurrentResult();
    publish(now.data, now.dataUpdatedAt);
    void reapplyQueued(client, id);
    merging ??= mergeDevice(client, id).finally(() => (merging = undefined));
  };

  const check = () => {
    const user = userOf(client);
    const next = user === undefined ? undefined : (user?.id ?? null);
    if (next === userId) return;
    userId = next;
    stopObserver?.();
    stopObserver = undefined;
    if (next === undefined) return;
    void dropAccountCopies(next);
    if (next === null) void deviceChanged().then(refreshDeviceStates);
    else followAccount(next);
  };

  const offCache = client.getQueryCache().subscribe((event) => {
    if ((event.query.queryKey as readonly unknown[])[0] === USER_QUERY_KEY[0]) check();
  });
  const onOnline = () => {
    if (typeof userId === 'number') merging ??= mergeDevice(client, userId).finally(() => (merging = undefined));
  };
  window.addEventListener('online', onOnline);
  check();
  return () => {
    offCache();
    window.removeEventListener('online', onOnline);
    stopObserver?.();
  };
}

/** For the registration form: the device's favourites, to be kept by the new account. */
export async function deviceFavouritesForRegistration(): Promise<{ ad_id: number; saved_at: string }[]> {
  try {
    return (await favouritesDb().favourites.toArray()).map((r) => ({ ad_id: r.ad_id, saved_at: r.saved_at }));
  } catch {
    return [];
  }
}
