import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelay, BACKOFF_MAX_MS, retryAfterMs } from './backoff.ts';
import { openOutboxDb, type OutboxDb } from './outbox-db.ts';
import { enqueue, onLocalEvent } from './outbox.ts';
import { replayOnce, type ReplayEnv } from './replay.ts';
import type { NewOp, OutboxEvent } from './types.ts';

let db: OutboxDb;
let n = 0;
beforeEach(() => {
  db = openOutboxDb(`replay-test-${++n}`);
});
afterEach(async () => {
  db.close();
  await db.delete();
});

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network';
interface Call {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers from a script, path by path, and records what it was sent. */
function fakeFetch(script: (call: Call, index: number) => Answer) {
  const calls: Call[] = [];
  const impl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      path: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
    };
    calls.push(call);
    const answer = script(call, calls.length - 1);
    if (answer === 'network') throw new TypeError('Failed to fetch');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  }) as typeof fetch;
  return { calls, impl };
}

const op = (over: Partial<NewOp> = {}): NewOp => ({
  userId: 1,
  scope: 'ad:1',
  kind: 'profile.update',
  method: 'PUT',
  path: '/api/profile/model-with-ad/update/1',
  label: 'offline.kind.profile.update',
  body: { title: 'a', version: 3 },
  baseVersion: 3,
  ...over,
});

const env = (f: typeof fetch, over: Partial<ReplayEnv> = {}): ReplayEnv => ({
  userId: 1,
  db,
  fetch: f,
  csrfToken: async () => 'tok',
  now: () => 1_000_000,
  random: () => 0.5,
  ...over,
});

describe('replay order and keys', () => {
  it('sends each scope in order with its op id as Idempotency-Key and the CSRF token; done ops are deleted', async () => {
    const a = await enqueue(op(), db);
    const b = await enqueue(op({ scope: 'ad:2', path: '/x/2' }), db);
    const c = await enqueue(op({ body: { title: 'c', version: 3 } }), db);
    const { calls, impl } = fakeFetch(() => ({ status: 200, body: { data: { version: 4 } } }));
    const summary = await replayOnce(env(impl));
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toEqual([a.id, b.id, c.id]);
    expect(calls[0]!.headers['X-XSRF-TOKEN']).toBe('tok');
    expect(calls[0]!.headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(summary).toMatchObject({ done: 3, pending: 0, attention: 0 });
    expect(await db.ops.count()).toBe(0);
    // The second edit of ad:1 was based on version 3 like the first: it followed our own write to version 4.
    expect(calls[2]!.body).toEqual({ title: 'c', version: 4 });
  });

  it('a scope stops at its first unfinished op; other scopes go on', async () => {
    await enqueue(op(), db);
    const later = await enqueue(op({ body: { title: 'later', version: 3 } }), db);
    const other = await enqueue(op({ scope: 'ad:2', path: '/x/2' }), db);
    const { calls, impl } = fakeFetch((c) => (c.path === '/x/2' ? { status: 200, body: {} } : { status: 503 }));
    const summary = await replayOnce(env(impl));
    expect(calls.map((c) => c.headers['Idempotency-Key'])).not.toContain(later.id);
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toContain(other.id);
    expect(summary).toMatchObject({ done: 1, pending: 2 });
  });

  it("never sends another user's ops with this session", async () => {
    await enqueue(op({ userId: 2 }), db);
    const { calls, impl } = fakeFetch(() => ({ status: 200 }));
    await replayOnce(env(impl));
    expect(calls).toHaveLength(0);
    expect(await db.ops.count()).toBe(1);
  });
});

describe('replay outcomes', () => {
  it('409 version conflict → conflict with the current record from the answer', async () => {
    const a = await enqueue(op(), db);
    const { impl } = fakeFetch(() => ({
      status: 409,
      body: { error: 'version_conflict', message: 'X', data: { current: { version: 5 } } },
    }));
    const summary = await replayOnce(env(impl));
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'conflict', current: { version: 5 }, error: { status: 409 } });
    expect(summary.attention).toBe(1);
  });

  it('409 without the record → GET currentPath', async () => {
    const a = await enqueue(op({ currentPath: '/api/profile/model' }), db);
    const { calls, impl } = fakeFetch((c) =>
      c.method === 'GET' ? { status: 200, body: { data: { version: 7 } } } : { status: 409, body: {} },
    );
    await replayOnce(env(impl));
    expect(calls[1]!.path).toBe('/api/profile/model');
    expect((await db.ops.get(a.id))?.current).toEqual({ version: 7 });
  });

  it('409 idempotency_in_progress → retried later, not a conflict', async () => {
    const a = await enqueue(op(), db);
    const { impl } = fakeFetch(() => ({ status: 409, body: { error: 'idempotency_in_progress' } }));
    const summary = await replayOnce(env(impl));
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: 1_000_000 + 1_000 });
    expect(summary.nextAttemptAt).toBe(1_001_000);
  });

  it("422 → invalid with the server's translated errors", async () => {
    const a = await enqueue(op(), db);
    const { impl } = fakeFetch(() => ({ status: 422, body: { error: 'validation_failed', message: 'M', errors: { title: ['Falta'] } } }));
    await replayOnce(env(impl));
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'invalid', error: { errors: { title: ['Falta'] }, message: 'M' } });
  });

  it('a photo the automated check refused keeps its review token (issue 24 B7: the gallery offers a person’s review)', async () => {
    const a = await enqueue(op(), db);
    const token = '4f0c2a9e-0d1b-4c7a-9d51-2f3b6b1e8a10';
    const refused = { file: 'a.jpg', index: 0, reason: 'unsuitable', message: 'R', review: { token, rule: 'erotica', automated: true } };
    const { impl } = fakeFetch(() => ({
      status: 422,
      body: { error: 'validation_failed', message: 'M', errors: { images: ['a.jpg: R'] }, data: { media: [], refused: [refused] } },
    }));
    await replayOnce(env(impl));
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'invalid', error: { reviewToken: token } });
  });

  it('401 → auth, the queue is kept and the run stops', async () => {
    const a = await enqueue(op(), db);
    const b = await enqueue(op({ scope: 'ad:2' }), db);
    const events: OutboxEvent[] = [];
    const off = onLocalEvent((e) => events.push(e));
    const { calls, impl } = fakeFetch(() => ({ status: 401, body: { error: 'unauthenticated' } }));
    const summary = await replayOnce(env(impl));
    off();
    expect(calls).toHaveLength(1);
    expect(summary.stopped).toBe('auth');
    expect((await db.ops.get(a.id))?.status).toBe('auth');
    expect((await db.ops.get(b.id))?.status).toBe('pending');
    expect(events).toContainEqual({ type: 'auth' });
  });

  it('419 → a fresh CSRF token and one more try', async () => {
    await enqueue(op(), db);
    const tokens: (boolean | undefined)[] = [];
    const { calls, impl } = fakeFetch((_c, i) => (i === 0 ? { status: 419 } : { status: 200 }));
    await replayOnce(env(impl, { csrfToken: async (force) => (tokens.push(force), force ? 'new' : 'old') }));
    expect(calls.map((c) => c.headers['X-XSRF-TOKEN'])).toEqual(['old', 'new']);
    expect(await db.ops.count()).toBe(0);
  });

  it('network error → pending with back-off, and the run stops', async () => {
    const a = await enqueue(op(), db);
    await enqueue(op({ scope: 'ad:2' }), db);
    const { calls, impl } = fakeFetch(() => 'network');
    const summary = await replayOnce(env(impl));
    expect(calls).toHaveLength(1);
    expect(summary).toMatchObject({ stopped: 'offline', pending: 2 });
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await db.ops.get(a.id))!.nextAttemptAt).toBeGreaterThan(1_000_000);
  });

  it('a request that does not answer in time counts as a network failure: the lock is not held for minutes', async () => {
    const a = await enqueue(op(), db);
    let sent = 0;
    // A connection that went dead with the request on its way: no answer, no error, until the request is given up.
    const stalled = ((_input: RequestInfo | URL, init?: RequestInit) => {
      sent += 1;
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
      });
    }) as typeof fetch;
    const summary = await replayOnce(env(stalled, { requestTimeoutMs: 50 }));
    expect(sent).toBe(1);
    expect(summary).toMatchObject({ stopped: 'offline', pending: 1 });
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await db.ops.get(a.id))!.nextAttemptAt).toBeGreaterThan(1_000_000);
  });

  it('a CSRF token that does not come in time: nothing is sent, the op waits for its back-off', async () => {
    const a = await enqueue(op(), db);
    const { calls, impl } = fakeFetch(() => ({ status: 200 }));
    const summary = await replayOnce(env(impl, { csrfToken: () => new Promise(() => undefined), requestTimeoutMs: 50 }));
    expect(calls).toHaveLength(0);
    expect(summary).toMatchObject({ stopped: 'offline', pending: 1 });
    expect(await db.ops.get(a.id)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('429 honours Retry-After; 403 → failed', async () => {
    const a = await enqueue(op(), db);
    const b = await enqueue(op({ scope: 'ad:2', path: '/x/2' }), db);
    const { impl } = fakeFetch((c) =>
      c.path === '/x/2' ? { status: 403, body: { error: 'forbidden' } } : { status: 429, headers: { 'Retry-After': '60' } },
    );
    await replayOnce(env(impl));
    expect((await db.ops.get(a.id))?.nextAttemptAt).toBe(1_000_000 + 60_000);
    expect((await db.ops.get(b.id))?.status).toBe('failed');
  });

  it('an op waiting for its back-off is not sent before its time', async () => {
    const a = await enqueue(op(), db);
    await db.ops.update(a.id, { nextAttemptAt: 2_000_000 });
    const { calls, impl } = fakeFetch(() => ({ status: 200 }));
    expect(await replayOnce(env(impl))).toMatchObject({ pending: 1, nextAttemptAt: 2_000_000 });
    expect(calls).toHaveLength(0);
  });
});

describe('backoff', () => {
  it('grows exponentially under a cap, with jitter', () => {
    expect(backoffDelay(1, () => 1)).toBe(2_000);
    expect(backoffDelay(3, () => 1)).toBe(8_000);
    expect(backoffDelay(30, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(3, () => 0.25)).toBe(2_000);
    expect(backoffDelay(3, () => 0)).toBe(1_000);
  });
  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('5', 0)).toBe(5_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 0)).toBe(10_000);
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });
});
