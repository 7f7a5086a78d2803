/**
 * TanStack Query's cache kept in IndexedDB (query-persist-store.ts), so what was seen online is there after a reload
 * without a network. Loaded lazily by main.tsx (the home route's first load goes without it); until it has restored,
 * queries wait (App's IsRestoringProvider).
 *
 * What is kept: successful answers only, at most MAX_PERSISTED_QUERIES of them (the newest), for 7 days, dropped by a
 * new build (`buster`: the build id). Public answers (listings, model pages, reference data) are kept for everyone.
 * Everything else is private (the user's profile, conversations, staff lists…): kept only while someone is signed in,
 * and with it the `['user']` answer, whose id is the owner of the private part. Private entries are wiped when the
 * user changes in this tab (logout, account deletion, session expiry, another user signing in) and, at start, when
 * the server names another user (or none) than the one they were kept for. Without a network the owner cannot be
 * checked: the private part is restored, as the browser kept the session cookie too.
 */
import { API } from '#contract/routes.ts';
import {
  dehydrate,
  hydrate,
  onlineManager,
  type DehydratedState,
  type Query,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { persistQueryClientSubscribe, type AsyncStorage, type PersistedClient, type Persister } from '@tanstack/react-query-persist-client';
import type { User } from '#contract/auth.ts';
import { apiGet } from './api-client.ts';
import { markPersistedQueries } from './query-persist-flag.ts';
import { idbQueryStorage, QUERY_CACHE_KEY } from './query-persist-store.ts';
import { USER_QUERY_KEY } from './session.ts';
import { PUSH_CACHE, PUSH_CACHE_OWNER } from '../../sw/push-cache.ts';

export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const MAX_PERSISTED_QUERIES = 150;
/** How long the start waits for the server to say who is signed in before trusting the saved owner. */
const SESSION_CHECK_TIMEOUT_MS = 4000;

/** Answers that are the same for every visitor (the service worker keeps their URLs too, sw/runtime-cache.ts). */
const PUBLIC_ROOTS = new Set([
  'models',
  'model',
  'model-images',
  'publicity-ads',
  'sections',
  'city',
  'countries',
  'country',
  'cities',
  'legal',
]);
/** Never kept: type-ahead answers (many, short-lived) and one-time links' answers. */
const EXCLUDED_ROOTS = new Set(['city-search', 'consent']);

const root = (key: QueryKey): unknown => key[0];
export const isPublicKey = (key: QueryKey): boolean => PUBLIC_ROOTS.has(String(root(key)));
const isUserKey = (key: QueryKey): boolean => root(key) === USER_QUERY_KEY[0];
const isExcludedKey = (key: QueryKey): boolean => EXCLUDED_ROOTS.has(String(root(key)));
/** Private answers, the `['user']` one aside (it names their owner). */
export const isPrivateKey = (key: QueryKey): boolean => !isPublicKey(key) && !isUserKey(key) && !isExcludedKey(key);

function signedInUser(client: QueryClient): User | null | undefined {
  return client.getQueryData<User | null>(USER_QUERY_KEY);
}

/** Whether a query goes into the saved copy now (a query may also opt out with `meta: { persist: false }`). */
export function shouldPersistQuery(query: Query, client: QueryClient): boolean {
  // A refresh that failed (offline) keeps the answer it had: that answer stays in the copy too (saved as it was, see
  // lastGoodAnswers) — else the session copy itself ('user') left the disk at the first failed check offline.
  const answered = query.state.status === 'success' || (query.state.status === 'error' && query.state.data !== undefined);
  if (!answered || query.meta?.persist === false || isExcludedKey(query.queryKey)) return false;
  if (isPublicKey(query.queryKey)) return true;
  // The user and their private answers only while someone is signed in: a visitor's copy holds public answers only.
  return !!signedInUser(client);
}

/** The owner of a saved copy's private part: the id in its `['user']` answer. */
export function ownerOf(state: DehydratedState): number | null {
  const user = state.queries.find((q) => isUserKey(q.queryKey))?.state.data as User | null | undefined;
  return user?.id ?? null;
}

/** The saved copy split into what anyone may see and what belongs to its owner (the `['user']` answer included). */
export function splitByOwner(state: DehydratedState): { shared: DehydratedState; own: DehydratedState } {
  const isShared = (key: QueryKey) => isPublicKey(key);
  return {
    shared: { mutations: [], queries: state.queries.filter((q) => isShared(q.queryKey)) },
    own: { mutations: [], queries: state.queries.filter((q) => !isShared(q.queryKey) && !isExcludedKey(q.queryKey)) },
  };
}

/** The newest `max` queries: a long browse does not make every save write hundreds of answers. */
export function newestQueries(client: PersistedClient, max = MAX_PERSISTED_QUERIES): PersistedClient {
  const { queries } = client.clientState;
  if (queries.length <= max) return client;
  // The user's own answer is never the one dropped: it names the owner of the rest.
  const sorted = [...queries].sort(
    (a, b) => Number(isUserKey(b.queryKey)) - Number(isUserKey(a.queryKey)) || b.state.dataUpdatedAt - a.state.dataUpdatedAt,
  );
  return { ...client, clientState: { ...client.clientState, queries: sorted.slice(0, max) } };
}

/** Queries whose last refresh failed are saved as the answer they still hold, not as the failure. */
export function lastGoodAnswers(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((q) =>
    q.state.status === 'error' && q.state.data !== undefined
      ? { ...q, state: { ...q.state, status: 'success' as const, error: null, fetchFailureCount: 0, fetchFailureReason: null } }
      : q,
  );
  return { ...client, clientState: { ...client.clientState, queries } };
}

/** Who the server says is signed in; `unknown` when it could not be asked (offline, timeout, server error). */
export type SessionCheck = { known: true; user: User | null } | { known: false };

async function askSession(): Promise<SessionCheck> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return { known: false };
  try {
    const { data } = await apiGet<{ data: User | null }>(API.session, AbortSignal.timeout(SESSION_CHECK_TIMEOUT_MS));
    return { known: true, user: data };
  } catch {
    return { known: false };
  }
}

export interface QueryPersistenceOptions {
  buster: string;
  storage?: AsyncStorage<string>;
  checkSession?: () => Promise<SessionCheck>;
  now?: () => number;
  /** Milliseconds between saves (the persister's throttle). */
  throttleMs?: number;
}

export interface QueryPersistence {
  /** Resolves once the saved copy is in the cache (or found unusable and removed). */
  restored: Promise<void>;
  /** Writes the cache now (tests; the persister otherwise saves at most once a `throttleMs`). */
  flush: () => Promise<void>;
  stop: () => void;
}

/**
 * Restores the saved copy into `client`, then keeps saving it as the cache changes and wipes the private part when
 * the signed-in user changes.
 */
export function startQueryPersistence(client: QueryClient, options: QueryPersistenceOptions): QueryPersistence {
  const storage = options.storage ?? idbQueryStorage;
  const now = options.now ?? Date.now;
  const checkSession = options.checkSession ?? askSession;
  const persister: Persister = createAsyncStoragePersister({
    storage,
    key: QUERY_CACHE_KEY,
    throttleTime: options.throttleMs ?? 1000,
    serialize: (persisted) => {
      markPersistedQueries(true);
      return JSON.stringify(newestQueries(lastGoodAnswers(persisted)));
    },
  });
  const persistOptions = {
    queryClient: client,
    persister,
    buster: options.buster,
    dehydrateOptions: {
      shouldDehydrateQuery: (query: Query) => shouldPersistQuery(query, client),
      // Writes made offline wait in the outbox (src/offline/), not as paused mutations.
      shouldDehydrateMutation: () => false,
    },
  };
  // Bypasses the throttle: after a wipe, what is on disk must lose the private part at once (the tab may close).
  const saveNow = async () => {
    const persisted: PersistedClient = {
      buster: options.buster,
      timestamp: now(),
      clientState: dehydrate(client, persistOptions.dehydrateOptions),
    };
    markPersistedQueries(true);
    await storage.setItem(QUERY_CACHE_KEY, JSON.stringify(newestQueries(lastGoodAnswers(persisted))));
  };

  let stopped = false;
  const stops: (() => void)[] = [];
  // What was put back from the saved copy, by query hash: the answer's time, to tell a restored answer from a newer one
  // (the page's own first-screen answer, or a fetch that won the race) that hydrate() kept instead.
  const restoredAt = new Map<string, number>();
  const hydrateSaved = (state: PersistedClient['clientState']) => {
    for (const q of state.queries) restoredAt.set(q.queryHash, q.state.dataUpdatedAt);
    hydrate(client, state);
  };

  const restore = async () => {
    // Without a network, queries wait rather than fail (the restored answers stay on screen, not an error).
    if (typeof navigator !== 'undefined' && !navigator.onLine) onlineManager.setOnline(false);
    let saved: PersistedClient | undefined;
    try {
      saved = await persister.restoreClient();
    } catch {
      await Promise.resolve(persister.removeClient()).catch(() => undefined);
      return;
    }
    if (!saved) return;
    if (saved.buster !== options.buster || !saved.timestamp || now() - saved.timestamp > PERSIST_MAX_AGE_MS) {
      await persister.removeClient();
      return;
    }
    // The copy is re-saved whenever anything changes: an answer in it may be older than the copy.
    const fresh = saved.clientState.queries.filter((q) => now() - q.state.dataUpdatedAt <= PERSIST_MAX_AGE_MS);
    const { shared, own } = splitByOwner({ ...saved.clientState, queries: fresh });
    hydrateSaved(shared);
    const owner = ownerOf(saved.clientState);
    if (owner === null || own.queries.length === 0) return;
    const session = await checkSession();
    if (!session.known) {
      hydrateSaved(own);
    } else if (session.user?.id === owner) {
      hydrateSaved(own);
      client.setQueryData(USER_QUERY_KEY, session.user);
    } else {
      // Someone else (or no one) is signed in on this browser now: the previous user's answers go.
      client.setQueryData(USER_QUERY_KEY, session.user);
      await saveNow();
    }
  };

  const restored = (async () => {
    try {
      await restore();
      // A saved answer is shown while a fresh one comes, not instead of it: the copy may predate the last change (it is
      // saved a moment after each one, and a reload or another tab can come first), and it was fresh when it was saved.
      // Marked stale without fetching now, every restored query asks again once it is on screen (and online). Only the
      // restored ones: the answers the page came with are fresh, and asking for them again on a first visit re-rendered
      // the whole listing during its hydration (one long task on a phone).
      await client.invalidateQueries({
        refetchType: 'none',
        predicate: (query) => restoredAt.has(query.queryHash) && restoredAt.get(query.queryHash) === query.state.dataUpdatedAt,
      });
    } finally {
      // From now on, every change is saved (the restored answers were not: they are on disk already).
      if (!stopped) {
        stops.push(persistQueryClientSubscribe(persistOptions));
        stops.push(watchUser(client, saveNow));
        stops.push(saveOnLeave(saveNow));
      }
    }
  })();

  return {
    restored,
    flush: async () => {
      await restored.catch(() => undefined);
      await saveNow();
    },
    stop: () => {
      stopped = true;
      for (const stop of stops) stop();
    },
  };
}

/**
 * The persister saves at most once a second: a reload or a closed tab within that second would restore an older copy
 * (an offline change shown, then gone after the reload). Leaving the page (`pagehide`, or hidden: a phone's app switch
 * may be the last event the page gets) saves at once; IndexedDB finishes a write begun there in practice.
 */
function saveOnLeave(saveNow: () => Promise<void>): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const save = () => void saveNow().catch(() => undefined);
  const onHidden = () => {
    if (document.visibilityState === 'hidden') save();
  };
  window.addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    window.removeEventListener('pagehide', save);
    document.removeEventListener('visibilitychange', onHidden);
  };
}

/**
 * What pushes prefetched for offline use (sw/push.ts) are one user's private answers, served by the worker when the
 * network fails: a session that ended without a sign-out here (expired, ended elsewhere) and another user signing in
 * on this device must not find them. Dropped unless they belong to the user now signed in.
 */
async function dropForeignPushCache(userId: number | null): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    if (!(await caches.has(PUSH_CACHE))) return;
    const owner = await (await caches.open(PUSH_CACHE)).match(PUSH_CACHE_OWNER);
    if (userId === null || !owner || (await owner.text()) !== String(userId)) await caches.delete(PUSH_CACHE);
  } catch {
    // Storage unavailable: nothing kept there either.
  }
}

/** When the signed-in user changes (to another or to none), the previous one's answers leave the cache and the disk. */
function watchUser(client: QueryClient, saveNow: () => Promise<void>): () => void {
  let current = signedInUser(client)?.id ?? null;
  return client.getQueryCache().subscribe((event) => {
    const query = event.query as Query;
    if (event.type !== 'updated' || !isUserKey(query.queryKey) || query.state.status !== 'success') return;
    const next = (query.state.data as User | null | undefined)?.id ?? null;
    if (next === current) return;
    const previous = current;
    current = next;
    void dropForeignPushCache(next);
    if (previous === null) return;
    client.removeQueries({ predicate: (q) => isPrivateKey(q.queryKey) });
    void saveNow().catch(() => undefined);
  });
}
