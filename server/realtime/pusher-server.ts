/**
 * The embedded Pusher Channels server (protocol v7) on `ws`, attached to the app's own HTTP server at `/app/{key}`.
 * pusher-js and laravel-echo connect to it as to Pusher or Soketi. What several processes must share (fan-out,
 * presence, ending a user's sockets) goes through the Adapter; everything else lives in this process.
 *
 * Frames are serialized once per broadcast and channel and the same Buffer is written to every subscriber.
 * The protocol is fire-and-forget: a message is not queued for a socket that is away, and a socket that cannot keep
 * up (megabytes unsent) is closed with 4100 so that its client reconnects later and refetches what it missed.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Adapter, RemoteCommand } from './adapter.ts';
import type { PresenceMember } from './broadcaster.ts';
import {
  CLIENT_EVENTS_PER_SECOND,
  CLOSE,
  DEFAULT_MAX_CHANNELS,
  DEFAULT_MAX_CHANNELS_PER_CONNECTION,
  MAX_CLIENT_EVENT_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_PRESENCE_MEMBERS,
  MAX_USER_INFO_BYTES,
  USER_CHANNEL_PREFIX,
  channelKind,
  channelSignature,
  frame,
  newSocketId,
  sameSignature,
  userSignature,
  validChannelName,
  validEventName,
} from './protocol.ts';

export interface PusherApp {
  id: string;
  key: string;
  secret: string;
}

export interface PusherServerOptions {
  app: PusherApp;
  adapter: Adapter;
  log: FastifyBaseLogger;
  /** Sent to clients as `activity_timeout`; the server pings a socket silent this long. */
  activityTimeoutSec: number;
  /** After the server's ping, how long a socket may stay silent before it is closed with 4201. */
  pongTimeoutMs: number;
  /** Channels one socket may be subscribed to at once (PUSHER_MAX_CHANNELS_PER_CONNECTION). */
  maxChannelsPerConnection?: number;
  /** Distinct channels this process holds subscribers for (PUSHER_MAX_CHANNELS); new ones past it are refused. */
  maxChannels?: number;
}

/**
 * Whether a client event from `sender` may go out on `channel`. `sender` is who the server knows sends it: the
 * presence member, or the user a private subscription was authorized for (undefined: the subscription named nobody).
 */
export type ClientEventGuard = (channel: string, sender: PresenceMember | undefined) => boolean;

/** Past this many unsent bytes a socket is too slow to be worth the memory: closed with 4100 (back off). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** ws refuses (closes with 1009) messages past this; between MAX_MESSAGE_BYTES and this the answer is pusher:error. */
const WS_MAX_PAYLOAD = 64 * 1024;

interface Subscription {
  /** Presence channels: who this socket is there. */
  member?: PresenceMember;
  /**
   * Private channels authorized for a named user (signed `channel_data`, see embedded-driver.ts signChannel): whom
   * the socket's client events are stamped with, and whose suspension ends the socket.
   */
  sender?: PresenceMember;
}

interface Connection {
  ws: WebSocket;
  id: string;
  channels: Map<string, Subscription>;
  /** Set by `pusher:signin`. */
  userId: string | undefined;
  /** Every user this socket acts for (signin and authorized subscriptions): all are ended by terminateUser. */
  identities: Set<string>;
  lastSeen: number;
  pingSentAt: number | undefined;
}

type Incoming = { event?: unknown; channel?: unknown; data?: unknown };

function error(code: number | null, message: string): string {
  return frame('pusher:error', { code, message });
}

export class PusherServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: WS_MAX_PAYLOAD,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly connections = new Map<string, Connection>();
  private readonly channels = new Map<string, Set<Connection>>();
  private readonly users = new Map<string, Set<Connection>>();
  /** Client events per sender (user, else socket) in the current one-second window. */
  private readonly eventBudgets = new Map<string, { start: number; count: number }>();
  private clientEventGuard: ClientEventGuard = () => true;
  private readonly maxPerConnection: number;
  private readonly maxChannels: number;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** Leaving channels and publishing to Redis, still under way: close() waits for them before the adapter goes. */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly opts: PusherServerOptions) {
    this.maxPerConnection = opts.maxChannelsPerConnection ?? DEFAULT_MAX_CHANNELS_PER_CONNECTION;
    this.maxChannels = opts.maxChannels ?? DEFAULT_MAX_CHANNELS;
    opts.adapter.onRemote((command) => this.remote(command));
    opts.adapter.onMemberRemoved((channel, userId) =>
      this.deliver(channel, frame('pusher_internal:member_removed', JSON.stringify({ user_id: userId }), channel), undefined),
    );
    // A quarter of the shortest wait: a silent socket is pinged and closed at most that much late.
    const tick = Math.max(100, Math.min(opts.activityTimeoutSec * 1000, opts.pongTimeoutMs) / 4);
    this.timer = setInterval(() => this.sweep(), tick);
    this.timer.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** The HTTP server's 'upgrade' listener: true when the request was ours (`/app/...`). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/app\/([^/]+)$/.exec(url.pathname);
    if (!match) return false;
    if (this.closed) {
      socket.destroy();
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // Compared as sent: a key is [A-Za-z0-9] (and a malformed escape must not reach decodeURIComponent and throw).
      if (match[1] !== this.opts.app.key) return this.refuse(ws, CLOSE.appNotFound, 'App key not found');
      const protocol = url.searchParams.get('protocol');
      if (protocol === null) return this.refuse(ws, CLOSE.noProtocol, 'No protocol version supplied');
      if (!/^[5-7]$/.test(protocol)) return this.refuse(ws, CLOSE.unsupportedProtocol, 'Unsupported protocol version');
      this.accept(ws);
    });
    return true;
  }

  private refuse(ws: WebSocket, code: number, message: string): void {
    ws.send(error(code, message));
    ws.close(code, message);
  }

  private accept(ws: WebSocket): void {
    const conn: Connection = {
      ws,
      id: newSocketId(),
      channels: new Map(),
      userId: undefined,
      identities: new Set(),
      lastSeen: Date.now(),
      pingSentAt: undefined,
    };
    this.connections.set(conn.id, conn);
    ws.on('message', (data, isBinary) => {
      // A listener that throws would end the process: whatever a client sends, it gets an error frame at worst.
      try {
        this.message(conn, data, isBinary);
      } catch (err) {
        this.failed(conn, err);
      }
    });
    ws.on('pong', () => this.alive(conn));
    ws.on('close', () => this.track(this.disconnect(conn)));
    ws.on('error', (err) => this.opts.log.debug({ err, socketId: conn.id }, 'realtime: socket error'));
    ws.send(frame('pusher:connection_established', JSON.stringify({ socket_id: conn.id, activity_timeout: this.opts.activityTimeoutSec })));
  }

  private alive(conn: Connection): void {
    conn.lastSeen = Date.now();
    conn.pingSentAt = undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [sender, budget] of this.eventBudgets) if (now - budget.start >= 1000) this.eventBudgets.delete(sender);
    const idle = this.opts.activityTimeoutSec * 1000;
    for (const conn of this.connections.values()) {
      if (conn.pingSentAt !== undefined) {
        if (now - conn.pingSentAt >= this.opts.pongTimeoutMs) conn.ws.close(CLOSE.pongTimeout, 'Pong reply not received in time');
      } else if (now - conn.lastSeen >= idle) {
        conn.pingSentAt = now;
        this.send(conn, frame('pusher:ping', {}));
      }
    }
  }

  private send(conn: Connection, data: string | Buffer): void {
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    if (conn.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      conn.ws.close(CLOSE.overCapacity, 'Too slow: reconnect later');
      return;
    }
    conn.ws.send(data, { binary: false });
  }

  private message(conn: Connection, raw: RawData, isBinary: boolean): void {
    this.alive(conn);
    const size = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw.byteLength;
    if (size > MAX_MESSAGE_BYTES) return this.send(conn, error(null, `Message too large (at most ${MAX_MESSAGE_BYTES} bytes)`));
    if (isBinary) return this.send(conn, error(null, 'Binary messages are not supported'));
    let msg: Incoming;
    try {
      const text = Array.isArray(raw)
        ? Buffer.concat(raw).toString('utf8')
        : raw instanceof ArrayBuffer
          ? Buffer.from(raw).toString('utf8')
          : raw.toString('utf8');
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      msg = parsed;
    } catch {
      return this.send(conn, error(null, 'Invalid JSON: expected {"event": …, "data": …}'));
    }
    // pusher-js sends `data` as an object; other clients as a JSON string.
    let data = msg.data;
    if (typeof data === 'string' && typeof msg.event === 'string' && msg.event.startsWith('pusher:')) {
      try {
        data = JSON.parse(data);
      } catch {
        // Left as the string: the handlers below refuse what they cannot read.
      }
    }
    const obj = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    switch (msg.event) {
      case 'pusher:ping':
        return this.send(conn, frame('pusher:pong', {}));
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return void this.subscribe(conn, obj).catch((err: unknown) => this.failed(conn, err));
      case 'pusher:unsubscribe':
        if (typeof obj.channel === 'string') void this.unsubscribe(conn, obj.channel).catch((err: unknown) => this.failed(conn, err));
        return;
      case 'pusher:signin':
        return this.signin(conn, obj);
      default:
        if (typeof msg.event === 'string' && msg.event.startsWith('client-')) return this.clientEvent(conn, msg);
        return this.send(conn, error(null, `Unknown event: ${validEventName(msg.event) ? msg.event : '(invalid)'}`));
    }
  }

  private failed(conn: Connection, err: unknown): void {
    this.opts.log.error({ err, socketId: conn.id }, 'realtime: handling a message failed');
    this.send(conn, error(CLOSE.generic, 'Internal error'));
  }

  private subscriptionError(conn: Connection, channel: string, status: number, type: string, message: string): void {
    this.send(conn, frame('pusher:subscription_error', { type, error: message, status }, channel));
  }

  private validAuth(auth: unknown, signed: () => string): boolean {
    if (typeof auth !== 'string') return false;
    const colon = auth.indexOf(':');
    if (colon <= 0 || auth.slice(0, colon) !== this.opts.app.key) return false;
    return sameSignature(auth.slice(colon + 1), signed());
  }

  private async subscribe(conn: Connection, data: Record<string, unknown>): Promise<void> {
    const channel = data.channel;
    if (!validChannelName(channel)) {
      // Named in a subscription_error when it is a name at all, so that pusher-js's channel hears its refusal.
      if (typeof channel === 'string' && channel !== '')
        return this.subscriptionError(
          conn,
          channel,
          400,
          'InvalidChannel',
          'Invalid channel name: 1–164 characters of A-Z a-z 0-9 _ - = @ , . ;',
        );
      return this.send(conn, error(null, 'Invalid channel name: 1–164 characters of A-Z a-z 0-9 _ - = @ , . ;'));
    }
    const kind = channelKind(channel);
    let member: PresenceMember | undefined;
    let sender: PresenceMember | undefined;
    if (kind === 'user') {
      if (conn.userId === undefined || channel !== `${USER_CHANNEL_PREFIX}${conn.userId}`)
        return this.subscriptionError(conn, channel, 403, 'AuthError', 'Sign in as this user first');
    } else if (kind !== 'public') {
      // Private channels may carry channel_data too: the user the app authorized, covered by the signature.
      const channelData = typeof data.channel_data === 'string' ? data.channel_data : undefined;
      if (kind === 'presence' && channelData === undefined)
        return this.subscriptionError(conn, channel, 400, 'AuthError', 'Presence channels need channel_data');
      if (!this.validAuth(data.auth, () => channelSignature(this.opts.app.secret, conn.id, channel, channelData)))
        return this.subscriptionError(conn, channel, 401, 'AuthError', 'Invalid signature');
      if (channelData !== undefined) {
        const named = parseMember(channelData);
        if (!named) return this.subscriptionError(conn, channel, 400, 'AuthError', 'channel_data needs a user_id');
        if (named.user_info !== undefined && Buffer.byteLength(JSON.stringify(named.user_info)) > MAX_USER_INFO_BYTES)
          return this.subscriptionError(conn, channel, 400, 'LimitReached', `user_info is over ${MAX_USER_INFO_BYTES} bytes`);
        if (kind === 'presence') member = named;
        else sender = named;
      }
    }
    const existing = conn.channels.get(channel);
    if (existing) {
      // Subscribing twice: answer again, change nothing.
      if (!member) return this.send(conn, frame('pusher_internal:subscription_succeeded', '{}', channel));
    } else {
      if (conn.channels.size >= this.maxPerConnection)
        return this.subscriptionError(conn, channel, 429, 'LimitReached', `At most ${this.maxPerConnection} channels per connection`);
      let subscribers = this.channels.get(channel);
      if (!subscribers) {
        if (this.channels.size >= this.maxChannels)
          return this.subscriptionError(conn, channel, 503, 'OverCapacity', 'The server holds too many channels: try again later');
        this.channels.set(channel, (subscribers = new Set()));
      }
      conn.channels.set(channel, member ? { member } : sender ? { sender } : {});
      subscribers.add(conn);
      if (sender) this.identify(conn, sender.user_id);
    }
    if (!member) return this.send(conn, frame('pusher_internal:subscription_succeeded', '{}', channel));
    if (existing) {
      // The same socket again: its membership stands (the adapter already has it).
      await this.sendPresence(conn, channel);
      return;
    }

    const { first, full } = await this.opts.adapter.join(channel, conn.id, member, MAX_PRESENCE_MEMBERS);
    if (full) {
      this.dropLocal(conn, channel);
      return this.subscriptionError(conn, channel, 403, 'LimitReached', `At most ${MAX_PRESENCE_MEMBERS} members per presence channel`);
    }
    this.identify(conn, member.user_id);
    if (!(await this.sendPresence(conn, channel))) return;
    if (first) {
      const added = JSON.stringify({ user_id: member.user_id, user_info: member.user_info ?? null });
      this.broadcastFrame(channel, frame('pusher_internal:member_added', added, channel), conn.id);
    }
  }

  /** The presence answer to a subscription; false when the socket left meanwhile. */
  private async sendPresence(conn: Connection, channel: string): Promise<boolean> {
    const members = await this.opts.adapter.members(channel);
    if (conn.ws.readyState !== WebSocket.OPEN || !conn.channels.has(channel)) return false;
    const hash: Record<string, unknown> = {};
    for (const m of members) hash[m.user_id] = m.user_info ?? null;
    const presence = { ids: Object.keys(hash), hash, count: Object.keys(hash).length };
    this.send(conn, frame('pusher_internal:subscription_succeeded', JSON.stringify({ presence }), channel));
    return true;
  }

  /** This socket acts for `userId`: terminateUser(userId) ends it. */
  private identify(conn: Connection, userId: string): void {
    conn.identities.add(userId);
    let sockets = this.users.get(userId);
    if (!sockets) this.users.set(userId, (sockets = new Set()));
    sockets.add(conn);
  }

  private dropLocal(conn: Connection, channel: string): void {
    conn.channels.delete(channel);
    const subscribers = this.channels.get(channel);
    subscribers?.delete(conn);
    if (subscribers?.size === 0) this.channels.delete(channel);
  }

  private async unsubscribe(conn: Connection, channel: string): Promise<void> {
    const sub = conn.channels.get(channel);
    if (!sub) return;
    this.dropLocal(conn, channel);
    if (sub.member) {
      const { last } = await this.opts.adapter.leave(channel, conn.id, sub.member.user_id);
      if (last)
        this.broadcastFrame(
          channel,
          frame('pusher_internal:member_removed', JSON.stringify({ user_id: sub.member.user_id }), channel),
          undefined,
        );
    }
  }

  private signin(conn: Connection, data: Record<string, unknown>): void {
    const userData = data.user_data;
    let id: unknown;
    try {
      id = typeof userData === 'string' ? (JSON.parse(userData) as { id?: unknown }).id : undefined;
    } catch {
      id = undefined;
    }
    const valid =
      typeof userData === 'string' &&
      (typeof id === 'string' || typeof id === 'number') &&
      String(id) !== '' &&
      this.validAuth(data.auth, () => userSignature(this.opts.app.secret, conn.id, userData));
    if (!valid) return this.refuse(conn.ws, CLOSE.unauthorized, 'Invalid signin: bad signature or user_data');
    // A socket that signed in as someone else before stays ended with that user too: it was theirs.
    conn.userId = String(id);
    this.identify(conn, conn.userId);
    this.send(conn, frame('pusher:signin_success', { user_data: userData }));
  }

  private clientEvent(conn: Connection, msg: Incoming): void {
    const channel = msg.channel;
    const event = msg.event as string;
    if (!validEventName(event)) return this.send(conn, error(null, 'Invalid event name'));
    if (typeof channel !== 'string' || !conn.channels.has(channel))
      return this.send(conn, error(null, 'Client event rejected: not subscribed to this channel'));
    const kind = channelKind(channel);
    if (kind !== 'private' && kind !== 'presence')
      return this.send(conn, error(null, 'Client events are only allowed on private and presence channels'));
    const sub = conn.channels.get(channel)!;
    const sender = sub.member ?? sub.sender;
    if (!this.clientEventGuard(channel, sender))
      return this.send(conn, error(null, 'Client event rejected: this subscription does not name who sends'));
    // One budget per user however many sockets they open; a socket nobody is known for has its own.
    const budgetKey = sender ? `u:${sender.user_id}` : conn.userId !== undefined ? `u:${conn.userId}` : `s:${conn.id}`;
    const now = Date.now();
    let budget = this.eventBudgets.get(budgetKey);
    if (!budget || now - budget.start >= 1000) this.eventBudgets.set(budgetKey, (budget = { start: now, count: 0 }));
    if (++budget.count > CLIENT_EVENTS_PER_SECOND)
      return this.send(conn, error(CLOSE.clientEventRateLimit, `Client event rejected: more than ${CLIENT_EVENTS_PER_SECOND} per second`));
    if (Buffer.byteLength(JSON.stringify(msg.data ?? null)) > MAX_CLIENT_EVENT_BYTES)
      return this.send(conn, error(null, `Client event rejected: data over ${MAX_CLIENT_EVENT_BYTES} bytes`));
    const out = sender
      ? JSON.stringify({ event, channel, data: stamped(msg.data, sender), user_id: sender.user_id })
      : JSON.stringify({ event, channel, data: msg.data });
    this.broadcastFrame(channel, out, conn.id);
  }

  private async disconnect(conn: Connection): Promise<void> {
    if (!this.connections.delete(conn.id)) return;
    for (const userId of conn.identities) {
      const sockets = this.users.get(userId);
      sockets?.delete(conn);
      if (sockets?.size === 0) this.users.delete(userId);
    }
    for (const channel of [...conn.channels.keys()]) {
      try {
        await this.unsubscribe(conn, channel);
      } catch (err) {
        this.opts.log.error({ err, channel }, 'realtime: leaving a presence channel failed');
      }
    }
  }

  /** Write one frame to this process's subscribers (except one socket): the frame is encoded once. */
  private deliver(channel: string, serialized: string, except: string | undefined): void {
    const subscribers = this.channels.get(channel);
    if (!subscribers) return;
    const bytes = Buffer.from(serialized);
    for (const conn of subscribers) if (conn.id !== except) this.send(conn, bytes);
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((err: unknown) => this.opts.log.error({ err }, 'realtime: background work failed'));
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  /** Deliver here and tell the other processes. */
  private broadcastFrame(channel: string, serialized: string, except: string | undefined): void {
    this.deliver(channel, serialized, except);
    this.track(this.opts.adapter.publish({ kind: 'broadcast', channel, frame: serialized, except }));
  }

  private remote(command: RemoteCommand): void {
    if (command.kind === 'broadcast') this.deliver(command.channel, command.frame, command.except);
    else this.closeUser(command.userId);
  }

  /** An event from the app (broadcaster.trigger or the HTTP API): `data` as it will reach the client. */
  publish(channels: string[], event: string, data: string, except?: string): void {
    for (const channel of channels) this.broadcastFrame(channel, frame(event, data, channel), except);
  }

  private closeUser(userId: string): void {
    for (const conn of this.users.get(userId) ?? []) conn.ws.close(CLOSE.unauthorized, 'Account no longer allowed');
  }

  async terminateUser(userId: string): Promise<void> {
    this.closeUser(userId);
    // Never thrown into the caller (a suspension already committed): logged like any broadcast failure.
    await this.opts.adapter
      .publish({ kind: 'terminate_user', userId })
      .catch((err: unknown) => this.opts.log.error({ err, userId }, 'realtime: ending a user’s sockets elsewhere failed'));
  }

  /** Set once by the app (server/modules/broadcasting): which senders its channels take client events from. */
  setClientEventGuard(guard: ClientEventGuard): void {
    this.clientEventGuard = guard;
  }

  /** Channels with subscribers in this process, and presence channels with members in any process. */
  async occupiedChannels(): Promise<Set<string>> {
    const names = new Set(this.channels.keys());
    for (const channel of await this.opts.adapter.presenceChannels()) names.add(channel);
    return names;
  }

  members(channel: string): Promise<PresenceMember[]> {
    return this.opts.adapter.members(channel);
  }

  /** Channels with at least one subscriber in this process (for the HTTP API's channel queries). */
  localSubscriberCount(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }

  /** Closes every socket with 4200 (reconnect: another process, or this one restarted, will take it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    const pending = [...this.connections.values()].map(
      (conn) =>
        new Promise<void>((resolve) => {
          conn.ws.once('close', () => resolve());
          conn.ws.close(CLOSE.generic, 'Server shutting down');
          // A peer that does not answer the close handshake is cut.
          setTimeout(() => {
            conn.ws.terminate();
            resolve();
          }, 1000).unref();
        }),
    );
    await Promise.all(pending);
    await Promise.all([...this.connections.values()].map((conn) => this.disconnect(conn)));
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
    this.wss.close();
  }
}

/**
 * The data of a client event as it goes out from a known sender: an object's `user_id` and `name` are the server's
 * (whatever the client wrote there); anything else travels as sent, with the frame's own `user_id` beside it.
 */
function stamped(data: unknown, sender: PresenceMember): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const info = sender.user_info as { name?: unknown } | undefined;
  const name = typeof info?.name === 'string' ? info.name : undefined;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>), user_id: sender.user_id };
  if (name !== undefined) out.name = name;
  else delete out.name;
  return out;
}

function parseMember(channelData: string): PresenceMember | undefined {
  try {
    const parsed = JSON.parse(channelData) as { user_id?: unknown; user_info?: unknown };
    const id = parsed.user_id;
    if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') return undefined;
    return parsed.user_info === undefined ? { user_id: String(id) } : { user_id: String(id), user_info: parsed.user_info };
  } catch {
    return undefined;
  }
}
