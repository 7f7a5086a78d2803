/**
 * The recently viewed list (issue 28): the last RECENT_VIEWS_MAX model pages opened on this device, newest first, in
 * IndexedDB with the card as it was (so the row shows offline) and the cover photo kept in Cache Storage
 * (favourites-photos.ts). Nothing of it leaves the device: only the public states of the ads shown are asked
 * (GET /api/favourites/states, no account, nothing stored), so one taken down says so and loses its photo.
 */
import { Dexie, type EntityTable } from 'dexie';
import type { FavouriteState } from '#contract/favourites.ts';
import type { ModelCard } from '#contract/listings.ts';
import { fetchStates } from './favourite-states.ts';
import { dropPhotos, keepOnlyPhotos, keepPhoto, keptPhotoUrl, RECENT_PHOTOS_CACHE } from './favourites-photos.ts';
import { RECENT_VIEWS_DB_NAME } from './device-databases.ts';

export const RECENT_VIEWS_MAX = 30;

export interface RecentView {
  ad_id: number;
  /** Epoch ms of the last opening. */
  viewed_at: number;
  state: FavouriteState;
  /** The card as last seen; an unavailable ad's has no cover. */
  card: ModelCard;
}

type RecentDb = Dexie & { views: EntityTable<RecentView, 'ad_id'> };
let shared: RecentDb | undefined;
function recentDb(): RecentDb {
  if (!shared) {
    shared = new Dexie(RECENT_VIEWS_DB_NAME) as RecentDb;
    shared.version(1).stores({ views: 'ad_id, viewed_at' });
  }
  return shared;
}

const listeners = new Set<() => void>();
export function onRecentViewsChanged(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
const changed = () => {
  for (const l of listeners) l();
};

export async function recentViews(): Promise<RecentView[]> {
  return recentDb().views.orderBy('viewed_at').reverse().limit(RECENT_VIEWS_MAX).toArray();
}

async function keepPhotosOf(views: RecentView[]) {
  await keepOnlyPhotos(
    RECENT_PHOTOS_CACHE,
    views.flatMap((v) => {
      const url = v.state === 'available' ? keptPhotoUrl(v.card.cover) : null;
      return url ? [url] : [];
    }),
  );
}

export async function record(card: ModelCard): Promise<void> {
  const db = recentDb();
  await db.views.put({ ad_id: card.id, viewed_at: Date.now(), state: 'available', card });
  const old = await db.views.orderBy('viewed_at').reverse().offset(RECENT_VIEWS_MAX).primaryKeys();
  if (old.length) await db.views.bulkDelete(old);
  changed();
  if (old.length) await keepPhotosOf(await recentViews());
  else await keepPhoto(RECENT_PHOTOS_CACHE, keptPhotoUrl(card.cover));
}

/** "Borrar": the list and its kept photos. */
export async function clear(): Promise<void> {
  await recentDb().views.clear();
  await dropPhotos(RECENT_PHOTOS_CACHE);
  changed();
}

/** Asks what became of the ads shown (online only); offline the last known states stay. */
export async function refreshStates(): Promise<void> {
  if (!navigator.onLine) return;
  const db = recentDb();
  const views = await recentViews();
  if (views.length === 0) return;
  let states;
  try {
    states = await fetchStates(views.map((v) => v.ad_id));
  } catch {
    return;
  }
  const byId = new Map(states.map((s) => [s.ad_id, s]));
  const next = views.map((v) => {
    const s = byId.get(v.ad_id);
    if (!s) return v;
    return { ...v, state: s.state, card: s.card ?? { ...v.card, cover: null } };
  });
  await db.views.bulkPut(next);
  changed();
  await keepPhotosOf(next);
}
