import { describe, expect, it } from 'vitest';
import type { Message } from '#contract/support-chat.ts';
import { safeHref } from './linkify-text.tsx';
import { applyRead, applyReads, gapAfter, lastSeq, mergeMessages, rememberRead, unreadUpTo } from './thread.ts';

const msg = (seq: number, over: Partial<Message> = {}): Message => ({
  id: 100 + seq,
  conversation_id: 1,
  seq,
  sender_id: 9,
  is_staff: false,
  sender_name: 'Nerea',
  content: `m${seq}`,
  created_at: '2026-11-24T02:00:00.000Z',
  read_at: null,
  ...over,
});

describe('mergeMessages', () => {
  it('keeps one message per seq in seq order, whatever order and how often they arrive', () => {
    const merged = mergeMessages([msg(3), msg(1)], [msg(2), msg(3), msg(5), msg(1)]);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3, 5]);
  });

  it('does not lose a read receipt when an older copy of the message arrives later', () => {
    const read = msg(4, { read_at: '2026-11-24T02:05:00.000Z' });
    expect(mergeMessages([read], [msg(4)])[0]!.read_at).toBe('2026-11-24T02:05:00.000Z');
  });
});

describe('catching up', () => {
  it('asks for what follows the last seq held when the messages are contiguous', () => {
    const held = [msg(1), msg(2), msg(3)];
    expect(gapAfter(held)).toBeNull();
    expect(lastSeq(held)).toBe(3);
    expect(lastSeq([])).toBe(0);
  });

  it('asks from before the gap when a live message arrived past one that was missed', () => {
    expect(gapAfter([msg(4), msg(5), msg(8), msg(9)])).toBe(5);
  });
});

describe('read receipts', () => {
  it('marks the other side’s messages read up to the seq, not the reader’s own', () => {
    const messages = [msg(1), msg(2, { is_staff: true, sender_id: 2 }), msg(3), msg(4)];
    const after = applyRead(messages, {
      conversation_id: 1,
      reader_id: 2,
      reader_is_staff: true,
      up_to_seq: 3,
      read_at: 'T',
    });
    expect(after.map((m) => m.read_at)).toEqual(['T', null, 'T', null]);
  });

  it('shows as read a message of mine that the other side read before the answer to my post brought it here', () => {
    // The user reads the staff answer (seq 2) over the socket before the staff's own POST answer arrives.
    const reads = rememberRead([], { conversation_id: 1, reader_id: 9, reader_is_staff: false, up_to_seq: 2, read_at: 'T' });
    const mine = msg(2, { is_staff: true, sender_id: 2 });
    expect(applyReads(mergeMessages([msg(1)], [mine]), reads).map((m) => m.read_at)).toEqual([null, 'T']);
  });

  it('keeps the newest receipt per side', () => {
    const user = (seq: number) => ({ conversation_id: 1, reader_id: 9, reader_is_staff: false, up_to_seq: seq, read_at: `T${seq}` });
    const staff = { conversation_id: 1, reader_id: 2, reader_is_staff: true, up_to_seq: 1, read_at: 'S' };
    let reads = rememberRead(rememberRead([], user(3)), staff);
    reads = rememberRead(reads, user(2));
    expect(reads).toEqual([user(3), staff]);
    expect(rememberRead(reads, user(5))).toEqual([staff, user(5)]);
  });

  it('knows up to which seq the other side’s messages are unread by me', () => {
    const messages = [msg(1, { is_staff: true, read_at: 'T' }), msg(2), msg(3, { is_staff: true }), msg(4)];
    expect(unreadUpTo(messages, false)).toBe(3);
    expect(unreadUpTo(messages, true)).toBe(4);
    expect(unreadUpTo([msg(1)], false)).toBe(0);
  });
});

describe('links in messages', () => {
  it('lets only web and mail links through', () => {
    expect(safeHref('https://vitrina.example/a?b=1')).toBe('https://vitrina.example/a?b=1');
    expect(safeHref('mailto:a@b.es')).toBe('mailto:a@b.es');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });
});
