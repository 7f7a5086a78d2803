import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOutboxDb, type OutboxDb } from './outbox-db.ts';
import { countUnsent, enqueue, listOps, OutboxQuotaError, requeue } from './outbox.ts';
import type { NewOp } from './types.ts';

let db: OutboxDb;
let n = 0;
beforeEach(() => {
  db = openOutboxDb(`outbox-test-${++n}`);
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const edit = (over: Partial<NewOp> = {}): NewOp => ({
  userId: 1,
  scope: 'ad:1',
  kind: 'profile.update',
  method: 'PUT',
  path: '/api/profile/model-with-ad/update/1',
  label: 'offline.kind.profile.update',
  body: { title: 'a' },
  baseVersion: 3,
  ...over,
});

describe('enqueue', () => {
  it('stores the op durably, with a UUID key and increasing seq', async () => {
    const a = await enqueue(edit(), db);
    const b = await enqueue(edit({ scope: 'ad:2' }), db);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.seq).toBeGreaterThan(a.seq);
    expect((await db.ops.get(a.id))?.status).toBe('pending');
    expect(await countUnsent(1, db)).toBe(2);
  });

  it("keeps users apart: one user's list never shows another's ops", async () => {
    await enqueue(edit(), db);
    await enqueue(edit({ userId: 2 }), db);
    expect((await listOps(1, db)).map((o) => o.userId)).toEqual([1]);
  });

  it('coalesce replaces an unsent op of the same scope and kind, keeping its place and base version', async () => {
    const a = await enqueue({ ...edit(), coalesce: true }, db);
    await enqueue(edit({ scope: 'ad:2' }), db);
    const b = await enqueue({ ...edit({ body: { title: 'b' }, baseVersion: 4 }), coalesce: true }, db);
    const ops = await listOps(1, db);
    expect(ops.map((o) => o.id)).toEqual([b.id, expect.any(String)]);
    expect(ops[0]).toMatchObject({ seq: a.seq, baseVersion: 3, body: { title: 'b' } });
  });

  it('turns a full disk into OutboxQuotaError and keeps what was queued', async () => {
    const kept = await enqueue(edit(), db);
    const add = db.ops.add.bind(db.ops);
    db.ops.add = () => Promise.reject(new DOMException('full', 'QuotaExceededError')) as never;
    await expect(enqueue(edit({ scope: 'ad:9' }), db)).rejects.toBeInstanceOf(OutboxQuotaError);
    db.ops.add = add;
    expect((await listOps(1, db)).map((o) => o.id)).toEqual([kept.id]);
  });

  it('requeue gives the fixed op a new key in the same place', async () => {
    const a = await enqueue(edit(), db);
    await db.ops.update(a.id, { status: 'conflict', current: { version: 5 } });
    const b = await requeue(a.id, { body: { title: 'c' }, baseVersion: 5 }, db);
    expect(b?.id).not.toBe(a.id);
    expect(b).toMatchObject({ seq: a.seq, status: 'pending', baseVersion: 5, current: undefined });
    expect(await db.ops.get(a.id)).toBeUndefined();
  });
});
