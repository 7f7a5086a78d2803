import 'fake-indexeddb/auto';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/auth.ts';
import type { ModelCard } from '#contract/listings.ts';
import { openOutboxDb, setOutboxDbForTests, type OutboxDb } from '#src/offline/outbox-db.ts';
import { favouritesQueryOptions, reapplyQueued, remove, startFavouritesSync, toggle, type FavouriteItem } from './favourites-store.ts';
import { FAVOURITES_DB_NAME } from './device-databases.ts';
import type { Presenter } from './response-handler.ts';
import { markSessionEnded, setCurrentUser, USER_QUERY_KEY } from './session.ts';

const USER = { id: 7, name: 'Clienta', role: 'client' } as unknown as User;
const key = favouritesQueryOptions(USER.id).queryKey;
const item = (adId: number): FavouriteItem => ({ ad_id: adId, saved_at: '2026-11-29T08:00:00.000Z', state: 'available', card: null });
const ui: Presenter = { t: (k) => k, notify: vi.fn(), openModal: vi.fn(), navigate: vi.fn() };

/** A page's cache: the signed-in user and the account's list as of `at` (what a restored saved copy holds). */
function pageWith(list: FavouriteItem[] | undefined, at: number): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, networkMode: 'offlineFirst' } } });
  client.setQueryData(USER_QUERY_KEY, USER);
  if (list) client.setQueryData(key, list, { updatedAt: at });
  return client;
}

let outbox: OutboxDb;
let n = 0;
beforeEach(() => {
  outbox = openOutboxDb(`favourites-store-test-${++n}`);
  setOutboxDbForTests(outbox);
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
});
afterEach(async () => {
  vi.restoreAllMocks();
  setOutboxDbForTests(undefined);
  outbox.close();
  await outbox.delete();
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(FAVOURITES_DB_NAME);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
});

describe('the signed-in account’s list after a reload (the saved query copy is written at most once a second)', () => {
  it('a removal made offline, then a reload whose restored copy predates the hearts: the remaining one, not an empty list', async () => {
    const before = Date.now() - 5_000;
    const page = pageWith([item(2), item(1)], before);
    await remove(1, page, ui);
    expect(page.getQueryData(key)).toEqual([item(2)]);
    expect((await outbox.ops.toArray()).map((o) => o.kind)).toEqual(['favourite.remove']);

    // The reload: the saved copy was last written before the two hearts were added.
    const reloaded = pageWith([], before - 10_000);
    await reapplyQueued(reloaded, USER.id);
    expect(reloaded.getQueryData(key)).toEqual([item(2)]);
  });

  it('the removal already replayed (by the worker) and a restored copy that still holds it: not shown again', async () => {
    const before = Date.now() - 5_000;
    const page = pageWith([item(2), item(1)], before);
    await remove(1, page, ui);
    await outbox.ops.clear();

    const reloaded = pageWith([item(2), item(1)], before);
    await reapplyQueued(reloaded, USER.id);
    expect(reloaded.getQueryData(key)).toEqual([item(2)]);
  });

  it('a restored copy with no list at all gets the kept one; a newer answer than the kept one is left as it is', async () => {
    const page = pageWith([item(2), item(1)], Date.now() - 5_000);
    await remove(1, page, ui);

    const empty = pageWith(undefined, 0);
    await reapplyQueued(empty, USER.id);
    expect(empty.getQueryData(key)).toEqual([item(2)]);

    await outbox.ops.clear();
    const fresher = pageWith([item(3), item(2)], Date.now() + 1_000);
    await reapplyQueued(fresher, USER.id);
    expect(fresher.getQueryData(key)).toEqual([item(3), item(2)]);
  });

  it('another user (or no one) signing in on this device drops the kept list', async () => {
    const page = pageWith([item(2), item(1)], Date.now() - 5_000);
    await remove(1, page, ui);
    await outbox.ops.clear();

    const visitor = new QueryClient();
    visitor.setQueryData(USER_QUERY_KEY, null);
    const stop = startFavouritesSync(visitor);
    await vi.waitFor(async () => {
      const later = pageWith(undefined, 0);
      await reapplyQueued(later, USER.id);
      expect(later.getQueryData(key)).toBeUndefined();
    });
    stop();
  });
});

describe('a heart tapped while the account’s list is being fetched (the sync’s first fetch races the first heart)', () => {
  interface Pending {
    method: string;
    answer: (body: unknown) => void;
  }
  let requests: Pending[];
  const answered = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  const next = async (method: string): Promise<Pending> => {
    let found: Pending | undefined;
    await vi.waitFor(() => {
      found = requests.find((r) => r.method === method);
      expect(found).toBeDefined();
    });
    requests.splice(requests.indexOf(found!), 1);
    return found!;
  };
  const ids = (page: QueryClient) => page.getQueryData<FavouriteItem[]>(key)?.map((f) => f.ad_id);
  const card = { id: 5, name: 'Ana' } as unknown as ModelCard;

  beforeEach(() => {
    requests = [];
    document.cookie = 'XSRF-TOKEN=token';
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init?: RequestInit) =>
          new Promise<Response>((resolve) => requests.push({ method: init?.method ?? 'GET', answer: (body) => resolve(answered(body)) })),
      ),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  /** The page's list followed as the sync follows it: its first fetch starts at once. */
  function followed(page: QueryClient) {
    return new QueryObserver(page, favouritesQueryOptions(USER.id)).subscribe(() => {});
  }

  it('a list read by the server before the heart, answered after the tap: the heart stays saved, the others come', async () => {
    const page = pageWith(undefined, 0);
    const stop = followed(page);
    const firstList = await next('GET');
    const tapped = toggle(card, page, ui);
    await vi.waitFor(() => expect(ids(page)).toEqual([5]));
    firstList.answer({ data: [] });
    const put = await next('PUT');
    expect(ids(page)).toEqual([5]);
    put.answer({ data: item(5) });
    await tapped;
    expect(ids(page)).toEqual([5]);
    // The fetch the tap cancelled is made again: the account's other favourite (saved on another device) is listed.
    (await next('GET')).answer({ data: [item(5), item(3)] });
    await vi.waitFor(() => expect(ids(page)).toEqual([5, 3]));
    stop();
  });

  /** A heart tapped on a page holding an empty list, its PUT under way, then a fetch of the list started. */
  async function tapThenFetch() {
    const page = pageWith([], Date.now() - 5_000);
    const tapped = toggle(card, page, ui);
    const put = await next('PUT');
    const stop = followed(page);
    return { page, tapped, put, stop, list: await next('GET') };
  }

  it('a fetch started after the tap and answered (without it) while it is sent: the heart stays saved', async () => {
    const { page, tapped, put, stop, list } = await tapThenFetch();
    list.answer({ data: [] });
    await vi.waitFor(() => expect(page.isFetching({ queryKey: key })).toBe(0));
    expect(ids(page)).toEqual([5]);
    put.answer({ data: item(5) });
    await tapped;
    expect(ids(page)).toEqual([5]);
    stop();
  });

  it('a fetch read before the heart reached the server and answered after its answer: asked again, not shown', async () => {
    const { page, tapped, put, stop, list: stale } = await tapThenFetch();
    put.answer({ data: item(5) });
    await tapped;
    stale.answer({ data: [] });
    (await next('GET')).answer({ data: [item(5)] });
    await vi.waitFor(() => expect(page.isFetching({ queryKey: key })).toBe(0));
    expect(ids(page)).toEqual([5]);
    stop();
  });
});

describe('a session ended on the server while the page still shows its user (sign-out, account deletion)', () => {
  const asked: string[] = [];
  beforeEach(() => {
    asked.length = 0;
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        asked.push(String(url));
        return Promise.resolve(new Response(JSON.stringify({ data: [] }), { headers: { 'Content-Type': 'application/json' } }));
      }),
    );
  });
  afterEach(() => {
    markSessionEnded(undefined);
    vi.unstubAllGlobals();
  });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('the sync started then asks nothing of the account (its answer would be a 401)', async () => {
    const page = pageWith(undefined, 0);
    markSessionEnded(USER.id);
    const stop = startFavouritesSync(page);
    await settled();
    expect(asked.filter((u) => u.endsWith('/api/favourites'))).toEqual([]);
    stop();
  });

  it('the same page with its session still on: the account’s list is asked for', async () => {
    const page = pageWith(undefined, 0);
    const stop = startFavouritesSync(page);
    await vi.waitFor(() => expect(asked.filter((u) => u.endsWith('/api/favourites'))).toHaveLength(1));
    stop();
  });

  it('someone signing in again afterwards is followed as before', async () => {
    const page = pageWith(undefined, 0);
    markSessionEnded(USER.id);
    const stop = startFavouritesSync(page);
    await settled();
    setCurrentUser(page, { ...USER, id: 8 });
    await vi.waitFor(() => expect(asked.filter((u) => u.endsWith('/api/favourites'))).toHaveLength(1));
    stop();
  });
});
