import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { carriersOnlyFor, changesOf } from './changes.ts';
import { openOutboxDb, type OutboxDb } from './outbox-db.ts';
import { countUnsent, enqueue, listOps } from './outbox.ts';
import { AFTER_TOKEN, type NewOp, type OutboxOp } from './types.ts';

let db: OutboxDb;
let n = 0;
beforeEach(() => {
  db = openOutboxDb(`changes-test-${++n}`);
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const photo: NewOp = {
  userId: 1,
  scope: 'photos:ad:1',
  kind: 'photo.upload',
  method: 'POST',
  path: '/api/upload/images',
  label: 'outbox.kind.photoUpload',
};

/** What the messenger queues for a first message written offline (features/messenger/lib/chat-outbox.ts). */
async function firstMessage(content: string) {
  const opener = await enqueue(
    {
      userId: 1,
      scope: 'chat:new',
      kind: 'chat.open',
      method: 'POST',
      path: '/api/support/chat/conversations',
      body: {},
      label: 'outbox.kind.chatMessage',
      summary: content,
    },
    db,
  );
  const message = await enqueue(
    {
      userId: 1,
      scope: 'chat:new',
      kind: 'chat.message',
      method: 'POST',
      path: `/api/support/chat/${AFTER_TOKEN}/messages`,
      body: { content },
      label: 'outbox.kind.chatMessage',
      summary: content,
      after: { op: opener.id, pick: ['data', 'id'] },
    },
    db,
  );
  return { opener, message };
}

describe('changesOf', () => {
  it('lists a first message written offline once, not once per op (issue 24 B9: "3 pendientes" for two changes)', async () => {
    await enqueue(photo, db);
    const { opener, message } = await firstMessage('Hola');
    const changes = changesOf(await listOps(1, db));
    expect(changes.map((c) => [c.op.kind, c.op.summary ?? null])).toEqual([
      ['photo.upload', null],
      ['chat.message', 'Hola'],
    ]);
    expect(changes[1]!.ids).toEqual([opener.id, message.id]);
    expect(await countUnsent(1, db)).toBe(2);
  });

  it("shows the carrier's attempts and refusal on the change it carries", async () => {
    const { opener, message } = await firstMessage('Hola');
    await db.ops.update(opener.id, { attempts: 2, nextAttemptAt: Date.now() + 60_000 });
    let [change] = changesOf(await listOps(1, db));
    expect(change).toMatchObject({ status: 'pending', attempts: 2 });
    expect(change!.nextAttemptAt).toBeGreaterThan(Date.now());
    await db.ops.update(opener.id, { status: 'failed', error: { status: 403, message: 'No' } });
    [change] = changesOf(await listOps(1, db));
    expect(change).toMatchObject({ op: { id: message.id }, status: 'failed', error: { message: 'No' } });
  });

  it('discarding the change takes its carrier along only when no other change needs it', async () => {
    const { opener } = await firstMessage('Hola');
    const second: OutboxOp = await enqueue(
      {
        userId: 1,
        scope: 'chat:new',
        kind: 'chat.message',
        method: 'POST',
        path: `/api/support/chat/${AFTER_TOKEN}/messages`,
        body: { content: 'otra' },
        label: 'outbox.kind.chatMessage',
        after: { op: opener.id, pick: ['data', 'id'] },
      },
      db,
    );
    const ops = await listOps(1, db);
    const changes = changesOf(ops);
    expect(changes).toHaveLength(2);
    expect(carriersOnlyFor(changes[0]!, ops)).toEqual([]);
    expect(
      carriersOnlyFor(
        changes[1]!,
        ops.filter((o) => o.id !== changes[0]!.op.id),
      ).map((c) => c.id),
    ).toEqual([opener.id]);
    expect(second.after?.op).toBe(opener.id);
  });

  it('still lists a carrier whose change is gone', async () => {
    const { opener, message } = await firstMessage('Hola');
    await db.ops.delete(message.id);
    expect(changesOf(await listOps(1, db)).map((c) => c.op.id)).toEqual([opener.id]);
  });
});
