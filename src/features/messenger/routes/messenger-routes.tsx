/**
 * Messenger screens (SPEC §2: index, Conversations, Messages) under `/{lng}/messenger` and `/{lng}/messenger/{id}`:
 * a user's own support conversation, or for admins and super admins the conversations list and one conversation.
 */
import { useParams } from '#src/lib/router.tsx';
import { STAFF_ROLES } from '#contract/roles.ts';
import { NotFoundPage } from '#src/components/not-found.tsx';
import { useCurrentUser } from '#src/lib/session.ts';
import type { Me } from '../lib/use-thread.ts';
import { StaffConversation } from './staff-conversation.tsx';
import { StaffIndex } from './staff-index.tsx';
import { UserMessenger } from './user-messenger.tsx';

function useMe(): Me | null {
  const user = useCurrentUser().data;
  return user ? { id: user.id, name: user.name, isStaff: STAFF_ROLES.includes(user.role) } : null;
}

export function MessengerIndexRoute() {
  const me = useMe();
  // RequireAuth renders this only for a signed-in user.
  if (!me) return null;
  return me.isStaff ? <StaffIndex meId={me.id} /> : <UserMessenger me={me} />;
}

export function MessengerConversationRoute() {
  const me = useMe();
  const { id } = useParams();
  const conversationId = Number(id);
  if (!me) return null;
  if (!/^[1-9]\d{0,9}$/.test(id ?? '') || conversationId > 2_147_483_647) return <NotFoundPage />;
  // A user has one conversation: its link (from a notification or the e-mail) shows their Messenger.
  return me.isStaff ? <StaffConversation key={conversationId} conversationId={conversationId} me={me} /> : <UserMessenger me={me} />;
}
