/**
 * A conversation's messages as the screen holds them: ascending by `seq`, one entry per seq. Everything that arrives
 * (the first page, older pages, the catch-up after a reconnection, a live `MessageSent`, the answer to our own post)
 * is merged here, so a message seen twice is shown once and a gap in the seqs tells the screen to catch up.
 */
import type { Message, MessagesReadPayload } from '#contract/support-chat.ts';

export interface Thread {
  messages: Message[];
  /** Older messages exist above the first one held. */
  hasMoreBefore: boolean;
}

export const emptyThread: Thread = { messages: [], hasMoreBefore: false };

/** `incoming` merged into `messages` by seq (a later copy of a seq wins, keeping a known `read_at`). */
export function mergeMessages(messages: readonly Message[], incoming: readonly Message[]): Message[] {
  if (incoming.length === 0) return messages as Message[];
  const bySeq = new Map(messages.map((m) => [m.seq, m]));
  for (const m of incoming) {
    const known = bySeq.get(m.seq);
    bySeq.set(m.seq, known && known.read_at && !m.read_at ? { ...m, read_at: known.read_at } : m);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

export const lastSeq = (messages: readonly Message[]) => messages.at(-1)?.seq ?? 0;
export const firstSeq = (messages: readonly Message[]) => messages[0]?.seq ?? 0;

/**
 * The seq to catch up after when the messages held are not contiguous up to their last one (a live message arrived
 * past one we never got), else null. Only the stretch after the first held message counts: older pages load on demand.
 */
export function gapAfter(messages: readonly Message[]): number | null {
  for (let i = 1; i < messages.length; i++) {
    if (messages[i]!.seq !== messages[i - 1]!.seq + 1) return messages[i - 1]!.seq;
  }
  return null;
}

/** A `MessagesRead` event: the reader's side has seen the other side's messages up to `up_to_seq`. */
export function applyRead(messages: readonly Message[], read: MessagesReadPayload): Message[] {
  return messages.map((m) =>
    m.is_staff !== read.reader_is_staff && m.seq <= read.up_to_seq && !m.read_at ? { ...m, read_at: read.read_at } : m,
  );
}

/** `read` kept as the newest receipt from its side (one per side: a later receipt covers every earlier seq). */
export function rememberRead(reads: readonly MessagesReadPayload[], read: MessagesReadPayload): MessagesReadPayload[] {
  const same = reads.find((r) => r.reader_is_staff === read.reader_is_staff);
  if (same && same.up_to_seq >= read.up_to_seq) return reads as MessagesReadPayload[];
  return [...reads.filter((r) => r !== same), read];
}

/** Every remembered receipt applied: messages that arrived after their receipt are shown read too. */
export function applyReads(messages: readonly Message[], reads: readonly MessagesReadPayload[]): Message[] {
  return reads.reduce<Message[]>((all, read) => applyRead(all, read), messages as Message[]);
}

/** The highest seq of the other side's messages that is still unread by me, or 0. */
export function unreadUpTo(messages: readonly Message[], meIsStaff: boolean): number {
  let seq = 0;
  for (const m of messages) if (m.is_staff !== meIsStaff && !m.read_at) seq = m.seq;
  return seq;
}
