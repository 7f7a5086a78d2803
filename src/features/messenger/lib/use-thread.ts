/**
 * One conversation's messages on screen, kept complete: the newest page first, older pages on demand, every live
 * message, and after each (re)subscription of the channel — which pusher-js does after every reconnection — and each
 * wake-up, whatever followed the last seq held (`after_seq`, page after page). Sending goes through the outbox
 * (chat-outbox.ts): the message is stored on the device first and shows as pending (a clock while there is no
 * network) until the replayer's answer brings it into the thread — after a reload too, in the order typed, once.
 * Where the outbox cannot store (no IndexedDB, storage full) it is posted directly as before, with the same key.
 * Offline, the thread shows the copy kept from the last visit (the persisted query cache) instead of an error.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  conversationUpdatedPayloadSchema,
  messageSentPayloadSchema,
  messagesReadPayloadSchema,
  TYPING_NAME_MAX,
  typingPayloadSchema,
  TYPING_THROTTLE_MS,
  TYPING_TIMEOUT_MS,
  type Conversation,
  type Message,
  type MessagesReadPayload,
  type TypingPayload,
} from '#contract/support-chat.ts';
import { ApiError, OfflineError } from '#src/lib/api-client.ts';
import { discard as discardOp, retryNow } from '#src/offline/outbox.ts';
import { onOutboxEvent } from '#src/offline/runtime.ts';
import { useOutboxState, useScopeOps } from '#src/offline/use-outbox.ts';
import { useCatchUp, useChatChannel, useConnectionState } from '#src/realtime/hooks.ts';
import { fetchMessages, markRead, MESSENGER_KEY, postMessage } from '../api/messenger-api.ts';
import { NOTIFICATIONS_KEY } from '#src/lib/query-keys.ts';
import { chatScope, messageInAnswer, NEW_CHAT_SCOPE, pendingFromOps, queueMessage, type PendingMessage } from './chat-outbox.ts';
import {
  applyRead,
  applyReads,
  emptyThread,
  firstSeq,
  gapAfter,
  lastSeq,
  mergeMessages,
  rememberRead,
  unreadUpTo,
  type Thread,
} from './thread.ts';

export type { PendingMessage } from './chat-outbox.ts';

/** The thread as kept in the query cache (persisted for the signed-in user), shown when it cannot be loaded offline. */
const threadCopyKey = (conversationId: number) => [...MESSENGER_KEY, 'thread-copy', conversationId] as const;
interface ThreadCopy {
  messages: Message[];
  conversation: Conversation | null;
}
/** The newest messages kept in the copy (the first page's size is enough to pick the conversation up again). */
const COPY_MESSAGES = 50;
/** How often the thread asks for new messages when there is no websocket at all (see below). */
const POLL_WITHOUT_SOCKET_MS = 15_000;

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
  /** Messages posted directly because the outbox could not store them (see send). */
  const [localPending, setLocalPending] = useState<PendingMessage[]>([]);
  /** The thread shown is the copy kept from before: the first page could not be loaded without a network. */
  const [offlineCopy, setOfflineCopy] = useState(false);
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
    setOfflineCopy(false);
    fetchMessages(conversationId, {}, ctrl.signal).then(
      (page) => {
        firstPageLoading.current = false;
        // Live messages that came before this answer are kept.
        update((t) => ({ messages: mergeMessages(page.data, t.messages), hasMoreBefore: page.meta.has_more_before }));
        setConversation(page.conversation);
        setStatus('ready');
        if (catchUpDeferred.current) void catchUpRef.current();
      },
      (err: unknown) => {
        firstPageLoading.current = false;
        if (ctrl.signal.aborted) return;
        // No network: what was seen last time, and the composer (messages wait in the outbox); loaded again online.
        if (err instanceof OfflineError) {
          const copy = queryClient.getQueryData<ThreadCopy>(threadCopyKey(conversationId));
          update(() => ({ messages: copy?.messages ?? [], hasMoreBefore: false }));
          if (copy?.conversation) setConversation(copy.conversation);
          setOfflineCopy(true);
          setStatus('ready');
        } else setStatus('error');
      },
    );
    return () => ctrl.abort();
  }, [conversationId, reload, update, queryClient]);

  // The copy for next time, once the thread is loaded from the server (never from the copy itself).
  useEffect(() => {
    if (conversationId == null || status !== 'ready' || offlineCopy || thread.messages.length === 0) return;
    queryClient.setQueryData<ThreadCopy>(threadCopyKey(conversationId), {
      messages: thread.messages.slice(-COPY_MESSAGES),
      conversation,
    });
  }, [conversationId, status, offlineCopy, thread.messages, conversation, queryClient]);

  // Shown from the copy: load it for real when the network is back.
  useEffect(() => {
    if (!offlineCopy) return;
    const again = () => setReload((n) => n + 1);
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [offlineCopy]);

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
  // No websocket at all ('off': a suspended account has none, issue 24 point 11, nor has a server without realtime):
  // support's replies come by asking now and then instead of only after a reload.
  const connection = useConnectionState();
  useEffect(() => {
    if (connection !== 'off' || conversationId === null) return;
    const timer = setInterval(() => void catchUpRef.current(), POLL_WITHOUT_SOCKET_MS);
    return () => clearInterval(timer);
  }, [connection, conversationId]);

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
        if (!whisper({ user_id: me.id, name: me.name.slice(0, TYPING_NAME_MAX), typing: true })) return;
        lastTypingSent.current = now;
        typingSent.current = true;
      } else if (typingSent.current) {
        typingSent.current = false;
        lastTypingSent.current = 0;
        whisper({ user_id: me.id, name: me.name.slice(0, TYPING_NAME_MAX), typing: false });
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

  /** Our own message is stored on the server: into the thread, and staff now hold the conversation. */
  const arrivedOwn = useCallback(
    (message: Message) => {
      if (idRef.current !== message.conversation_id) return;
      update((t) => ({ ...t, messages: mergeMessages(t.messages, [message]) }));
      // Staff take an unassigned conversation by answering (the server's rule); the update about it goes to the
      // staff list, not to this screen.
      if (me.isStaff)
        setConversation((was) =>
          was && was.assigned_to === null
            ? { ...was, assigned_to: me.id, assignee: { id: me.id, name: message.sender_name ?? me.name } }
            : was,
        );
    },
    [update, me.id, me.isStaff, me.name],
  );

  // The replayer's answers, from this tab, another one or the service worker.
  useEffect(() => {
    const off = onOutboxEvent((e) => {
      if (e.type !== 'done' || e.op.kind !== 'chat.message' || e.op.userId !== me.id) return;
      const message = messageInAnswer(e.data);
      if (message) arrivedOwn(message);
    });
    return () => void off();
  }, [arrivedOwn, me.id]);

  // No conversation yet: the user's first messages, written offline, wait for the op that opens it.
  const queued = useScopeOps(me.id, conversationId == null ? NEW_CHAT_SCOPE : chatScope(conversationId));
  const { online } = useOutboxState();
  const pending = useMemo(() => [...pendingFromOps(queued, online, Date.now()), ...localPending], [queued, online, localPending]);

  /** The old path, for a browser whose outbox cannot store: posted now, kept on screen with a retry if it fails. */
  const postDirectly = useCallback(
    async (id: number, content: string, key: string) => {
      setLocalPending((all) => [...all.filter((p) => p.key !== key), { key, content, failed: null, waiting: false }]);
      try {
        arrivedOwn(await postMessage(id, content, key));
        setLocalPending((all) => all.filter((p) => p.key !== key));
        void queryClient.invalidateQueries({ queryKey: [...MESSENGER_KEY, 'conversations'] });
      } catch (err) {
        const failed = err instanceof ApiError && err.data?.message ? err.data.message : '';
        setLocalPending((all) => all.map((p) => (p.key === key ? { ...p, failed } : p)));
      }
    },
    [arrivedOwn, queryClient],
  );

  const send = useCallback(
    async (content: string, opts: { conversationId?: number; key?: string } = {}) => {
      const id = opts.conversationId ?? idRef.current;
      if (id == null) return;
      notifyTyping(false);
      // A retry: the message is still in the outbox (refused or stopped) — send it again with its own key.
      if (opts.key && queuedRef.current.some((op) => op.id === opts.key)) {
        await retryNow(opts.key).catch(() => undefined);
        return;
      }
      const key = opts.key ?? crypto.randomUUID();
      if (opts.key && localPendingRef.current.some((p) => p.key === key)) return postDirectly(id, content, key);
      try {
        await queueMessage(me.id, id, content, key);
      } catch {
        await postDirectly(id, content, key);
      }
    },
    [notifyTyping, postDirectly, me.id],
  );
  const queuedRef = useRef(queued);
  queuedRef.current = queued;
  const localPendingRef = useRef(localPending);
  localPendingRef.current = localPending;

  const discard = useCallback((key: string) => {
    if (localPendingRef.current.some((p) => p.key === key)) setLocalPending((all) => all.filter((p) => p.key !== key));
    else void discardOp(key).catch(() => undefined);
  }, []);

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
    offlineCopy,
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
