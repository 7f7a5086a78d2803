/**
 * Pusher Channels protocol v7: the names, limits, error codes and signatures both the websocket server and the
 * drivers share. Reference: https://pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol/
 */
import crypto from 'node:crypto';

export const PROTOCOL_VERSION = 7;
/** Largest message a client may send and largest event payload accepted over the HTTP API (Pusher's own limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024;
/**
 * Client events one sender may send per second before it is refused with 4301: per user when the server knows who
 * sends (presence member, signed-in or bound subscription), so that twenty sockets of one user share one budget.
 */
export const CLIENT_EVENTS_PER_SECOND = 10;
/** Largest `data` of a client event (JSON bytes): a whisper is a small signal, never a message. */
export const MAX_CLIENT_EVENT_BYTES = 1024;
/** Pusher's published presence limits: members per channel and bytes of one member's `user_info` (JSON). */
export const MAX_PRESENCE_MEMBERS = 100;
export const MAX_USER_INFO_BYTES = 1024;
/** Defaults of PUSHER_MAX_CHANNELS_PER_CONNECTION (Soketi and Reverb use about 100) and PUSHER_MAX_CHANNELS. */
export const DEFAULT_MAX_CHANNELS_PER_CONNECTION = 100;
export const DEFAULT_MAX_CHANNELS = 100_000;
export const MAX_CHANNEL_NAME = 164;
export const MAX_EVENT_NAME = 200;
/** Channels one HTTP trigger may name, events one batch may carry (Pusher's limits). */
export const MAX_TRIGGER_CHANNELS = 100;
export const MAX_BATCH_EVENTS = 10;
/** The channel pusher-js subscribes to after `pusher:signin`, for events addressed to one user. */
export const USER_CHANNEL_PREFIX = '#server-to-user-';

/**
 * Close codes: 4000–4099 the client must not reconnect, 4100–4199 reconnect after backing off, 4200–4299 reconnect
 * at once. 4301 is sent as a `pusher:error` (the socket stays open).
 */
export const CLOSE = {
  appNotFound: 4001,
  unsupportedProtocol: 4007,
  noProtocol: 4008,
  unauthorized: 4009,
  overCapacity: 4100,
  generic: 4200,
  pongTimeout: 4201,
  clientEventRateLimit: 4301,
} as const;

export type ChannelKind = 'public' | 'private' | 'presence' | 'encrypted' | 'user';

export function channelKind(name: string): ChannelKind {
  if (name.startsWith('private-encrypted-')) return 'encrypted';
  if (name.startsWith('private-')) return 'private';
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith(USER_CHANNEL_PREFIX)) return 'user';
  return 'public';
}

const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;

/** Pusher's channel-name rule: 1–164 of `A-Z a-z 0-9 _ - = @ , . ;` (the user channel is the server's own). */
export function validChannelName(name: unknown): name is string {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_CHANNEL_NAME) return false;
  if (name.startsWith(USER_CHANNEL_PREFIX)) return CHANNEL_NAME.test(name.slice(USER_CHANNEL_PREFIX.length));
  return CHANNEL_NAME.test(name);
}

export function validEventName(name: unknown): name is string {
  return typeof name === 'string' && name.length > 0 && name.length <= MAX_EVENT_NAME;
}

export function hmac(secret: string, text: string): string {
  return crypto.createHmac('sha256', secret).update(text).digest('hex');
}

/** Constant-time comparison of two signatures (hex strings of any length). */
export function sameSignature(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/** `socket_id:channel[:channel_data]`, as pusher-js and the SDKs sign a subscription. */
export function channelSignature(secret: string, socketId: string, channel: string, channelData?: string): string {
  return hmac(secret, channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`);
}

/** `socket_id::user::user_data`, as the SDKs sign `pusher:signin`. */
export function userSignature(secret: string, socketId: string, userData: string): string {
  return hmac(secret, `${socketId}::user::${userData}`);
}

/** Two random integers joined by a dot, as pusher-js expects (`\d+\.\d+`); unique enough across processes. */
export function newSocketId(): string {
  const a = crypto.randomBytes(6).readUIntBE(0, 6) % 1_000_000_000_000;
  const b = crypto.randomBytes(6).readUIntBE(0, 6) % 1_000_000_000_000;
  return `${a}.${b}`;
}

export const SOCKET_ID = /^\d+\.\d+$/;

/**
 * One frame as the protocol writes it: `data` is a JSON *string* for channel events (pusher-js parses it again),
 * an object for the connection's own `pusher:*` answers where the protocol says so.
 */
export function frame(event: string, data: unknown, channel?: string): string {
  return JSON.stringify(channel === undefined ? { event, data } : { event, channel, data });
}

/** The data of a channel event as it travels: a string as the HTTP API received it, else its JSON. */
export function eventData(data: unknown): string {
  return typeof data === 'string' ? data : JSON.stringify(data ?? null);
}
