/**
 * Helpers of the realtime tests: the real app listening on a loopback port (app.inject has no sockets), a raw `ws`
 * client for protocol-level cases, the real pusher-js (Node build) with channel and user auth signed by the app's
 * own broadcaster, and a throwaway redis-server.
 */
import type net from 'node:net';
import Pusher from 'pusher-js';
import WebSocket from 'ws';
import type { Config, RealtimeConfig } from '#server/config.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import type { Broadcaster, PresenceMember } from './broadcaster.ts';

export interface ListeningApp extends TestApp {
  port: number;
}

export async function listeningApp(realtime: Partial<RealtimeConfig> = {}, overrides: Partial<Config> = {}): Promise<ListeningApp> {
  const base = (await import('#server/config.ts')).testConfig();
  const t = await createTestApp({ ...overrides, realtime: { ...base.realtime, ...realtime } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, port: (t.app.server.address() as net.AddressInfo).port };
}

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
}

/** A websocket speaking the protocol by hand; `next` waits for the first frame (not yet taken) that matches. */
export class RawClient {
  readonly ws: WebSocket;
  private readonly frames: Frame[] = [];
  private readonly waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  socketId = '';

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (raw: Buffer) => {
      const f = JSON.parse(raw.toString()) as Frame;
      const i = this.waiters.findIndex((w) => w.match(f));
      if (i === -1) this.frames.push(f);
      else this.waiters.splice(i, 1)[0]!.resolve(f);
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async connect(port: number, key: string, query = 'protocol=7&client=js&version=8.6.0'): Promise<RawClient> {
    const c = new RawClient(`ws://127.0.0.1:${port}/app/${key}?${query}`);
    const established = await c.next('pusher:connection_established');
    c.socketId = (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
    return c;
  }

  next(match: string | ((f: Frame) => boolean)): Promise<Frame> {
    const m = typeof match === 'string' ? (f: Frame) => f.event === match : match;
    const i = this.frames.findIndex(m);
    if (i !== -1) return Promise.resolve(this.frames.splice(i, 1)[0]!);
    return new Promise((resolve) => this.waiters.push({ match: m, resolve }));
  }

  /** Frames received and not taken by `next` (to assert that something did not arrive, after a later frame did). */
  pending(event?: string): Frame[] {
    return this.frames.filter((f) => event === undefined || f.event === event);
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** A round trip: everything the server sent before its pong has arrived once this resolves. */
  async roundTrip(): Promise<void> {
    this.send({ event: 'pusher:ping', data: {} });
    await this.next('pusher:pong');
  }

  async subscribe(broadcaster: Broadcaster, channel: string, member?: PresenceMember): Promise<Frame> {
    const auth =
      channel.startsWith('private-') || channel.startsWith('presence-') ? broadcaster.authorizeChannel(this.socketId, channel, member) : {};
    this.send({ event: 'pusher:subscribe', data: { channel, ...auth } });
    return this.next((f) => f.channel === channel && /subscription_(succeeded|error)/.test(f.event));
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }
}

/** The message of a `pusher:error` frame. */
export function errorMessage(f: Frame): string {
  return (f.data as { message?: string } | undefined)?.message ?? '';
}

export function parseData<T>(f: Frame): T {
  return (typeof f.data === 'string' ? JSON.parse(f.data) : f.data) as T;
}

/**
 * The real pusher-js, websocket only, with channel and user authorization signed by `broadcaster` (as the app's
 * /broadcasting routes do) for the user `user` (presence member and signin).
 */
export function pusherJs(port: number, key: string, broadcaster: Broadcaster, user?: { id: string; info?: unknown }): Pusher {
  return new Pusher(key, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        // As /broadcasting/auth: presence members, and private channels bound to the user they are authorized for.
        const member = user ? { user_id: user.id, user_info: user.info } : undefined;
        callback(null, broadcaster.authorizeChannel(socketId, channelName, member));
      },
    },
    userAuthentication: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => {
        if (!user) return callback(new Error('no user'), null);
        callback(null, broadcaster.authenticateUser(socketId, { id: user.id, user_info: user.info }));
      },
    },
  });
}

/**
 * pusher-js authorizing as the PWA does: channel auth and user auth posted over HTTP to the app's real
 * /broadcasting routes, form-encoded, with the session cookie, the CSRF token and X-Requested-With of `agent`.
 */
export function httpAuthorizedPusher(port: number, key: string, agent: { cookies: Map<string, string> }): Pusher {
  const post = async (path: string, fields: Record<string, string>) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-requested-with': 'XMLHttpRequest',
        'x-xsrf-token': agent.cookies.get('XSRF-TOKEN') ?? '',
        cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: new URLSearchParams(fields),
    });
    if (!res.ok) throw Object.assign(new Error(`auth ${res.status}`), { status: res.status });
    return (await res.json()) as never;
  };
  return new Pusher(key, {
    cluster: 'local',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    channelAuthorization: {
      endpoint: '/broadcasting/auth',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        post('/broadcasting/auth', { socket_id: socketId, channel_name: channelName }).then(
          (data) => callback(null, data),
          (err: Error) => callback(err, null),
        );
      },
    },
    userAuthentication: {
      endpoint: '/broadcasting/user-auth',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => {
        post('/broadcasting/user-auth', { socket_id: socketId }).then(
          (data) => callback(null, data),
          (err: Error) => callback(err, null),
        );
      },
    },
  });
}

export function connected(client: Pusher): Promise<string> {
  return new Promise((resolve) => {
    if (client.connection.state === 'connected') return resolve(client.connection.socket_id);
    client.connection.bind('connected', () => resolve(client.connection.socket_id));
  });
}

/** Resolves when `fn` returns true (checked every 20 ms); generous by design, the test's timeout bounds it. */
export async function until(fn: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await fn())) await new Promise((r) => setTimeout(r, 20));
}

export { freePort, REDIS_SERVER, startRedis, type RedisServer } from '#tests/local-processes.ts';
