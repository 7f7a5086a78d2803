/**
 * The one interface the app broadcasts through (ARCHITECTURE: realtime is embedded by default, external when one
 * process is not enough). Services call `app.broadcaster`; which driver answers is chosen by BROADCAST_DRIVER:
 * `embedded` (the Pusher-protocol server in this process, fanned out through Redis when REDIS_URL is set) or
 * `pusher` (any Pusher-compatible server through the `pusher` HTTP SDK).
 *
 * Channel names are full Pusher names (`private-App.Models.User.7`, `presence-support.staff`); event names are the
 * full names Echo listens for (`App\\Events\\MessageSent`, `Illuminate\\Notifications\\Events\\BroadcastNotificationCreated`).
 */
export interface PresenceMember {
  user_id: string;
  user_info?: unknown;
}

export interface ChannelAuth {
  /** `key:HMAC-SHA256(secret, socket_id:channel[:channel_data])` */
  auth: string;
  /** Presence channels only: the JSON the signature covers. */
  channel_data?: string;
}

export interface UserAuth {
  /** `key:HMAC-SHA256(secret, socket_id::user::user_data)` */
  auth: string;
  user_data: string;
}

export interface Broadcaster {
  /**
   * Deliver one event to every subscriber of each channel, except the socket `socketId` (Echo's `toOthers`, from
   * the request's X-Socket-ID). The payload is serialized once per call, whatever the number of subscribers.
   * Fire-and-forget as the protocol is: a failure is logged, never thrown into the caller's transaction.
   */
  trigger(channels: string[], event: string, data: unknown, options?: { socketId?: string | undefined }): Promise<void>;
  /**
   * Signature for a private or presence channel subscription. Presence: the member. Private: the user the app
   * authorized (the embedded server binds the subscription to them; external Pusher servers ignore it).
   */
  authorizeChannel(socketId: string, channel: string, member?: PresenceMember): ChannelAuth;
  /** Signature for `pusher:signin` (user authentication). */
  authenticateUser(socketId: string, user: { id: string; user_info?: unknown }): UserAuth;
  /** Close every socket signed in as this user (suspended or deleted account). */
  terminateUserConnections(userId: string): Promise<void>;
  /** Current members of a presence channel, one per user however many sockets they have. */
  presenceMembers(channel: string): Promise<PresenceMember[]>;
  close(): Promise<void>;
}
