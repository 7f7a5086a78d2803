/**
 * Chat messages through the outbox: typed offline, they are stored, shown as waiting, still there after a reload
 * (the hook mounted again), and sent once each, in the order typed, when the replayer runs.
 */
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, Message, MessagePage } from '#contract/support-chat.ts';
import { openOutboxDb, setOutboxDbForTests, type OutboxDb } from '#src/offline/outbox-db.ts';
import { replayOnce } from '#src/offline/replay.ts';

vi.mock('#src/realtime/hooks.ts', () => ({
  useChatChannel: () => ({ whisper: () => undefined }),
  useCatchUp: () => undefined,
  useConnectionState: () => 'connected',
}));
// The page's runtime is replaced by the bare outbox: its local events are what the runtime hands on.
vi.mock('#src/offline/runtime.ts', async () => {
  const outbox = await import('#src/offline/outbox.ts');
  const states = {
    true: { online: true, syncing: false, needsSignIn: false },
    false: { online: false, syncing: false, needsSignIn: false },
  };
  return {
    onOutboxEvent: outbox.onLocalEvent,
    registerBackgroundSync: async () => undefined,
    getOutboxState: () => states[String(navigator.onLine) as 'true' | 'false'],
    subscribeOutboxState: () => () => undefined,
  };
});
const fetchMessages = vi.fn<(id: number) => Promise<MessagePage>>();
const postMessage = vi.fn();
vi.mock('../api/messenger-api.ts', () => ({
  MESSENGER_KEY: ['support-chat'],
  fetchMessages: (id: number) => fetchMessages(id),
  markRead: vi.fn(() => Promise.resolve({ status: 200, data: {} })),
  postMessage: (...args: unknown[]) => postMessage(...args) as unknown,
}));

const { useThread } = await import('./use-thread.ts');
const { queueFirstMessage } = await import('./chat-outbox.ts');

const msg = (seq: number, content = `m${seq}`, senderId = 2): Message => ({
  id: seq,
  conversation_id: 1,
  seq,
  sender_id: senderId,
  is_staff: senderId !== 9,
  sender_name: 'Ana',
  content,
  created_at: '2026-11-24T02:00:00.000Z',
  read_at: null,
});
const page = (seqs: number[]): MessagePage => ({
  data: seqs.map((s) => msg(s)),
  conversation: { id: 1, unread: 0 } as Conversation,
  meta: { has_more_before: false, has_more_after: false },
});
const me = { id: 9, name: 'Nerea', isStaff: false };

let db: OutboxDb;
let n = 0;
let online = false;
beforeEach(() => {
  db = openOutboxDb(`chat-outbox-test-${++n}`);
  setOutboxDbForTests(db);
  online = false;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  fetchMessages.mockReset();
  postMessage.mockReset();
});
afterEach(async () => {
  vi.restoreAllMocks();
  setOutboxDbForTests(undefined);
  db.close();
  await db.delete();
});

describe('chat messages through the outbox', () => {
  it('typed offline: stored, waiting, kept across a reload, then sent once each in the order typed', async () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    fetchMessages.mockResolvedValue(page([1, 2]));
    const first = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(first.result.current.status).toBe('ready'));
    await act(() => first.result.current.send('hola'));
    await act(() => first.result.current.send('¿seguís ahí?'));
    await waitFor(() => expect(first.result.current.pending.map((p) => p.content)).toEqual(['hola', '¿seguís ahí?']));
    expect(first.result.current.pending.every((p) => p.waiting && p.failed === null)).toBe(true);
    expect(postMessage).not.toHaveBeenCalled();
    first.unmount();

    // "Reload": a new screen finds both still pending.
    const second = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(second.result.current.pending.map((p) => p.content)).toEqual(['hola', '¿seguís ahí?']));
    const keys = second.result.current.pending.map((p) => p.key);

    // The network is back: the replayer sends them, the answers bring them into the thread.
    online = true;
    const sent: { key: string; content: string }[] = [];
    const fakeFetch = (async (_path: RequestInfo | URL, init?: RequestInit) => {
      const content = (JSON.parse(init!.body as string) as { content: string }).content;
      sent.push({ key: (init!.headers as Record<string, string>)['Idempotency-Key']!, content });
      return new Response(JSON.stringify({ data: msg(2 + sent.length, content, 9) }), { status: 201 });
    }) as typeof fetch;
    await act(async () => {
      await replayOnce({ userId: me.id, db, fetch: fakeFetch, csrfToken: async () => 'tok' });
    });
    expect(sent).toEqual([
      { key: keys[0], content: 'hola' },
      { key: keys[1], content: '¿seguís ahí?' },
    ]);
    await waitFor(() => expect(second.result.current.pending).toEqual([]));
    expect(second.result.current.thread.messages.map((m) => m.content)).toEqual(['m1', 'm2', 'hola', '¿seguís ahí?']);

    // Nothing is left to send again.
    await replayOnce({ userId: me.id, db, fetch: fakeFetch, csrfToken: async () => 'tok' });
    expect(sent).toHaveLength(2);
  });

  it('offline, the thread kept from the last visit shows instead of an error, with the composer', async () => {
    const client = new QueryClient({ defaultQueries: { gcTime: Infinity } } as never);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    online = true;
    fetchMessages.mockResolvedValueOnce(page([1, 2, 3]));
    const first = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(first.result.current.thread.messages).toHaveLength(3));
    first.unmount();

    online = false;
    const { OfflineError } = await import('#src/lib/api-client.ts');
    fetchMessages.mockRejectedValueOnce(new OfflineError(new Error('offline')));
    const second = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(second.result.current.status).toBe('ready'));
    expect(second.result.current.offlineCopy).toBe(true);
    expect(second.result.current.thread.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
  });

  it('a first message offline, before any conversation: shown as waiting, sent after the opening, into its id', async () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useThread(null, me), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(async () => {
      await queueFirstMessage(me.id, 'primer mensaje', 'first-key-0001');
    });
    await waitFor(() => expect(result.current.pending.map((p) => [p.content, p.waiting])).toEqual([['primer mensaje', true]]));

    online = true;
    const sent: string[] = [];
    const fakeFetch = (async (path: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof path === 'string' ? path : path instanceof URL ? path.pathname : path.url;
      sent.push(`${init?.method} ${url}`);
      const body = url.endsWith('/conversations')
        ? { data: { id: 55 } }
        : { data: { ...msg(1, 'primer mensaje', 9), conversation_id: 55 } };
      return new Response(JSON.stringify(body), { status: 201 });
    }) as typeof fetch;
    const summary = await replayOnce({ userId: me.id, db, fetch: fakeFetch, csrfToken: async () => 'tok' });
    expect(summary).toMatchObject({ done: 2, pending: 0, attention: 0 });
    expect(sent).toEqual(['POST /api/support/chat/conversations', 'POST /api/support/chat/55/messages']);
    await waitFor(() => expect(result.current.pending).toEqual([]));
  });
});
