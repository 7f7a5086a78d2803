/**
 * Favourites on every page (issue 28), the part loaded with the first screen: which ads are saved (for the hearts and
 * the header's count) as a tiny external store, and the entry points that load the real store
 * (favourites-store.ts: IndexedDB, the account's list, the outbox) only when it is needed — on the first idle moment
 * after the page is up, or on the first tap of a heart. Until then every heart is in its neutral state, as the server
 * rendered it, so hydration matches.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ModelCard } from '#contract/listings.ts';
import type { User } from '#contract/auth.ts';
import type { Presenter } from './response-handler.ts';
import { deviceMayHaveDatabase, FAVOURITES_DB_NAME } from './device-databases.ts';
import { sessionEndedFor, USER_QUERY_KEY } from './session.ts';
import type * as StoreModule from './favourites-store.ts';

export { useFavouriteCount, useIsFavourite } from './favourites-ids.ts';

type Store = typeof StoreModule;
let store: Promise<Store> | undefined;

/** The real store, loaded once (its code and Dexie stay off the first screen's bundle). */
export function loadFavouritesStore(): Promise<Store> {
  store ??= import('./favourites-store.ts');
  store.catch(() => (store = undefined));
  return store;
}

/** Whether this device may hold a visitor's favourites (false on a first visit), asked without loading Dexie. */
export const deviceMayHaveFavourites = () => deviceMayHaveDatabase(FAVOURITES_DB_NAME);

const userIn = (queryClient: QueryClient) => queryClient.getQueryData<User | null>(USER_QUERY_KEY);
const signedIn = (queryClient: QueryClient) => {
  const user = userIn(queryClient);
  return !!user && !sessionEndedFor(user.id);
};
/** Known to be a visitor: the session check answered with no one signed in, or the session has just ended. */
const signedOut = (queryClient: QueryClient) => {
  const user = userIn(queryClient);
  return user === null || (user !== undefined && sessionEndedFor(user.id));
};

let started = false;
/** Starts the store's sync, once; set by startFavouritesWhenIdle (before it, a tapped heart has nothing to start). */
let startSync: () => void = () => {};
/**
 * Starts keeping the ids (and the merge after sign-in) a moment after the page is up, once for the page's life: the
 * header's link calls it on every page, the favourites page too. A visitor with nothing saved on this device (most
 * first visits) has no hearts to show and nothing to merge: the store (its code, Dexie and the outbox's, ~30 KB gzip
 * compiled in the first visit's busiest seconds) waits for a sign-in, or for the first heart tapped, which loads it
 * itself (`toggleFavourite`) and creates the device list.
 */
export function startFavouritesWhenIdle(queryClient: QueryClient): void {
  if (started) return;
  started = true;
  let stopWaiting: (() => void) | undefined;
  let begun = false;
  startSync = () => {
    if (begun) return;
    begun = true;
    stopWaiting?.();
    void loadFavouritesStore().then((s) => s.startFavouritesSync(queryClient));
  };
  // After the first screen's own work (hydration, its images), not during it.
  setTimeout(() => {
    void deviceMayHaveFavourites().then((stored) => {
      // Signed in, or not known yet (the session check still on its way): as before, at once.
      if (stored || !signedOut(queryClient)) return startSync();
      if (begun) return;
      stopWaiting = queryClient.getQueryCache().subscribe((event) => {
        const key = event.query.queryKey as readonly unknown[];
        if (key[0] === USER_QUERY_KEY[0] && signedIn(queryClient)) startSync();
      });
    });
  }, 1000);
}

/** Saves or removes an ad (the heart): on the device for a visitor, on the account (through the outbox) otherwise. */
export const toggleFavourite = async (card: ModelCard, queryClient: QueryClient, ui: Presenter) => {
  const result = (await loadFavouritesStore()).toggle(card, queryClient, ui);
  // The first heart tapped: from then on the store keeps the ids, and merges them at a sign-in.
  startSync();
  return result;
};
