/**
 * Receives the user's notifications as they are broadcast on `private-App.Models.User.{id}` and shows each at once
 * as the spec's notification (one at a time, 4.5 s, top right: the shared notice layer, src/lib/presenter.tsx),
 * puts it first in the bell's list, and refreshes the queries it names (`data.refresh`), so an open dashboard shows an
 * admin's decision without a reload. Which queries a scope means is the app's to say (`refreshKeys`): features
 * never import each other.
 */
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { notificationBroadcastSchema, type Notification, type RefreshScope } from '#contract/notifications.ts';
import { showNotice } from '#src/lib/presenter.tsx';
import type { Notice } from '#src/lib/response-handler.ts';
import { useCatchUp, useUserNotifications } from '#src/realtime/hooks.ts';
import { NOTIFICATIONS_KEY, updateNotifications, withNotification } from '../api/notifications-api.ts';

export type RefreshKeys = Record<RefreshScope, readonly QueryKey[]>;

export interface LiveNotificationDeps {
  notify: (notice: Notice) => void;
  queryClient: QueryClient;
  refreshKeys: RefreshKeys;
  /** Notifications to list without a notice on screen (e.g. a chat reply while the chat is open). */
  quiet?: (n: Notification) => boolean;
}

/** What one broadcast does; returns the notification, or null when the payload is not one. */
export function applyLiveNotification(payload: unknown, deps: LiveNotificationDeps): Notification | null {
  const parsed = notificationBroadcastSchema.safeParse(payload);
  if (!parsed.success) return null;
  const n = parsed.data;
  if (!deps.quiet?.(n))
    deps.notify({ type: n.type, message: n.message, ...(n.description ? { description: n.description } : {}), placement: n.placement });
  updateNotifications(deps.queryClient, (list) => withNotification(list, n));
  // Scopes may name the same query (an ad's status shows on the model's profile too): refresh each once.
  const keys = new Map<string, QueryKey>();
  for (const scope of n.data.refresh ?? []) for (const key of deps.refreshKeys[scope]) keys.set(JSON.stringify(key), key);
  for (const queryKey of keys.values()) void deps.queryClient.invalidateQueries({ queryKey });
  return n;
}

export function LiveNotifications({
  userId,
  refreshKeys,
  quiet,
}: {
  userId: number;
  refreshKeys: RefreshKeys;
  quiet?: (n: Notification) => boolean;
}) {
  const queryClient = useQueryClient();
  useUserNotifications<unknown>(userId, (payload) => {
    applyLiveNotification(payload, { notify: showNotice, queryClient, refreshKeys, quiet });
  });
  // What was broadcast while the socket was down is in the list: ask for it again.
  useCatchUp(() => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }));
  return null;
}
