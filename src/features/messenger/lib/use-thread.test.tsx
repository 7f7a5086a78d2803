import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, Message, MessagePage } from '#contract/support-chat.ts';
import type { ChatChannelHandlers } from '#src/realtime/hooks.ts';

// The channel and the API are stand-ins: the test plays the server and the websocket.
const whispered = vi.fn<(payload: Record<string, unknown>) => boolean | undefined>(() => undefined);
const channel: { handlers: ChatChannelHandlers<Record<string, unknown>> | null; catchUp: (() => void) | null; state: string } = {
  handlers: null,
  catchUp: null,
  state: 'connected',
};
vi.mock('#src/realtime/hooks.ts', () => ({
  useChatChannel: (_id: number, handlers: ChatChannelHandlers<Record<string, unknown>>) => {
    channel.handlers = handlers;
    return { whisper: (payload: Record<string, unknown>) => whispered(payload) };
  },
  useCatchUp: (cb: () => void) => {
    channel.catchUp = cb;
  },
  useConnectionState: () => channel.state,
}));
const fetchMessages = vi.fn<(id: number, cursor?: { before_seq?: number; after_seq?: number }) => Promise<MessagePage>>();
vi.mock('../api/messenger-api.ts', () => ({
  MESSENGER_KEY: ['support-chat'],
  fetchMessages: (id: number, cursor?: { before_seq?: number; after_seq?: number }) => fetchMessages(id, cursor),
  markRead: vi.fn(() => Promise.resolve({ status: 200, data: {} })),
  postMessage: vi.fn(),
}));

const { useThread } = await import('./use-thread.ts');

const msg = (seq: number): Message => ({
  id: seq,
  conversation_id: 1,
  seq,
  sender_id: 2,
  is_staff: true,
  sender_name: 'Ana',
  content: `m${seq}`,
  created_at: '2026-11-24T02:00:00.000Z',
  read_at: null,
});
const conversation = { id: 1, unread: 0 } as Conversation;
const page = (seqs: number[], more: Partial<MessagePage['meta']> = {}): MessagePage => ({
  data: seqs.map(msg),
  conversation,
  meta: { has_more_before: false, has_more_after: false, ...more },
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
const me = { id: 9, name: 'Nerea', isStaff: false };

beforeEach(() => {
  fetchMessages.mockReset();
  whispered.mockReset();
});
afterEach(() => {
  channel.handlers = null;
  channel.catchUp = null;
  channel.state = 'connected';
  vi.useRealTimers();
});

describe('useThread', () => {
  it('fetches what it missed when a live message arrives past a gap', async () => {
    fetchMessages.mockResolvedValueOnce(page([1, 2, 3]));
    const { result } = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    fetchMessages.mockResolvedValueOnce(page([4, 5, 6]));
    act(() => channel.handlers!.onMessage!({ message: msg(6) }));
    await waitFor(() => expect(result.current.thread.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]));
    expect(fetchMessages).toHaveBeenLastCalledWith(1, { after_seq: 3 });
  });

  it('after a reconnection, asks for what follows its last message, page after page', async () => {
    fetchMessages.mockResolvedValueOnce(page([1, 2]));
    const { result } = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    fetchMessages.mockResolvedValueOnce(page([3, 4], { has_more_after: true })).mockResolvedValueOnce(page([5]));
    act(() => channel.catchUp!());
    await waitFor(() => expect(result.current.thread.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]));
    expect(fetchMessages.mock.calls.slice(1).map((c) => c[1])).toEqual([{ after_seq: 2 }, { after_seq: 4 }]);
  });

  it('holds a catch-up asked for while the first page loads, instead of reading the history from the start', async () => {
    const first = deferred<MessagePage>();
    fetchMessages.mockReturnValueOnce(first.promise);
    const { result } = renderHook(() => useThread(1, me), { wrapper });
    act(() => channel.handlers!.onSubscribed!());
    expect(fetchMessages).toHaveBeenCalledTimes(1);
    fetchMessages.mockResolvedValueOnce(page([41]));
    await act(async () => first.resolve(page([31, 32, 33, 34, 35, 36, 37, 38, 39, 40], { has_more_before: true })));
    await waitFor(() => expect(result.current.thread.messages.at(-1)?.seq).toBe(41));
    expect(fetchMessages.mock.calls.map((c) => c[1])).toEqual([{}, { after_seq: 40 }]);
  });
});

describe('useThread without a websocket', () => {
  // Issue 24 point 11: a suspended account writes to support with no realtime connection; the reply must still come.
  it('asks for new messages every 15 s while there is no connection at all, and not while there is one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    channel.state = 'off';
    fetchMessages.mockResolvedValueOnce(page([1, 2]));
    const { result } = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    fetchMessages.mockResolvedValueOnce(page([3]));
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    await waitFor(() => expect(result.current.thread.messages.map((m) => m.seq)).toEqual([1, 2, 3]));
    expect(fetchMessages).toHaveBeenLastCalledWith(1, { after_seq: 2 });
  });

  it('connected, it waits for the websocket instead', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMessages.mockResolvedValueOnce(page([1, 2]));
    const { result } = renderHook(() => useThread(1, me), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(fetchMessages).toHaveBeenCalledTimes(1);
  });
});

describe('useThread, reading', () => {
  it('reading a staff reply refreshes the bell, whose reply notifications the server has just marked read', async () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const own = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    fetchMessages.mockResolvedValueOnce(page([1, 2]));
    const { result } = renderHook(() => useThread(1, me), { wrapper: own });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(() => result.current.markSeen());
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['notifications'] });
  });

  it('whispers typing with a small payload (the name cut to 60 characters) and reads the server’s stamped one', async () => {
    whispered.mockReturnValue(true);
    fetchMessages.mockResolvedValueOnce(page([1]));
    const long = { id: 9, name: 'N'.repeat(5000), isStaff: false };
    const { result } = renderHook(() => useThread(1, long), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    act(() => result.current.notifyTyping(true));
    expect(whispered).toHaveBeenCalledWith({ user_id: 9, name: 'N'.repeat(60), typing: true });
    expect(JSON.stringify(whispered.mock.calls[0]![0]).length).toBeLessThan(120);
    // As the embedded server delivers it: user_id as a string, the name it knows.
    act(() => channel.handlers!.onTyping!({ user_id: '4', name: 'Soporte', typing: true }));
    expect(result.current.typers).toEqual(['Soporte']);
  });
});
