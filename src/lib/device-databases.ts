/**
 * Whether this device may hold an IndexedDB database, asked without opening it (nor loading Dexie): false only when
 * the browser lists its databases and this one is not among them. A browser that cannot list them (older Firefox) is
 * assumed to have it. Lets a first visit skip the code of lists it has never kept (favourites, recently viewed).
 */
/** The visitor's favourites (favourites-store.ts opens it with Dexie). */
export const FAVOURITES_DB_NAME = 'vitrina-favourites';
/** The recently viewed models (recent-views-store.ts opens it with Dexie). */
export const RECENT_VIEWS_DB_NAME = 'vitrina-recent-views';

export async function deviceMayHaveDatabase(name: string): Promise<boolean> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return true;
  try {
    return (await indexedDB.databases()).some((db) => db.name === name);
  } catch {
    return true;
  }
}
