/**
 * The default driver: broadcasts go straight to the websocket server in this process (and, with REDIS_URL, through
 * Redis to the other processes' servers). Signatures are computed here exactly as the `pusher` SDK computes them.
 */
import type { Broadcaster, ChannelAuth, PresenceMember, UserAuth } from './broadcaster.ts';
import { channelSignature, eventData, userSignature } from './protocol.ts';
import type { PusherApp, PusherServer } from './pusher-server.ts';

/**
 * Presence: `member` is signed as Pusher defines. Private: a `member` given names the user the app authorized, signed
 * into `channel_data` as well (pusher-js sends it back with the subscription); the embedded server stamps that
 * user's client events with it and ends the socket with the user's account. Pusher itself signs private channels
 * without it: the `pusher` driver passes no member for them.
 */
export function signChannel(app: PusherApp, socketId: string, channel: string, member?: PresenceMember): ChannelAuth {
  if (!member) return { auth: `${app.key}:${channelSignature(app.secret, socketId, channel)}` };
  const channel_data = JSON.stringify(member.user_info === undefined ? { user_id: member.user_id } : member);
  return { auth: `${app.key}:${channelSignature(app.secret, socketId, channel, channel_data)}`, channel_data };
}

export function signUser(app: PusherApp, socketId: string, user: { id: string; user_info?: unknown }): UserAuth {
  const user_data = JSON.stringify(user);
  return { auth: `${app.key}:${userSignature(app.secret, socketId, user_data)}`, user_data };
}

export function embeddedBroadcaster(app: PusherApp, server: PusherServer, onClose: () => Promise<void>): Broadcaster {
  return {
    async trigger(channels, event, data, options) {
      // Serialized here once; the server writes the same frame to every subscriber of a channel.
      server.publish(channels, event, eventData(data), options?.socketId);
    },
    authorizeChannel: (socketId, channel, member) => signChannel(app, socketId, channel, member),
    authenticateUser: (socketId, user) => signUser(app, socketId, user),
    terminateUserConnections: (userId) => server.terminateUser(userId),
    presenceMembers: (channel) => server.members(channel),
    close: onClose,
  };
}
