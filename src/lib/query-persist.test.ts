import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '#contract/auth.ts';
import { PERSIST_MAX_AGE_MS, startQueryPersistence, type QueryPersistence, type SessionCheck } from './query-persist.ts';
import { createIdbQueryStorage, QUERY_CACHE_KEY } from './query-persist-store.ts';

const userA = { id: 1, name: 'Ana' } as unknown as User;
const userB = { id: 2, name: 'Bea' } as unknown as User;
const LISTING = ['models', 'es', { page: 1 }];
const PROFILE = ['profile', 'model'];
const THREADS = ['messenger', 'conversations', {}];

let running: QueryPersistence[] = [];
// One database per test: a save still under way when a test ends lands in its own database, not the next test's.
let dbCount = 0;
let storage = createIdbQueryStorage();

function start(client: QueryClient, session: SessionCheck, opts: { buster?: string; now?: () => number } = {}) {
  const p = startQueryPersistence(client, {
    storage,
    buster: opts.buster ?? 'build-1',
    checkSession: async () => session,
    now: opts.now,
    throttleMs: 0,
  });
  running.push(p);
  return p;
}

async function savedKeys(): Promise<string[]> {
  const text = await storage.getItem(QUERY_CACHE_KEY);
  if (!text) return [];
  const saved = JSON.parse(text) as { clientState: { queries: { queryKey: unknown[] }[] } };
  return saved.clientState.queries.map((q) => String(q.queryKey[0]));
}

/**
 * A tab where `user` is signed in and has seen a listing, their profile and their conversations, saved to disk. The
 * answers are in before persistence starts, so no throttled save is left to land after the test's own.
 */
async function signedInTab(user: User, session: SessionCheck = { known: false }) {
  const client = new QueryClient();
  client.setQueryData(['user'], user);
  client.setQueryData(LISTING, { data: [{ id: 7 }] });
  client.setQueryData(PROFILE, { id: 70, owner: user.id });
  client.setQueryData(THREADS, [{ id: 3 }]);
  const p = start(client, session);
  await p.restored;
  await p.flush();
  return { client, p };
}

beforeEach(() => {
  dbCount += 1;
  storage = createIdbQueryStorage(`query-cache-test-${dbCount}`);
});
afterEach(() => {
  for (const p of running) p.stop();
  running = [];
});

describe('persisted query cache', () => {
  it('keeps public and private answers for the signed-in user and restores them when the server names the same user', async () => {
    (await signedInTab(userA)).p.stop();
    expect((await savedKeys()).sort()).toEqual(['messenger', 'models', 'profile', 'user']);

    const next = new QueryClient();
    await start(next, { known: true, user: userA }).restored;
    expect(next.getQueryData(LISTING)).toEqual({ data: [{ id: 7 }] });
    expect(next.getQueryData(PROFILE)).toEqual({ id: 70, owner: 1 });
    expect(next.getQueryData(['user'])).toEqual(userA);
  });

  it('saves at once when the page is left, within the throttle’s second (a reload must not restore an older copy)', async () => {
    const client = new QueryClient();
    client.setQueryData(LISTING, { data: [{ id: 7 }] });
    const p = startQueryPersistence(client, {
      storage,
      buster: 'build-1',
      checkSession: async () => ({ known: false }),
      throttleMs: 60_000,
    });
    running.push(p);
    await p.restored;
    const savedListing = async () => {
      const text = await storage.getItem(QUERY_CACHE_KEY);
      const saved = text ? (JSON.parse(text) as { clientState: { queries: { state: { data: unknown } }[] } }) : undefined;
      return saved?.clientState.queries[0]?.state.data;
    };
    // The first change is saved at once (the throttle's leading edge); the next one waits out the throttle.
    client.setQueryData(LISTING, { data: [{ id: 8 }] });
    await expect.poll(savedListing).toEqual({ data: [{ id: 8 }] });
    client.setQueryData(LISTING, { data: [{ id: 9 }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await savedListing()).toEqual({ data: [{ id: 8 }] });
    window.dispatchEvent(new Event('pagehide'));
    await expect.poll(savedListing).toEqual({ data: [{ id: 9 }] });
  });

  it('marks only the restored answers stale: what the page came with is not asked for again', async () => {
    (await signedInTab(userA)).p.stop();

    const next = new QueryClient();
    // The first screen's answers (server-rendered page): in the cache before the saved copy is read, newer than it.
    next.setQueryData(['sections'], [{ slug: 'escorts' }]);
    next.setQueryData(LISTING, { data: [{ id: 8 }] }, { updatedAt: Date.now() + 1000 });
    await start(next, { known: true, user: userA }).restored;
    const state = (key: unknown[]) => next.getQueryCache().find({ queryKey: key, exact: true })!.state;
    expect(state(['sections']).isInvalidated).toBe(false);
    expect(next.getQueryData(LISTING)).toEqual({ data: [{ id: 8 }] });
    expect(state(LISTING).isInvalidated).toBe(false);
    expect(state(PROFILE).isInvalidated).toBe(true);
    expect(state(THREADS).isInvalidated).toBe(true);
  });

  it('drops the private answers when another user is signed in on this browser at start', async () => {
    (await signedInTab(userA)).p.stop();
    const next = new QueryClient();
    await start(next, { known: true, user: userB }).restored;
    expect(next.getQueryData(LISTING)).toEqual({ data: [{ id: 7 }] });
    expect(next.getQueryData(PROFILE)).toBeUndefined();
    expect(next.getQueryData(THREADS)).toBeUndefined();
    expect(next.getQueryData(['user'])).toEqual(userB);
    expect((await savedKeys()).sort()).toEqual(['models', 'user']);
  });

  it('drops the private answers when the server says nobody is signed in (session ended elsewhere)', async () => {
    (await signedInTab(userA)).p.stop();
    const next = new QueryClient();
    await start(next, { known: true, user: null }).restored;
    expect(next.getQueryData(PROFILE)).toBeUndefined();
    expect(next.getQueryData(['user'])).toBeNull();
    expect(await savedKeys()).toEqual(['models']);
  });

  it('restores the private answers offline, when the owner cannot be checked', async () => {
    (await signedInTab(userA)).p.stop();
    const next = new QueryClient();
    await start(next, { known: false }).restored;
    expect(next.getQueryData(PROFILE)).toEqual({ id: 70, owner: 1 });
    expect(next.getQueryData(['user'])).toEqual(userA);
  });

  it('wipes the private answers from memory and disk on logout', async () => {
    const { client, p } = await signedInTab(userA);
    client.setQueryData(['user'], null);
    expect(client.getQueryData(PROFILE)).toBeUndefined();
    expect(client.getQueryData(THREADS)).toBeUndefined();
    expect(client.getQueryData(LISTING)).toEqual({ data: [{ id: 7 }] });
    await p.flush();
    expect(await savedKeys()).toEqual(['models']);
  });

  it('wipes the previous user’s private answers when another user signs in in the same tab', async () => {
    const { client, p } = await signedInTab(userA);
    client.setQueryData(['user'], userB);
    await p.flush();
    expect(client.getQueryData(PROFILE)).toBeUndefined();
    expect((await savedKeys()).sort()).toEqual(['models', 'user']);
  });

  it('keeps the answer a failed refresh left in place (the session checked offline), saved as that answer', async () => {
    const { client, p } = await signedInTab(userA);
    await client
      .fetchQuery({ queryKey: ['user'], queryFn: () => Promise.reject(new Error('offline')), retry: false, staleTime: 0 })
      .catch(() => undefined);
    expect(client.getQueryState(['user'])?.status).toBe('error');
    await p.flush();
    const text = (await storage.getItem(QUERY_CACHE_KEY))!;
    const user = (
      JSON.parse(text) as { clientState: { queries: { queryKey: unknown[]; state: { status: string; data: unknown } }[] } }
    ).clientState.queries.find((q) => q.queryKey[0] === 'user');
    expect(user?.state).toMatchObject({ status: 'success', data: userA });
  });

  it('never keeps private answers for a visitor, failed answers or type-ahead answers', async () => {
    const client = new QueryClient();
    const p = start(client, { known: false });
    await p.restored;
    client.setQueryData(['user'], null);
    client.setQueryData(LISTING, { data: [] });
    client.setQueryData(PROFILE, { id: 70 });
    client.setQueryData(['city-search', 'mad'], [{ id: 1 }]);
    await client.prefetchQuery({ queryKey: ['model', '9', 'es'], queryFn: () => Promise.reject(new Error('offline')), retry: false });
    await p.flush();
    expect(await savedKeys()).toEqual(['models']);
  });

  it('leaves out an answer fetched more than 7 days ago from a copy saved since', async () => {
    const client = new QueryClient();
    client.setQueryData(LISTING, { data: [{ id: 7 }] }, { updatedAt: Date.now() - PERSIST_MAX_AGE_MS - 1000 });
    client.setQueryData(['sections'], [{ id: 1 }]);
    const p = start(client, { known: false });
    await p.restored;
    await p.flush();
    p.stop();
    const next = new QueryClient();
    await start(next, { known: false }).restored;
    expect(next.getQueryData(['sections'])).toEqual([{ id: 1 }]);
    expect(next.getQueryData(LISTING)).toBeUndefined();
  });

  it('discards a copy written by another build (buster) or older than 7 days', async () => {
    (await signedInTab(userA)).p.stop();
    const other = new QueryClient();
    await start(other, { known: true, user: userA }, { buster: 'build-2' }).restored;
    expect(other.getQueryData(LISTING)).toBeUndefined();
    expect(await storage.getItem(QUERY_CACHE_KEY)).toBeNull();

    (await signedInTab(userA)).p.stop();
    const later = new QueryClient();
    await start(later, { known: true, user: userA }, { now: () => Date.now() + PERSIST_MAX_AGE_MS + 1 }).restored;
    expect(later.getQueryData(LISTING)).toBeUndefined();
    expect(await storage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });
});
