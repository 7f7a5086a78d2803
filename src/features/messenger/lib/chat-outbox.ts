/**
 * Chat messages go through the outbox (issue 15): each is stored in IndexedDB before it shows as pending, then sent by
 * the replayer — at once when online, else when the network returns — with its id as `Idempotency-Key`, in the
 * order typed per conversation (scope `chat:{id}`), once. The same path online and offline: a message sent directly
 * while an earlier one waits in the queue would overtake it.
 */
import { API } from '#contract/routes.ts';
import type { Message } from '#contract/support-chat.ts';
import { AFTER_TOKEN, type OutboxOp } from '#src/offline/types.ts';
import { MESSENGER_KEY } from '../api/messenger-api.ts';

export const chatScope = (conversationId: number) => `chat:${conversationId}`;
/** A user's messages written before their conversation exists (offline): they wait for the op that opens it. */
export const NEW_CHAT_SCOPE = 'chat:new';

/** A message on its way, as the thread shows it. */
export interface PendingMessage {
  key: string;
  content: string;
  /** null while it is on its way; the reason ('' = none given) once it needs the user (refused, session gone…). */
  failed: string | null;
  /** Stored, waiting for the network (a clock), rather than being sent now (a spinner). */
  waiting: boolean;
}

/** Stores the message in the outbox; resolves once it is on disk (then the replayer sends it). */
export async function queueMessage(userId: number, conversationId: number, content: string, key: string): Promise<OutboxOp> {
  const [{ enqueue }, { registerBackgroundSync }] = await Promise.all([
    import('#src/offline/outbox.ts'),
    import('#src/offline/runtime.ts'),
  ]);
  const op = await enqueue({
    id: key,
    userId,
    scope: chatScope(conversationId),
    kind: 'chat.message',
    method: 'POST',
    path: API.supportMessages(conversationId),
    body: { content },
    label: 'outbox.kind.chatMessage',
    summary: content.length > 80 ? `${content.slice(0, 79)}…` : content,
    meta: { conversationId },
    invalidate: [[...MESSENGER_KEY, 'conversations']],
  });
  void registerBackgroundSync();
  return op;
}

/**
 * The user's first message while offline, before the conversation exists: an op opens it (POST conversations, which
 * answers the user's one conversation, reopened if resolved) and the message waits for its id (`after`).
 */
export async function queueFirstMessage(userId: number, content: string, key: string): Promise<OutboxOp> {
  const [{ enqueue, listOps }, { registerBackgroundSync }] = await Promise.all([
    import('#src/offline/outbox.ts'),
    import('#src/offline/runtime.ts'),
  ]);
  const summary = content.length > 80 ? `${content.slice(0, 79)}…` : content;
  const opener =
    (await listOps(userId)).find((op) => op.scope === NEW_CHAT_SCOPE && op.kind === 'chat.open') ??
    (await enqueue({
      userId,
      scope: NEW_CHAT_SCOPE,
      kind: 'chat.open',
      method: 'POST',
      path: API.supportConversations,
      body: {},
      label: 'outbox.kind.chatMessage',
      summary,
      invalidate: [[...MESSENGER_KEY, 'conversations']],
    }));
  const op = await enqueue({
    id: key,
    userId,
    scope: NEW_CHAT_SCOPE,
    kind: 'chat.message',
    method: 'POST',
    path: API.supportMessages(AFTER_TOKEN),
    body: { content },
    label: 'outbox.kind.chatMessage',
    summary,
    after: { op: opener.id, pick: ['data', 'id'] },
    invalidate: [[...MESSENGER_KEY, 'conversations']],
  });
  void registerBackgroundSync();
  return op;
}

const ATTENTION = new Set<OutboxOp['status']>(['conflict', 'invalid', 'failed', 'auth']);

/** The outbox's chat ops of one conversation as pending bubbles, in the order typed. */
export function pendingFromOps(ops: readonly OutboxOp[], online: boolean, now: number): PendingMessage[] {
  return ops
    .filter((op) => op.kind === 'chat.message')
    .map((op) => {
      const content = (op.body as { content?: unknown } | undefined)?.content;
      const attention = ATTENTION.has(op.status);
      return {
        key: op.id,
        content: typeof content === 'string' ? content : '',
        failed: attention ? (op.error?.message ?? '') : null,
        waiting: !attention && op.status !== 'sending' && (!online || op.nextAttemptAt > now),
      };
    });
}

/** The stored message in a post's answer (the envelope's `data`, or the record itself). */
export function messageInAnswer(data: unknown): Message | undefined {
  const record = typeof data === 'object' && data !== null && 'data' in data ? data.data : data;
  const m = record as Partial<Message> | undefined;
  return m && typeof m.seq === 'number' && typeof m.conversation_id === 'number' ? (m as Message) : undefined;
}
