/**
 * Favourites on every page (issue 28), the part loaded with the first screen: which ads are saved (for the hearts and
 * the header's count) as a tiny external store, and the entry points that load the real store
 * (favourites-store.ts: IndexedDB, the account's list, the outbox) only when it is needed — on the first idle moment
 * after the page is up, or on the first tap of a heart. Until then every heart is in its neutral state, as the server
 * rendered it, so hydration matches.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ModelCard } from '#contract/listings.ts';
import type { Presenter } from './response-handler.ts';
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

let started = false;
/**
 * Starts keeping the ids (and the merge after sign-in) a moment after the page is up, once for the page's life: the
 * header's link calls it on every page, the favourites page too.
 */
export function startFavouritesWhenIdle(queryClient: QueryClient): void {
  if (started) return;
  started = true;
  // After the first screen's own work (hydration, its images), not during it.
  setTimeout(() => void loadFavouritesStore().then((s) => s.startFavouritesSync(queryClient)), 1000);
}

/** Saves or removes an ad (the heart): on the device for a visitor, on the account (through the outbox) otherwise. */
export const toggleFavourite = async (card: ModelCard, queryClient: QueryClient, ui: Presenter) =>
  (await loadFavouritesStore()).toggle(card, queryClient, ui);
