/**
 * Slow clients (slowloris, slow POST): connections that hold a socket by sending almost nothing. Node's own timers
 * do part of it (set in app.ts from the configuration): `headersTimeout` closes a connection whose request head has
 * not arrived in time, `requestTimeout` one whose whole request has not, `keepAliveTimeout` an idle kept-alive
 * connection, `connectionTimeout` a socket with no traffic at all. What they cannot do is tell a photo coming over a
 * slow mobile link (15 MB at 1 Mbit/s: two minutes) from a body trickled a byte at a time, or from a Content-Length
 * larger than the body that follows: that is this watchdog's job.
 *
 * The body of every request that has one is watched until it is complete: each `bodyTimeoutMs` spent waiting for it
 * must bring at least `bodyMinRate` bytes per second, or the connection is answered 408 and closed. Only time when
 * the server is actually waiting counts — while a handler is busy with what it already read (decoding and screening
 * one photo of an upload before reading the next) the body is paused by back-pressure, and a paused body is not the
 * client's fault. Upgraded connections (the websocket at /app/{key}) are never watched: Node hands them to the
 * 'upgrade' listener without a 'request' event, and the 'request' event is where watching starts.
 *
 * Plus a cap on the connections one IP address may hold at once, so that one client cannot take every socket the
 * process can open. Behind a trusted proxy every connection comes from the proxy, so the cap is the proxy's job there.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';

export interface SlowClientLimits {
  /** How long the server may wait for a body's next bytes, and the window over which its rate is measured. */
  bodyTimeoutMs: number;
  /** Least bytes per second a body must arrive at, averaged over each bodyTimeoutMs of waiting. */
  bodyMinRate: number;
  /** Connections one IP address may hold at once; 0: no cap. */
  maxConnectionsPerIp: number;
}

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  socket: Socket;
  /** Waiting time in the current window, and socket bytes at its start. */
  waitedMs: number;
  windowStartBytes: number;
  lastTick: number;
  wasWaiting: boolean;
}

const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The server is reading this body and nothing read is left unconsumed: whatever is missing is the client's. */
function waitingForClient(req: IncomingMessage): boolean {
  return req.readableFlowing === true && req.readableLength === 0;
}

/**
 * Installs the watchdog and the per-IP cap on a Node HTTP server; the returned function removes them. Exported apart
 * from the plugin so that it can guard any server.
 */
export function guardSlowClients(server: Server, limits: SlowClientLimits, log?: FastifyBaseLogger): () => void {
  const watched = new Set<Watched>();
  // One timer for every watched body (not one per request), running only while there is something to watch.
  const tickMs = Math.max(20, Math.min(1000, Math.floor(limits.bodyTimeoutMs / 5)));
  let timer: NodeJS.Timeout | undefined;

  const close = (w: Watched) => {
    watched.delete(w);
    log?.info(
      { ip: w.socket.remoteAddress, method: w.req.method, url: w.req.url },
      'slow client: request body too slow, connection closed',
    );
    if (!w.res.headersSent && w.socket.writable) w.socket.write(REQUEST_TIMEOUT_RESPONSE);
    w.socket.destroy();
  };

  const tick = () => {
    const now = performance.now();
    for (const w of watched) {
      if (w.req.complete || w.socket.destroyed) {
        watched.delete(w);
        continue;
      }
      const waiting = waitingForClient(w.req);
      // Counted only when waiting at both ends of the interval, so time spent busy in between is never charged; nor is
      // a tick come late (the event loop itself was held up: the server's delay, not the client's).
      if (waiting && w.wasWaiting) w.waitedMs += Math.min(now - w.lastTick, 2 * tickMs);
      w.wasWaiting = waiting;
      w.lastTick = now;
      if (w.waitedMs < limits.bodyTimeoutMs) continue;
      const received = w.socket.bytesRead - w.windowStartBytes;
      if (received < Math.max(1, (limits.bodyMinRate * w.waitedMs) / 1000)) {
        close(w);
        continue;
      }
      w.waitedMs = 0;
      w.windowStartBytes = w.socket.bytesRead;
    }
    if (!watched.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (!hasBody(req) || req.complete) return;
    watched.add({
      req,
      res,
      socket: req.socket,
      waitedMs: 0,
      windowStartBytes: req.socket.bytesRead,
      lastTick: performance.now(),
      wasWaiting: false,
    });
    if (!timer) {
      timer = setInterval(tick, tickMs);
      timer.unref();
    }
  };

  const perIp = new Map<string, number>();
  const onConnection = (socket: Socket) => {
    const ip = socket.remoteAddress;
    if (!ip) return;
    const open = perIp.get(ip) ?? 0;
    if (open >= limits.maxConnectionsPerIp) {
      log?.warn({ ip, open }, 'slow client: too many connections from one address, refused');
      socket.destroy();
      return;
    }
    perIp.set(ip, open + 1);
    socket.once('close', () => {
      const left = (perIp.get(ip) ?? 1) - 1;
      if (left > 0) perIp.set(ip, left);
      else perIp.delete(ip);
    });
  };

  server.on('request', onRequest);
  if (limits.maxConnectionsPerIp > 0) server.on('connection', onConnection);
  return () => {
    server.off('request', onRequest);
    server.off('connection', onConnection);
    if (timer) clearInterval(timer);
    watched.clear();
  };
}

export default fp<{ limits: SlowClientLimits }>(
  async (app, opts) => {
    const unguard = guardSlowClients(app.server, opts.limits, app.log);
    app.addHook('onClose', async () => unguard());
  },
  { name: 'slow-clients' },
);
