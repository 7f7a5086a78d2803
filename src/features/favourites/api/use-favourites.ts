/**
 * The favourites list as the page and the dashboard panel show it: the signed-in account's (TanStack Query, persisted:
 * there offline) or, for a visitor, the device's (IndexedDB, its states refreshed once online).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { startFavouritesWhenIdle } from '#src/lib/favourites.ts';
import {
  deviceFavourites,
  favouritesQueryOptions,
  onDeviceFavouritesChanged,
  reapplyQueued,
  refreshDeviceStates,
  remove,
  type FavouriteItem,
} from '#src/lib/favourites-store.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { useCurrentUser } from '#src/lib/session.ts';

export type { FavouriteItem };

export interface FavouritesList {
  items: FavouriteItem[] | undefined;
  /** Kept on this device (a visitor), not on an account. */
  onDevice: boolean;
  /** Nothing to show for want of a network (the account's list was never loaded here). */
  offlineWithoutData: boolean;
  remove: (adId: number) => void;
}

function useDeviceList(enabled: boolean): FavouriteItem[] | undefined {
  const [items, setItems] = useState<FavouriteItem[]>();
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    const read = () =>
      void deviceFavourites().then(
        (list) => !cancelled && setItems(list),
        () => !cancelled && setItems([]),
      );
    const off = onDeviceFavouritesChanged(read);
    read();
    void refreshDeviceStates();
    return () => {
      cancelled = true;
      off();
    };
  }, [enabled]);
  return items;
}

export function useFavourites(): FavouritesList {
  const queryClient = useQueryClient();
  const ui = usePresenter();
  const userQuery = useCurrentUser();
  // Offline on a first visit the session cannot be asked: what this device holds is a visitor's list.
  const user = userQuery.data !== undefined ? userQuery.data : userQuery.isError ? null : undefined;
  const account = useQuery({ ...favouritesQueryOptions(user?.id ?? 0), enabled: !!user });
  const device = useDeviceList(user === null);
  // The hearts and the header's count follow the same store; on this page it starts at once.
  useEffect(() => startFavouritesWhenIdle(queryClient), [queryClient]);
  // A list restored from the saved copy may predate heart flips still queued: they are applied over it again.
  useEffect(() => {
    if (user) void reapplyQueued(queryClient, user.id);
  }, [queryClient, user]);
  return {
    items: user ? account.data : user === null ? device : undefined,
    onDevice: user === null,
    offlineWithoutData: !!user && account.data === undefined && (account.fetchStatus === 'paused' || account.isError),
    remove: (adId) => void remove(adId, queryClient, ui),
  };
}
