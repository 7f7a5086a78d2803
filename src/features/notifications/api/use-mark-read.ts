/**
 * Marking notifications read (some, or all with `undefined`), shown at once in every list that reads the query (the
 * bell and the dashboard's panel); on failure the list is asked again rather than guessed.
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  markAllNotificationsRead,
  markNotificationRead,
  notificationsQueryOptions,
  updateNotifications,
  withRead,
} from './notifications-api.ts';

export function useMarkRead() {
  const queryClient = useQueryClient();
  return async (ids: number[] | undefined) => {
    updateNotifications(queryClient, (list) => withRead(list, ids));
    try {
      const res = ids ? await Promise.all(ids.map((id) => markNotificationRead(id))) : [await markAllNotificationsRead()];
      const unread = res.at(-1)?.data.data?.unread;
      if (typeof unread === 'number') updateNotifications(queryClient, (list) => ({ ...list, meta: { ...list.meta, unread } }));
    } catch {
      await queryClient.invalidateQueries({ queryKey: notificationsQueryOptions().queryKey });
    }
  };
}
