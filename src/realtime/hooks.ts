/**
 * React hooks over the tab's realtime connection (realtime-client.ts). Components only say what they listen to;
 * the connection, its replacement on a session change and the channel bookkeeping stay in the client.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { realtime, type ConnectionState, type RealtimeSnapshot } from './realtime-client.ts';

/** The Laravel names: Echo's `.notification()` listens for BroadcastNotificationCreated on this channel. */
export const userChannel = (userId: number) => `App.Models.User.${userId}`;
export const chatChannel = (conversationId: number) => `support.chat.${conversationId}`;
export const STAFF_PRESENCE = 'support.staff';
/** The chat's broadcast event, by its full name (the leading dot skips Echo's `App.Events` namespace). */
export const MESSAGE_SENT = '.App\\Events\\MessageSent';

// A page hidden at least this long may have slept through a reconnection pusher-js has not noticed yet.
const WAKE_CATCH_UP_AFTER_MS = 30_000;

export function useRealtime(): RealtimeSnapshot {
  return useSyncExternalStore(realtime.subscribe, realtime.getSnapshot, realtime.getSnapshot);
}

export function useConnectionState(): ConnectionState {
  return useRealtime().state;
}

/**
 * Keeps the connection in step with the session: connected as this user while signed in, closed when signed out,
 * replaced when someone else signs in. Mounted once by the shell for a signed-in user.
 */
export function useRealtimeSession(userId: number | null | undefined) {
  useEffect(() => {
    if (userId == null) {
      realtime.stop();
      return;
    }
    void realtime.start(userId);
  }, [userId]);

  useEffect(() => {
    let hiddenAt = 0;
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') hiddenAt = Date.now();
      else if (hiddenAt && Date.now() - hiddenAt >= WAKE_CATCH_UP_AFTER_MS) realtime.runCatchUps();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
}

/** Calls `cb` after every reconnection (and wake-up): fetch what may have been missed. */
export function useCatchUp(cb: () => void) {
  const ref = useRef(cb);
  useEffect(() => {
    ref.current = cb;
  });
  useEffect(() => realtime.onReconnect(() => ref.current()), []);
}

/** The user's notifications as they are broadcast (`private-App.Models.User.{id}`). */
export function useUserNotifications<T>(userId: number | null | undefined, cb: (notification: T) => void) {
  const { echo } = useRealtime();
  const ref = useRef(cb);
  useEffect(() => {
    ref.current = cb;
  });
  useEffect(() => {
    if (!echo || userId == null) return;
    const name = userChannel(userId);
    const channel = realtime.acquirePrivate(name);
    if (!channel) return;
    const handler = (notification: T) => ref.current(notification);
    channel.notification(handler);
    return () => {
      channel.stopListeningForNotification(handler);
      realtime.release(name, 'private', echo);
    };
  }, [echo, userId]);
}

export interface ChatChannelHandlers<M, W> {
  onMessage: (event: M) => void;
  onTyping?: (whisper: W) => void;
  /** Each time the channel is (re)subscribed: fetch what followed the last message held. */
  onSubscribed?: () => void;
}

/** One conversation's channel (`private-support.chat.{id}`): its messages, typing whispers, and `whisper` to send one. */
export function useChatChannel<M, W extends Record<string, unknown>>(
  conversationId: number | null | undefined,
  handlers: ChatChannelHandlers<M, W>,
) {
  const { echo } = useRealtime();
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const channelRef = useRef<ReturnType<typeof realtime.acquirePrivate>>(null);
  useEffect(() => {
    if (!echo || conversationId == null) return;
    const name = chatChannel(conversationId);
    const channel = realtime.acquirePrivate(name);
    if (!channel) return;
    channelRef.current = channel;
    const onMessage = (event: M) => ref.current.onMessage(event);
    const onTyping = (whisper: W) => ref.current.onTyping?.(whisper);
    const onSubscribed = () => ref.current.onSubscribed?.();
    channel.listen(MESSAGE_SENT, onMessage);
    channel.listenForWhisper('typing', onTyping);
    channel.listen('.pusher:subscription_succeeded', onSubscribed);
    return () => {
      channel.stopListening(MESSAGE_SENT, onMessage);
      channel.stopListeningForWhisper('typing', onTyping);
      channel.stopListening('.pusher:subscription_succeeded', onSubscribed);
      channelRef.current = null;
      realtime.release(name, 'private', echo);
    };
  }, [echo, conversationId]);

  return {
    /** Sends a `client-typing` whisper; nothing when not subscribed (typing is best effort). */
    whisper: (payload: W) => {
      const channel = channelRef.current;
      if (channel?.subscription.subscribed) channel.whisper('typing', payload);
    },
  };
}

export interface PresenceMember {
  id: number | string;
  [key: string]: unknown;
}

/** Joins a presence channel while mounted and keeps its member list. */
export function usePresence(name: string | null, onMembers: (members: PresenceMember[]) => void) {
  const { echo } = useRealtime();
  const ref = useRef(onMembers);
  useEffect(() => {
    ref.current = onMembers;
  });
  useEffect(() => {
    if (!echo || !name) return;
    const channel = realtime.acquirePresence(name);
    if (!channel) return;
    // pusher-js's own events, bound by name so that leaving unbinds exactly these (Echo's here/joining/leaving cannot).
    let members: PresenceMember[] = [];
    const publish = () => ref.current([...members]);
    const onHere = (data: { members: Record<string, Omit<PresenceMember, 'id'>> }) => {
      members = Object.entries(data.members).map(([id, info]) => ({ ...info, id }));
      publish();
    };
    const onAdded = (member: { id: string; info: Omit<PresenceMember, 'id'> }) => {
      members = [...members.filter((m) => String(m.id) !== member.id), { ...member.info, id: member.id }];
      publish();
    };
    const onRemoved = (member: { id: string }) => {
      members = members.filter((m) => String(m.id) !== member.id);
      publish();
    };
    channel.on('pusher:subscription_succeeded', onHere);
    channel.on('pusher:member_added', onAdded);
    channel.on('pusher:member_removed', onRemoved);
    return () => {
      channel.subscription.unbind('pusher:subscription_succeeded', onHere);
      channel.subscription.unbind('pusher:member_added', onAdded);
      channel.subscription.unbind('pusher:member_removed', onRemoved);
      realtime.release(name, 'presence', echo);
    };
  }, [echo, name]);
}
