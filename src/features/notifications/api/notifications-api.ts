/** The bell menu's notifications (GET /api/notifications, mark read, mark all read) as TanStack Query pieces. */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Answer } from '#contract/answers.ts';
import { NOTIFICATIONS_PER_PAGE, type Notification, type NotificationList } from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';
import { NOTIFICATIONS_KEY } from '#src/lib/query-keys.ts';

export { NOTIFICATIONS_KEY };
const LIST_KEY = [...NOTIFICATIONS_KEY, 'list'] as const;

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: LIST_KEY,
    queryFn: ({ signal }) => apiGet<NotificationList>(`${API.notifications}?page=1&per_page=${NOTIFICATIONS_PER_PAGE}`, signal),
    // Live notifications update it in place; a refetch on focus catches anything else.
    staleTime: 30_000,
  });

type ReadAnswer = Answer & { data?: { unread: number } };

export const markNotificationRead = (id: number) => apiRequest<ReadAnswer>(API.notificationRead(id), { method: 'POST', body: {} });
export const markAllNotificationsRead = () => apiRequest<ReadAnswer>(API.notificationsReadAll, { method: 'POST', body: {} });

/** The list as the bell shows it, with `notification` put first (a broadcast one; already there: replaced). */
export function withNotification(list: NotificationList, notification: Notification): NotificationList {
  const known = list.data.some((n) => n.id === notification.id);
  const data = [notification, ...list.data.filter((n) => n.id !== notification.id)].slice(
    0,
    Math.max(list.data.length, NOTIFICATIONS_PER_PAGE),
  );
  const unread = known ? list.meta.unread : list.meta.unread + (notification.read ? 0 : 1);
  return { data, meta: { ...list.meta, unread, total: known ? list.meta.total : list.meta.total + 1 } };
}

/** Marks notifications read in the cached list (`ids` undefined: all of them). */
export function withRead(list: NotificationList, ids: number[] | undefined, unread?: number): NotificationList {
  const now = new Date().toISOString();
  const data = list.data.map((n) => (!n.read && (!ids || ids.includes(n.id)) ? { ...n, read: true, read_at: now } : n));
  const newlyRead = list.data.filter((n) => !n.read && (!ids || ids.includes(n.id))).length;
  return { data, meta: { ...list.meta, unread: unread ?? Math.max(0, list.meta.unread - newlyRead) } };
}

export function updateNotifications(client: QueryClient, update: (list: NotificationList) => NotificationList) {
  client.setQueryData<NotificationList>(LIST_KEY, (list) => (list ? update(list) : list));
}
