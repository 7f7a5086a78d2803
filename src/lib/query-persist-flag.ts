/**
 * Whether this browser holds a persisted query cache, readable at once (localStorage) before the cache's own code and
 * IndexedDB are: a first visit has none, so its queries need not wait for a restore (app.tsx).
 */
const FLAG_KEY = 'vitrina-query-cache';

export function hasPersistedQueries(): boolean {
  try {
    return localStorage.getItem(FLAG_KEY) === '1';
  } catch {
    return false;
  }
}

export function markPersistedQueries(present: boolean): void {
  try {
    if (present) localStorage.setItem(FLAG_KEY, '1');
    else localStorage.removeItem(FLAG_KEY);
  } catch {
    // Storage refused (a private window's quota): the next start waits for the restore as if there were a copy.
  }
}
