/**
 * Which ads are saved, for the hearts and the header's count (issue 28): a tiny external store that the favourites
 * store (favourites-store.ts) fills once it has loaded. Until then, and in the server render, nothing is saved, so the
 * hearts hydrate in their neutral state.
 */
import { useSyncExternalStore } from 'react';

const NONE: ReadonlySet<number> = new Set();
let current = NONE;
const listeners = new Set<() => void>();

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The store's hook into the hearts: a new list of saved ids (the device's, or the signed-in account's). */
export function publishFavouriteIds(ids: Iterable<number>) {
  current = new Set(ids);
  for (const l of listeners) l();
}

/**
 * Whether one ad is saved; the server render and the hydrating render see it unsaved. A yes or no, not the set: when
 * the store publishes (once loaded, and at every change) only the hearts whose answer changed re-render. Each card
 * reading the whole set re-rendered all of them, synchronously (an external store's change), in one task.
 */
export function useIsFavourite(adId: number): boolean {
  return useSyncExternalStore(
    subscribe,
    () => current.has(adId),
    () => false,
  );
}

/** How many ads are saved (the header's count); none in the server render and the hydrating render. */
export function useFavouriteCount(): number {
  return useSyncExternalStore(
    subscribe,
    () => current.size,
    () => 0,
  );
}
