import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/auth.ts';
import { openOutboxDb, setOutboxDbForTests, type OutboxDb } from '#src/offline/outbox-db.ts';
import { favouritesQueryOptions, reapplyQueued, remove, startFavouritesSync, type FavouriteItem } from './favourites-store.ts';
import { FAVOURITES_DB_NAME } from './device-databases.ts';
import type { Presenter } from './response-handler.ts';
import { USER_QUERY_KEY } from './session.ts';

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
