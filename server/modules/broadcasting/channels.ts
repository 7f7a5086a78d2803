/**
 * Who may listen where (issue 14 point 2): `private-App.Models.User.{id}` only that user; `private-support.chat.{id}`
 * only the conversation's user and staff; `presence-support.staff` only admins and super admins. Everything else —
 * other private or presence channels, public channels (they need no auth) — is refused.
 */
import { eq } from 'drizzle-orm';
import { STAFF_ROLES, type Role } from '#contract/roles.ts';
import { STAFF_PUSHER_CHANNEL } from '#contract/support-chat.ts';
import type { PresenceUserInfo } from '#contract/notifications.ts';
import type { Db } from '../../db/client.ts';
import { supportConversations } from '../../db/schema.ts';
import { forbidden } from '../../errors.ts';
import type { Broadcaster, ChannelAuth, PresenceMember } from '../../realtime/broadcaster.ts';

const USER_CHANNEL = /^private-App\.Models\.User\.([1-9]\d{0,9})$/;
const CHAT_CHANNEL = /^private-support\.chat\.([1-9]\d{0,9})$/;

export const isStaff = (role: Role) => STAFF_ROLES.includes(role);

export interface ChannelUser {
  id: number;
  name: string;
  role: Role;
}

/** The presence member a user joins as (`user_info` is what other members see). */
export function memberOf(user: ChannelUser): PresenceMember & { user_info: PresenceUserInfo } {
  return { user_id: String(user.id), user_info: { name: user.name, role: user.role } };
}

/**
 * Whether `user` may subscribe to `channel`. Answers `{ member }` for a presence channel, `{}` for a private one,
 * null when refused.
 */
/**
 * Client events (typing whispers) on the app's channels: on a support chat only from a subscription that names its
 * user — /broadcasting/auth names the user it authorized (the conversation's user or staff), so nobody else, and
 * never a subscription signed without a user; none on a user's notification channel. Other channels are not the
 * app's (it authorizes none): the protocol's rules alone apply there.
 */
export function mayWhisper(channel: string, sender: PresenceMember | undefined): boolean {
  if (USER_CHANNEL.test(channel)) return false;
  if (CHAT_CHANNEL.test(channel)) return sender !== undefined;
  return true;
}

export async function channelAccess(db: Db, user: ChannelUser, channel: string): Promise<{ member?: PresenceMember } | null> {
  const own = USER_CHANNEL.exec(channel);
  if (own) return Number(own[1]) === user.id ? {} : null;
  const chat = CHAT_CHANNEL.exec(channel);
  if (chat) {
    const id = Number(chat[1]);
    if (id > 2_147_483_647) return null;
    const [c] = await db.select({ userId: supportConversations.userId }).from(supportConversations).where(eq(supportConversations.id, id));
    if (!c) return null;
    return c.userId === user.id || isStaff(user.role) ? {} : null;
  }
  if (channel === STAFF_PUSHER_CHANNEL) return isStaff(user.role) ? { member: memberOf(user) } : null;
  return null;
}

/** The signed authorization of `user`'s socket for `channel` (403 where they may not listen), as pusher-js asks for it. */
export async function authorizeSubscription(
  deps: { db: Db; broadcaster: Pick<Broadcaster, 'authorizeChannel'> },
  user: ChannelUser,
  socketId: string,
  channel: string,
): Promise<ChannelAuth> {
  const access = await channelAccess(deps.db, user, channel);
  if (!access) throw forbidden();
  return deps.broadcaster.authorizeChannel(socketId, channel, access.member ?? memberOf(user));
}
