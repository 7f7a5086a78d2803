/**
 * One conversation's messages on screen, kept complete: the newest page first, older pages on demand, every live
 * message, and after each (re)subscription of the channel — which pusher-js does after every reconnection — and each
 * wake-up, whatever followed the last seq held (`after_seq`, page after page). Sending posts with an Idempotency-Key,
 * so a retry of the same message is stored once; it shows as pending until the server answers.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  conversationUpdatedPayloadSchema,
  messageSentPayloadSchema,
  messagesReadPayloadSchema,
  typingPayloadSchema,
  TYPING_THROTTLE_MS,
  TYPING_TIMEOUT_MS,
  type Conversation,
  type Message,
  type MessagesReadPayload,
  type TypingPayload,
} from '#contract/support-chat.ts';
import { ApiError } from '#src/lib/api-client.ts';
import { useCatchUp, useChatChannel } from '#src/realtime/hooks.ts';
import { fetchMessages, markRead, MESSENGER_KEY, postMessage } from '../api/messenger-api.ts';
import { NOTIFICATIONS_KEY } from '#src/lib/query-keys.ts';
import { applyRead, applyReads, emptyThread, firstSeq, gapAfter, lastSeq, mergeMessages, rememberRead, unreadUpTo, type Thread } from './thread.ts';

export interface PendingMessage {
  key: string;
  content: string;
  failed: string | null;
}

export interface Me {
  id: number;
  name: string;
  isStaff: boolean;
}

export function useThread(conversationId: number | null, me: Me) {
  const queryClient = useQueryClient();
  const [thread, setThread] = useState<Thread>(emptyThread);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [typers, setTypers] = useState<Record<number, string>>({});
  /** The newest message from the other side that arrived live (for the screen reader's announcement). */
  const [arrived, setArrived] = useState<Message | null>(null);
  const [reload, setReload] = useState(0);
  const threadRef = useRef(thread);
  const idRef = useRef(conversationId);
  idRef.current = conversationId;
  // A catch-up asked for while the first page is on its way waits for it: with nothing held yet, "after the last
  // seq" would mean the whole history from the start.
  const firstPageLoading = useRef(false);
  const catchUpDeferred = useRef(false);
  const catchUpRef = useRef<() => Promise<void>>(async () => undefined);

  // The newest read receipt from each side, re-applied to whatever arrives later: the other side can read our
  // message (its MessagesRead comes over the socket) before the answer to our own POST brings the message here.
  const readsRef = useRef<MessagesReadPayload[]>([]);
  const update = useCallback((fn: (t: Thread) => Thread) => {
    const next = fn(threadRef.current);
    threadRef.current = { ...next, messages: applyReads(next.messages, readsRef.current) };
    setThread(threadRef.current);
  }, []);

  useEffect(() => {
    readsRef.current = [];
    threadRef.current = emptyThread;
    setThread(emptyThread);
    setTypers({});
    if (conversationId == null) {
      setConversation(null);
      setStatus('ready');
      return;
    }
    const ctrl = new AbortController();
    setStatus('loading');
    firstPageLoading.current = true;
    catchUpDeferred.current = false;
    fetchMessages(conversationId, {}, ctrl.signal).then(
      (page) => {
        firstPageLoading.current = false;
        // Live messages that came before this answer are kept.
        update((t) => ({ messages: mergeMessages(page.data, t.messages), hasMoreBefore: page.meta.has_more_before }));
        setConversation(page.conversation);
        setStatus('ready');
        if (catchUpDeferred.current) void catchUpRef.current();
      },
      () => {
        firstPageLoading.current = false;
        if (!ctrl.signal.aborted) setStatus('error');
      },
    );
    return () => ctrl.abort();
  }, [conversationId, reload, update]);

  // One catch-up at a time; a request for another while one runs makes it go round once more.
  const catchingUp = useRef(false);
  const again = useRef(false);
  const catchUp = useCallback(async () => {
    const id = idRef.current;
    if (id == null) return;
    if (firstPageLoading.current) {
      catchUpDeferred.current = true;
      return;
    }
    catchUpDeferred.current = false;
    if (catchingUp.current) {
      again.current = true;
      return;
    }
    catchingUp.current = true;
    try {
      do {
        again.current = false;
        for (let guard = 0; guard < 50; guard++) {
          const held = threadRef.current.messages;
          const after = gapAfter(held) ?? lastSeq(held);
          const page = await fetchMessages(id, { after_seq: after });
          if (idRef.current !== id) return;
          update((t) => ({ ...t, messages: mergeMessages(t.messages, page.data) }));
          setConversation(page.conversation);
          if (!page.meta.has_more_after && gapAfter(threadRef.current.messages) === null) break;
        }
      } while (again.current);
    } catch {
      // The next reconnection or wake-up tries again.
    } finally {
      catchingUp.current = false;
    }
  }, [update]);

  catchUpRef.current = catchUp;
  useCatchUp(() => void catchUp());

  const typingTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const stopTyping = useCallback((userId: number) => {
    clearTimeout(typingTimers.current.get(userId));
    typingTimers.current.delete(userId);
    setTypers((all) => {
      if (!(userId in all)) return all;
      const next = { ...all };
      delete next[userId];
      return next;
    });
  }, []);
  useEffect(() => {
    const timers = typingTimers.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);

  const { whisper } = useChatChannel<TypingPayload>(conversationId, {
    onMessage: (payload) => {
      const parsed = messageSentPayloadSchema.safeParse(payload);
      if (!parsed.success || parsed.data.message.conversation_id !== idRef.current) return;
      const message = parsed.data.message;
      update((t) => ({ ...t, messages: mergeMessages(t.messages, [message]) }));
      if (message.sender_id !== null) stopTyping(message.sender_id);
      if (message.sender_id !== me.id) setArrived(message);
      if (gapAfter(threadRef.current.messages) !== null) void catchUp();
    },
    onRead: (payload) => {
      const parsed = messagesReadPayloadSchema.safeParse(payload);
      if (parsed.success && parsed.data.conversation_id === idRef.current) {
        readsRef.current = rememberRead(readsRef.current, parsed.data);
        update((t) => t);
      }
    },
    onUpdated: (payload) => {
      const parsed = conversationUpdatedPayloadSchema.safeParse(payload);
      if (parsed.success && parsed.data.conversation.id === idRef.current) {
        const next = parsed.data.conversation;
        // `unread` on this channel is not the reader's own count: keep ours.
        setConversation((was) => ({ ...next, unread: was?.unread ?? 0 }));
      }
    },
    onTyping: (payload) => {
      const parsed = typingPayloadSchema.safeParse(payload);
      if (!parsed.success || parsed.data.user_id === me.id) return;
      const { user_id: userId, name, typing } = parsed.data;
      if (!typing) return stopTyping(userId);
      clearTimeout(typingTimers.current.get(userId));
      typingTimers.current.set(
        userId,
        setTimeout(() => stopTyping(userId), TYPING_TIMEOUT_MS),
      );
      setTypers((all) => (all[userId] === name ? all : { ...all, [userId]: name }));
    },
    onSubscribed: () => void catchUp(),
  });

  // Typing whispers: at most one "typing" per TYPING_THROTTLE_MS, and "stopped" once when it ends.
  const lastTypingSent = useRef(0);
  const typingSent = useRef(false);
  const notifyTyping = useCallback(
    (typing: boolean) => {
      if (typing) {
        const now = Date.now();
        if (now - lastTypingSent.current < TYPING_THROTTLE_MS) return;
        // Not sent (the channel is still subscribing): the next keystroke tries again.
        if (!whisper({ user_id: me.id, name: me.name, typing: true })) return;
        lastTypingSent.current = now;
        typingSent.current = true;
      } else if (typingSent.current) {
        typingSent.current = false;
        lastTypingSent.current = 0;
        whisper({ user_id: me.id, name: me.name, typing: false });
      }
    },
    [whisper, me.id, me.name],
  );

  const loadOlder = useCallback(async () => {
    const id = idRef.current;
    const first = firstSeq(threadRef.current.messages);
    if (id == null || !threadRef.current.hasMoreBefore || loadingOlder || first <= 1) return;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(id, { before_seq: first });
      if (idRef.current !== id) return;
      update((t) => ({ messages: mergeMessages(t.messages, page.data), hasMoreBefore: page.meta.has_more_before }));
    } catch {
      // The button stays for another try.
    } finally {
      setLoadingOlder(false);
    }
  }, [loadingOlder, update]);

  const send = useCallback(
    async (content: string, opts: { conversationId?: number; key?: string } = {}) => {
      const id = opts.conversationId ?? idRef.current;
      if (id == null) return;
      const key = opts.key ?? crypto.randomUUID();
      setPending((all) => [...all.filter((p) => p.key !== key), { key, content, failed: null }]);
      notifyTyping(false);
      try {
        const message = await postMessage(id, content, key);
        if (idRef.current === id) {
          update((t) => ({ ...t, messages: mergeMessages(t.messages, [message]) }));
          // Staff take an unassigned conversation by answering (the server's rule); the update about it goes to the
          // staff list, not to this screen.
          if (me.isStaff)
            setConversation((was) =>
              was && was.assigned_to === null
                ? { ...was, assigned_to: me.id, assignee: { id: me.id, name: message.sender_name ?? me.name } }
                : was,
            );
        }
        setPending((all) => all.filter((p) => p.key !== key));
        void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
      } catch (err) {
        const failed = err instanceof ApiError && err.data?.message ? err.data.message : '';
        setPending((all) => all.map((p) => (p.key === key ? { ...p, failed } : p)));
      }
    },
    [notifyTyping, queryClient, update, me.id, me.isStaff, me.name],
  );

  const discard = useCallback((key: string) => setPending((all) => all.filter((p) => p.key !== key)), []);

  // Read receipts: what the other side wrote is read once it is on screen (`visible`: the thread's end is in view
  // and the page is shown).
  const marked = useRef(0);
  useEffect(() => {
    marked.current = 0;
  }, [conversationId]);
  const markSeen = useCallback(async () => {
    const id = idRef.current;
    const upTo = unreadUpTo(threadRef.current.messages, me.isStaff);
    if (id == null || upTo === 0 || upTo <= marked.current) return;
    marked.current = upTo;
    try {
      await markRead(id, upTo);
      const now = new Date().toISOString();
      update((t) => ({
        ...t,
        messages: applyRead(t.messages, {
          conversation_id: id,
          reader_id: me.id,
          reader_is_staff: me.isStaff,
          up_to_seq: upTo,
          read_at: now,
        }),
      }));
      setConversation((was) => (was ? { ...was, unread: 0 } : was));
      void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'unread'] });
      void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
      // The server marked this chat's reply notifications read too: the bell's count follows.
      if (!me.isStaff) void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    } catch {
      marked.current = 0;
    }
  }, [me.id, me.isStaff, queryClient, update]);

  return {
    thread,
    status,
    conversation,
    setConversation,
    pending,
    loadingOlder,
    typers: Object.values(typers),
    arrived,
    loadOlder,
    send,
    discard,
    notifyTyping,
    markSeen,
    retryLoad: () => setReload((n) => n + 1),
  };
}
