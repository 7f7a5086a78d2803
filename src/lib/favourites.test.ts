import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/auth.ts';
import { FAVOURITES_DB_NAME } from './device-databases.ts';
import { USER_QUERY_KEY } from './session.ts';

// The store's real code (Dexie, the outbox) is what the gate keeps off the first visit: replaced by a spy here.
const startFavouritesSync = vi.fn(() => () => {});
const toggle = vi.fn(async () => undefined);
vi.mock('./favourites-store.ts', () => ({ startFavouritesSync, toggle }));

async function freshModule() {
  vi.resetModules();
  return import('./favourites.ts');
}

function deleteDb(name: string) {
  return new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

function createDb(name: string) {
  return new Promise<void>((resolve, reject) => {
    const req = indexedDB.open(name, 1);
    req.onsuccess = () => {
      req.result.close();
      resolve();
    };
    req.onerror = () => reject(req.error ?? new Error('open failed'));
  });
}

const client = () => new QueryClient();
/** Lets the 1 s timer, the database listing and the store's dynamic import run (real timers: IndexedDB uses them). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1200));

describe('startFavouritesWhenIdle', () => {
  beforeEach(async () => {
    startFavouritesSync.mockClear();
    await deleteDb(FAVOURITES_DB_NAME);
  });

  it('leaves the store unloaded for a visitor with nothing saved on this device, until a sign-in', async () => {
    const { startFavouritesWhenIdle } = await freshModule();
    const queryClient = client();
    queryClient.setQueryData(USER_QUERY_KEY, null);
    startFavouritesWhenIdle(queryClient);
    await settle();
    expect(startFavouritesSync).not.toHaveBeenCalled();

    queryClient.setQueryData<User>(USER_QUERY_KEY, { id: 3, role: 'client' } as unknown as User);
    await settle();
    expect(startFavouritesSync).toHaveBeenCalledTimes(1);
    expect(startFavouritesSync).toHaveBeenCalledWith(queryClient);
  });

  it('starts the store after the first heart tapped', async () => {
    const { startFavouritesWhenIdle, toggleFavourite } = await freshModule();
    const queryClient = client();
    queryClient.setQueryData(USER_QUERY_KEY, null);
    startFavouritesWhenIdle(queryClient);
    await settle();
    expect(startFavouritesSync).not.toHaveBeenCalled();
    await toggleFavourite({ id: 5 } as never, queryClient, {} as never);
    await settle();
    expect(toggle).toHaveBeenCalled();
    expect(startFavouritesSync).toHaveBeenCalledTimes(1);
  });

  it('starts the store when the device holds favourites, for a signed-in user, or before the session is known', async () => {
    const first = await freshModule();
    await createDb(FAVOURITES_DB_NAME);
    expect(await first.deviceMayHaveFavourites()).toBe(true);
    first.startFavouritesWhenIdle(client());
    await settle();
    expect(startFavouritesSync).toHaveBeenCalledTimes(1);

    await deleteDb(FAVOURITES_DB_NAME);
    const second = await freshModule();
    expect(await second.deviceMayHaveFavourites()).toBe(false);
    const signed = client();
    signed.setQueryData<User>(USER_QUERY_KEY, { id: 3, role: 'client' } as unknown as User);
    second.startFavouritesWhenIdle(signed);
    await settle();
    expect(startFavouritesSync).toHaveBeenCalledTimes(2);

    // The session not answered yet: started as before (a signed-in user's hearts must not wait).
    const third = await freshModule();
    third.startFavouritesWhenIdle(client());
    await settle();
    expect(startFavouritesSync).toHaveBeenCalledTimes(3);
  });
});
