/**
 * React hooks over the tab's realtime connection (realtime-client.ts). Components only say what they listen to;
 * the connection, its replacement on a session change and the channel bookkeeping stay in the client.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { userChannel } from '#contract/notifications.ts';
import { CHAT_EVENTS, chatChannel } from '#contract/support-chat.ts';
import { realtime, type ConnectionState, type RealtimeSnapshot } from './realtime-client.ts';

/** Echo's name for a fully qualified event: the leading dot skips its `App.Events` namespace. */
const full = (event: string) => `.${event}`;

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
    // What was broadcast before this channel was (re)subscribed never reached us: every consumer fetches again.
    // That covers a page that loaded its lists just before its socket was ready, as well as reconnections.
    const onSubscribed = () => realtime.runCatchUps();
    channel.notification(handler);
    channel.listen('.pusher:subscription_succeeded', onSubscribed);
    return () => {
      channel.stopListening('.pusher:subscription_succeeded', onSubscribed);
      channel.stopListeningForNotification(handler);
      realtime.release(name, 'private', echo);
    };
  }, [echo, userId]);
}

export interface ChatChannelHandlers<W> {
  /** `App\\Events\\MessageSent` */
  onMessage?: (payload: unknown) => void;
  /** `App\\Events\\MessagesRead` */
  onRead?: (payload: unknown) => void;
  /** `App\\Events\\ConversationUpdated` */
  onUpdated?: (payload: unknown) => void;
  onTyping?: (whisper: W) => void;
  /** Each time the channel is (re)subscribed: fetch what followed the last message held. */
  onSubscribed?: () => void;
}

/**
 * One conversation's channel (`private-support.chat.{id}`): its events, typing whispers, and `whisper` to send one.
 * Payloads arrive as `unknown`: the caller parses them with the contract's schemas.
 */
export function useChatChannel<W extends Record<string, unknown>>(
  conversationId: number | null | undefined,
  handlers: ChatChannelHandlers<W>,
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
    const bindings: [string, (payload: never) => void][] = [
      [full(CHAT_EVENTS.messageSent), (p: unknown) => ref.current.onMessage?.(p)],
      [full(CHAT_EVENTS.messagesRead), (p: unknown) => ref.current.onRead?.(p)],
      [full(CHAT_EVENTS.conversationUpdated), (p: unknown) => ref.current.onUpdated?.(p)],
      ['.pusher:subscription_succeeded', () => ref.current.onSubscribed?.()],
    ];
    const onTyping = (whisper: W) => ref.current.onTyping?.(whisper);
    for (const [event, cb] of bindings) channel.listen(event, cb);
    channel.listenForWhisper('typing', onTyping);
    return () => {
      for (const [event, cb] of bindings) channel.stopListening(event, cb);
      channel.stopListeningForWhisper('typing', onTyping);
      channelRef.current = null;
      realtime.release(name, 'private', echo);
    };
  }, [echo, conversationId]);

  return {
    /** Sends a `client-typing` whisper; false when the channel is not subscribed yet (typing is best effort). */
    whisper: (payload: W): boolean => {
      const channel = channelRef.current;
      if (!channel?.subscription.subscribed) return false;
      channel.whisper('typing', payload);
      return true;
    },
  };
}

export interface PresenceMember {
  id: number | string;
  [key: string]: unknown;
}

/**
 * Joins a presence channel while mounted, keeps its member list, and passes on its events (full names, e.g.
 * `App\\Events\\ConversationUpdated`).
 */
export function usePresence(
  name: string | null,
  onMembers: (members: PresenceMember[]) => void,
  events: Record<string, (payload: unknown) => void> = {},
) {
  const { echo } = useRealtime();
  const ref = useRef(onMembers);
  const eventsRef = useRef(events);
  useEffect(() => {
    ref.current = onMembers;
    eventsRef.current = events;
  });
  const eventNames = Object.keys(events).sort().join('|');
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
    const listeners = eventNames
      .split('|')
      .filter(Boolean)
      .map((event) => [event, (payload: unknown) => eventsRef.current[event]?.(payload)] as const);
    for (const [event, cb] of listeners) channel.on(event, cb);
    return () => {
      for (const [event, cb] of listeners) channel.subscription.unbind(event, cb);
      channel.subscription.unbind('pusher:subscription_succeeded', onHere);
      channel.subscription.unbind('pusher:member_added', onAdded);
      channel.subscription.unbind('pusher:member_removed', onRemoved);
      realtime.release(name, 'presence', echo);
    };
  }, [echo, name, eventNames]);
}
