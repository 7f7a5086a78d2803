/**
 * BROADCAST_DRIVER=pusher: any Pusher-compatible server (Pusher itself, Soketi, Laravel Reverb, or another Vitrina's
 * embedded server) through the official `pusher` HTTP SDK. The browser then connects to that server, not to us.
 */
import type { FastifyBaseLogger } from 'fastify';
import Pusher from 'pusher';
import type { RealtimeConfig } from '../config.ts';
import type { Broadcaster } from './broadcaster.ts';
import { signChannel, signUser } from './embedded-driver.ts';
import { MAX_TRIGGER_CHANNELS, eventData } from './protocol.ts';

export function pusherBroadcaster(config: RealtimeConfig, log: FastifyBaseLogger): Broadcaster {
  const client = new Pusher({
    appId: config.appId,
    key: config.key,
    secret: config.secret,
    host: config.host!,
    port: String(config.port),
    useTLS: config.scheme === 'https',
    timeout: 10_000,
  });
  const app = { id: config.appId, key: config.key, secret: config.secret };
  return {
    async trigger(channels, event, data, options) {
      // The SDK takes at most 100 channels per call; the data is serialized once for all the calls.
      const serialized = eventData(data);
      for (let i = 0; i < channels.length; i += MAX_TRIGGER_CHANNELS) {
        const chunk = channels.slice(i, i + MAX_TRIGGER_CHANNELS);
        try {
          await client.trigger(chunk, event, serialized, options?.socketId ? { socket_id: options.socketId } : undefined);
        } catch (err) {
          log.error({ err, event, channels: chunk }, 'realtime: triggering on the Pusher server failed');
        }
      }
    },
    // Same signatures as client.authorizeChannel/authenticateUser compute (tested against them).
    // Pusher signs a private channel without channel_data: only presence members are signed there.
    authorizeChannel: (socketId, channel, member) =>
      signChannel(app, socketId, channel, channel.startsWith('presence-') ? member : undefined),
    authenticateUser: (socketId, user) => signUser(app, socketId, user),
    async terminateUserConnections(userId) {
      try {
        await client.terminateUserConnections(userId);
      } catch (err) {
        log.error({ err, userId }, 'realtime: ending the user’s connections on the Pusher server failed');
      }
    },
    async presenceMembers(channel) {
      const res = await client.get({ path: `/channels/${channel}/users` });
      const body = (await res.json()) as { users?: { id: string | number }[] };
      return (body.users ?? []).map((u) => ({ user_id: String(u.id) }));
    },
    async close() {},
  };
}
