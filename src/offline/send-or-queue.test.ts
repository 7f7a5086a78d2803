import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OfflineError, ValidationError } from '#src/lib/api-client.ts';
import { openOutboxDb, setOutboxDbForTests, type OutboxDb } from './outbox-db.ts';
import { enqueue } from './outbox.ts';
import { sendOrQueue } from './send-or-queue.ts';
import type { NewOp } from './types.ts';

let db: OutboxDb;
let n = 0;
beforeEach(() => {
  db = openOutboxDb(`send-or-queue-test-${++n}`);
  setOutboxDbForTests(db);
});
afterEach(async () => {
  vi.restoreAllMocks();
  setOutboxDbForTests(undefined);
  db.close();
  await db.delete();
});

const op: NewOp = {
  userId: 1,
  scope: 'publicist-model:7',
  kind: 'publicist.model.update',
  method: 'PUT',
  path: '/api/publicist/model/update/7',
  label: 'outbox.kind.modelUpdate',
  body: { title: 'x', version: 2 },
  baseVersion: 2,
};

describe('sendOrQueue', () => {
  it('online: sends at once with a fresh key and queues nothing', async () => {
    const send = vi.fn(async (key: string) => key);
    const res = await sendOrQueue(op, send);
    expect(res.sent).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.ops.count()).toBe(0);
  });

  it('a network failure queues the op under the key the failed request carried (the server may have it)', async () => {
    let used = '';
    const res = await sendOrQueue(op, async (key) => {
      used = key;
      throw new OfflineError(new TypeError('Failed to fetch'));
    });
    expect(res.queued?.id).toBe(used);
    expect((await db.ops.get(used))?.status).toBe('pending');
  });

  it('offline: queued without trying', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const send = vi.fn();
    const res = await sendOrQueue(op, send);
    expect(send).not.toHaveBeenCalled();
    expect(res.queued).toBeDefined();
  });

  it('behind earlier ops of the same record: queued, so the order holds', async () => {
    await enqueue({ ...op, body: { title: 'first', version: 2 } }, db);
    const send = vi.fn();
    const res = await sendOrQueue({ ...op, scope: 'publicist-model:7' }, send);
    expect(send).not.toHaveBeenCalled();
    expect(res.queued).toBeDefined();
  });

  it("the server's refusal is the caller's to show, not queued", async () => {
    const refusal = new ValidationError(422, { type: 'error', message: 'no', errors: { title: ['x'] } } as never);
    await expect(sendOrQueue(op, () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(await db.ops.count()).toBe(0);
  });
});
