/**
 * The persisted query cache's storage: one IndexedDB object store of strings (the persister writes the whole cache
 * as one JSON string under one key). IndexedDB rather than localStorage: asynchronous (a large cache never blocks the
 * page) and not limited to 5 MB.
 */
import type { AsyncStorage } from '@tanstack/react-query-persist-client';
import { openDB, type IDBPDatabase } from 'idb';

export const QUERY_CACHE_DB = 'vitrina-query-cache';
export const QUERY_CACHE_STORE = 'kv';
/** The key the persister writes the cache under. */
export const QUERY_CACHE_KEY = 'queries';

export function createIdbQueryStorage(name = QUERY_CACHE_DB): AsyncStorage<string> {
  let db: Promise<IDBPDatabase> | undefined;
  const open = () => {
    db ??= openDB(name, 1, {
      upgrade(database) {
        database.createObjectStore(QUERY_CACHE_STORE);
      },
      // Another tab deletes or upgrades the database: let it, and open again on next use.
      blocking() {
        void db?.then((d) => d.close());
        db = undefined;
      },
    });
    return db;
  };
  return {
    async getItem(key) {
      const value: unknown = await (await open()).get(QUERY_CACHE_STORE, key);
      return typeof value === 'string' ? value : null;
    },
    async setItem(key, value) {
      await (await open()).put(QUERY_CACHE_STORE, value, key);
    },
    async removeItem(key) {
      await (await open()).delete(QUERY_CACHE_STORE, key);
    },
  };
}

export const idbQueryStorage = createIdbQueryStorage();
