/**
 * What the websocket server shares with other processes: fan-out of broadcasts, presence, and the order to end a
 * user's sockets. In one process (the default) that is a few maps; with REDIS_URL it is Redis (redis-adapter.ts).
 */
import type { PresenceMember } from './broadcaster.ts';

/** What another process asks this one to do, delivered by the adapter to the server's handler. */
export type RemoteCommand =
  { kind: 'broadcast'; channel: string; frame: string; except: string | undefined } | { kind: 'terminate_user'; userId: string };

export interface Adapter {
  /** Tell the other processes (never this one: the server has already delivered locally). */
  publish(command: RemoteCommand): Promise<void>;
  /** Called once by the server with its handler of what other processes publish. */
  onRemote(handler: (command: RemoteCommand) => void): void;
  /**
   * A socket joins a presence channel; `first`: no other socket of this user was in it. `full`: refused, the channel
   * already has `maxMembers` other users (decided atomically across processes); nothing was recorded.
   */
  join(channel: string, socketId: string, member: PresenceMember, maxMembers: number): Promise<{ first: boolean; full?: boolean }>;
  /** A socket left; `last`: it was the user's last socket there. */
  leave(channel: string, socketId: string, userId: string): Promise<{ last: boolean }>;
  /** One entry per user, however many sockets they have. */
  members(channel: string): Promise<PresenceMember[]>;
  /** Presence channels with at least one member, in every process. */
  presenceChannels(): Promise<string[]>;
  /** Presence changes the adapter found by itself (a process that died without leaving): to deliver locally. */
  onMemberRemoved(handler: (channel: string, userId: string) => void): void;
  close(): Promise<void>;
}

interface LocalMember {
  info: unknown;
  sockets: Set<string>;
}

/** One process: presence in memory, nothing to publish. */
export function localAdapter(): Adapter {
  const channels = new Map<string, Map<string, LocalMember>>();
  return {
    async publish() {},
    onRemote() {},
    onMemberRemoved() {},
    async join(channel, socketId, member, maxMembers) {
      let users = channels.get(channel);
      if (!users) channels.set(channel, (users = new Map<string, LocalMember>()));
      const existing = users.get(member.user_id);
      if (existing) {
        existing.sockets.add(socketId);
        return { first: false };
      }
      if (users.size >= maxMembers) return { first: false, full: true };
      users.set(member.user_id, { info: member.user_info, sockets: new Set([socketId]) });
      return { first: true };
    },
    async leave(channel, socketId, userId) {
      const users = channels.get(channel);
      const entry = users?.get(userId);
      if (!users || !entry || !entry.sockets.delete(socketId)) return { last: false };
      if (entry.sockets.size > 0) return { last: false };
      users.delete(userId);
      if (users.size === 0) channels.delete(channel);
      return { last: true };
    },
    async members(channel) {
      const users = channels.get(channel);
      if (!users) return [];
      return [...users].map(([user_id, m]) => (m.info === undefined ? { user_id } : { user_id, user_info: m.info }));
    },
    async presenceChannels() {
      return [...channels.keys()];
    },
    async close() {
      channels.clear();
    },
  };
}
