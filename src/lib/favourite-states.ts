/**
 * What became of some ads (GET /api/favourites/states: public, no account), for the favourites' and the recently
 * viewed lists. Its own module: recording a model page opened (recent-views-store.ts) needs it, and not the favourites'
 * store with the outbox behind it (Dexie's tables, the contract's schemas, phone numbers' metadata), which the model
 * page's first seconds then compiled and ran on a first visit.
 */
import { FAVOURITE_STATES_MAX_IDS } from '#contract/favourite-limits.ts';
import type { FavouriteStates } from '#contract/favourites.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from './api-client.ts';

/** Asks the server what became of the ads named, 100 at a time. */
export async function fetchStates(ids: number[]): Promise<FavouriteStates['data']> {
  const out: FavouriteStates['data'] = [];
  for (let i = 0; i < ids.length; i += FAVOURITE_STATES_MAX_IDS) {
    const chunk = ids.slice(i, i + FAVOURITE_STATES_MAX_IDS);
    out.push(...(await apiGet<FavouriteStates>(`${API.favouriteStates}?ids=${chunk.join(',')}`)).data);
  }
  return out;
}
