/**
 * `app.broadcaster`, chosen by BROADCAST_DRIVER (server/realtime/broadcaster.ts). With the embedded driver this also
 * serves the Pusher websocket at `/app/{key}` on the app's own HTTP server (its 'upgrade' event: app.inject has no
 * sockets, so tests that need them listen on a port) and the signed HTTP events API under `/apps/{app_id}`.
 * Registered before the modules, which broadcast through it.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import fp from 'fastify-plugin';
import { localAdapter, type Adapter } from '../realtime/adapter.ts';
import type { Broadcaster } from '../realtime/broadcaster.ts';
import { embeddedBroadcaster } from '../realtime/embedded-driver.ts';
import { realtimeHttpApi } from '../realtime/http-api.ts';
import { pusherBroadcaster } from '../realtime/pusher-driver.ts';
import { PusherServer } from '../realtime/pusher-server.ts';
import { redisAdapter } from '../realtime/redis-adapter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    broadcaster: Broadcaster;
    /** The embedded websocket server; undefined with BROADCAST_DRIVER=pusher. */
    realtime: PusherServer | undefined;
  }
}

export default fp(async (app) => {
  const config = app.config.realtime;
  if (config.driver === 'pusher') {
    app.decorate('realtime', undefined);
    app.decorate('broadcaster', pusherBroadcaster(config, app.log));
    return;
  }
  const pusherApp = { id: config.appId, key: config.key, secret: config.secret };
  const adapter: Adapter = config.redisUrl
    ? await redisAdapter({ url: config.redisUrl, prefix: config.redisPrefix, log: app.log })
    : localAdapter();
  const server = new PusherServer({
    app: pusherApp,
    adapter,
    log: app.log,
    activityTimeoutSec: config.activityTimeoutSec,
    pongTimeoutMs: config.pongTimeoutMs,
    maxChannelsPerConnection: config.maxChannelsPerConnection,
    maxChannels: config.maxChannels,
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // An exception in an 'upgrade' listener would end the process: a request we cannot read is cut instead.
    try {
      if (!server.handleUpgrade(req, socket, head)) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
    } catch (err) {
      app.log.warn({ err }, 'realtime: refused an upgrade request');
      socket.destroy();
    }
  };
  app.server.on('upgrade', onUpgrade);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    app.server.off('upgrade', onUpgrade);
    await server.close();
    await adapter.close();
  };
  app.decorate('realtime', server);
  app.decorate('broadcaster', embeddedBroadcaster(pusherApp, server, close));
  // Before the HTTP server closes: open websockets would otherwise keep it from closing.
  app.addHook('preClose', close);
  await app.register(realtimeHttpApi, { pusherApp, server });
});
