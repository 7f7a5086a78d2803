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

/** The saved ads' ids; the server render and the hydrating render see none. */
export function useFavouriteIds(): ReadonlySet<number> {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => NONE,
  );
}
