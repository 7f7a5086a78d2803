/**
 * Registration's part of favourites (issue 28): the visitor's device list goes in the register body, so the new account
 * keeps it wherever the verification link is opened. Its own file: the home's first load does not carry it.
 */
import { loadFavouritesStore } from './favourites.ts';

/** The device's favourites for the registration body (so the new account keeps them); none → nothing added. */
export async function withDeviceFavourites<T extends object>(body: T): Promise<T & { favourites?: { ad_id: number; saved_at: string }[] }> {
  try {
    const list = await (await loadFavouritesStore()).deviceFavouritesForRegistration();
    return list.length ? { ...body, favourites: list } : body;
  } catch {
    return body;
  }
}
