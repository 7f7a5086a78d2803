/**
 * Receives the user's notifications as they are broadcast on `private-App.Models.User.{id}` and shows each at once
 * as the spec's notification (one at a time, 4.5 s, top right: the shared notice layer, src/lib/presenter.tsx),
 * puts it first in the bell's list, and refreshes the queries it names (`data.refresh`), so an open dashboard shows an
 * admin's decision without a reload. Which queries a scope means is the app's to say (`refreshKeys`): features
 * never import each other.
 */
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { notificationBroadcastSchema, type Notification, type RefreshScope } from '#contract/notifications.ts';
import { showNotice } from '#src/lib/presenter.tsx';
import type { Notice } from '#src/lib/response-handler.ts';
import { useCatchUp, useUserNotifications } from '#src/realtime/hooks.ts';
import { markNotificationRead, NOTIFICATIONS_KEY, updateNotifications, withNotification, withRead } from '../api/notifications-api.ts';
import { notificationText, translatorOf, type Translator } from './notification-text.ts';

export type RefreshKeys = Record<RefreshScope, readonly QueryKey[]>;

export interface LiveNotificationDeps {
  notify: (notice: Notice) => void;
  queryClient: QueryClient;
  refreshKeys: RefreshKeys;
  /**
   * Notifications whose subject is already on screen (a chat reply while the chat is open): no notice, and marked
   * read at once, so the bell does not count what the user is reading.
   */
  quiet?: (n: Notification) => boolean;
  markRead?: (id: number) => Promise<unknown>;
  /** The app's language: the notice is said in it when it can be (notification-text.ts). */
  i18n?: Translator;
}

/** What one broadcast does; returns the notification, or null when the payload is not one. */
export function applyLiveNotification(payload: unknown, deps: LiveNotificationDeps): Notification | null {
  const parsed = notificationBroadcastSchema.safeParse(payload);
  if (!parsed.success) return null;
  const n = parsed.data;
  const quiet = deps.quiet?.(n) ?? false;
  if (!quiet) {
    const { message, description } = notificationText(n, deps.i18n);
    deps.notify({ type: n.type, message, ...(description ? { description } : {}), placement: n.placement });
  }
  updateNotifications(deps.queryClient, (list) => withNotification(list, n));
  if (quiet && deps.markRead) {
    updateNotifications(deps.queryClient, (list) => withRead(list, [n.id]));
    void deps.markRead(n.id).catch(() => deps.queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }));
  }
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
  const { i18n } = useTranslation();
  useUserNotifications<unknown>(userId, (payload) => {
    applyLiveNotification(payload, {
      notify: showNotice,
      queryClient,
      refreshKeys,
      quiet,
      markRead: markNotificationRead,
      i18n: translatorOf(i18n),
    });
  });
  // What was broadcast while the socket was down is in the list: ask for it again.
  useCatchUp(() => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }));
  return null;
}
