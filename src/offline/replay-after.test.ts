/** Ops that need a value from an earlier op's answer (`after`): a cover change of a photo still queued for upload. */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openOutboxDb, type OutboxDb } from './outbox-db.ts';
import { discard, enqueue } from './outbox.ts';
import { replayOnce, type ReplayEnv } from './replay.ts';
import { AFTER_TOKEN, type NewOp } from './types.ts';

let db: OutboxDb;
let n = 0;
beforeEach(() => {
  db = openOutboxDb(`replay-after-test-${++n}`);
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const calls: { path: string; method: string; body: unknown }[] = [];
const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const path = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  calls.push({ path, method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
  const body = path === '/api/upload/images' ? { data: { media: [{ media_id: 77 }], refused: [] } } : { data: {} };
  return new Response(JSON.stringify(body), { status: path === '/api/upload/images' ? 201 : 200 });
}) as typeof fetch;

const env: () => ReplayEnv = () => ({ userId: 1, db, fetch: fetchImpl, csrfToken: async () => 'tok', now: () => 1_000, random: () => 0.5 });

const upload: NewOp = {
  userId: 1,
  scope: 'photos:ad:5',
  kind: 'photo.upload',
  method: 'POST',
  path: '/api/upload/images',
  label: 'x',
  body: { ad_id: 5 },
};
const cover = (after: string): NewOp => ({
  userId: 1,
  scope: 'photos:ad:5',
  kind: 'photo.cover',
  method: 'PUT',
  path: `/api/change-cover-picture/${AFTER_TOKEN}`,
  label: 'x',
  body: { media_id: AFTER_TOKEN, keep: 'as is' },
  after: { op: after, pick: ['data', 'media', 0, 'media_id'] },
});

describe('replay: an op waiting for an earlier answer', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('is sent after the earlier op, with the value of its answer in the path and the body', async () => {
    const first = await enqueue(upload, db);
    await enqueue(cover(first.id), db);
    const summary = await replayOnce(env());
    expect(summary).toMatchObject({ done: 2, pending: 0, attention: 0 });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/upload/images', 'PUT /api/change-cover-picture/77']);
    expect(calls[1]!.body).toEqual({ media_id: 77, keep: 'as is' });
  });

  it('fails instead of being sent when the earlier op was discarded', async () => {
    const first = await enqueue(upload, db);
    const second = await enqueue(cover(first.id), db);
    await discard(first.id, db);
    const summary = await replayOnce(env());
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ done: 0, attention: 1 });
    expect(await db.ops.get(second.id)).toMatchObject({ status: 'failed', error: { code: 'after_discarded' } });
  });
});
