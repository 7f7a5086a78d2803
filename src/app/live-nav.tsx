/**
 * The signed-in part of the header that lives on the websocket: the Messenger entry with its unread count and the
 * notifications bell, plus the realtime connection itself (opened for this user, closed on sign-out, replaced when
 * someone else signs in) and the live notifications. Loaded lazily by layout.tsx for signed-in users only, so
 * laravel-echo, pusher-js and these features stay out of the home route's bundle.
 */
import { useEffect } from 'react';
import { useLocation } from '#src/lib/router.tsx';
import { STAFF_ROLES, type Role } from '#contract/roles.ts';
import { MESSENGER_PATH } from '#contract/support-chat.ts';
import { MessengerNavLink } from '#src/features/messenger/components/messenger-nav.tsx';
import { LiveNotifications, type RefreshKeys } from '#src/features/notifications/components/live-notifications.tsx';
import { NotificationBell } from '#src/features/notifications/components/notification-bell.tsx';
import { USER_QUERY_KEY } from '#src/lib/session.ts';
import { realtime } from '#src/realtime/realtime-client.ts';
import { useRealtimeSession } from '#src/realtime/hooks.ts';

/**
 * What each refresh scope of a notification (contract/notifications.ts) means here: the query keys of the features
 * that show it (features never import each other, so the app names them: model-profile-api.ts, media-api.ts,
 * get-model.ts, publicist-api.ts, statements-api.ts, messenger-api.ts).
 */
const REFRESH_KEYS: RefreshKeys = {
  session: [USER_QUERY_KEY],
  model_profile: [['profile', 'model']],
  ads: [['profile', 'model'], ['ad-photos'], ['model-images'], ['publicist', 'models']],
  publicist_profile: [['publicist', 'profile']],
  publicist_models: [['publicist', 'models']],
  statements: [['statements']],
  support_chat: [['support-chat']],
};

export function LiveNav({ userId, role }: { userId: number; role: Role }) {
  const { pathname } = useLocation();
  useRealtimeSession(userId);
  // Signed out (this part of the header goes): no connection stays open for nobody.
  useEffect(() => () => realtime.stop(), []);
  // A staff reply is already on screen in the Messenger: no notice over it.
  const inMessenger = pathname.split('/')[2] === MESSENGER_PATH.slice(1);
  return (
    <>
      <LiveNotifications userId={userId} refreshKeys={REFRESH_KEYS} quiet={(n) => inMessenger && n.kind === 'support.reply'} />
      <MessengerNavLink isStaff={STAFF_ROLES.includes(role)} />
      <NotificationBell />
    </>
  );
}
