/**
 * The outbox: writes made offline (or whose request failed for want of network) are stored in IndexedDB first and
 * sent later by replay.ts, each with its own `Idempotency-Key`, so nothing is lost and nothing is applied twice.
 *
 * Public API (used by the features; names kept stable):
 * - `enqueue(newOp)` → the stored OutboxOp. Resolves only after the IndexedDB transaction has committed (strict
 *   durability): only then may the UI say "saved, pending". Rejects with `OutboxQuotaError` when the browser's
 *   storage is full (what was queued before stays). The first enqueue asks for persistent storage.
 *   `coalesce: true` replaces an op of the same user, scope and kind that was never sent (a second offline edit
 *   of one ad, the switch flipped twice) instead of queueing both.
 * - `discard(id)`, `retryNow(id)`, `requeue(id, { body, baseVersion, parts })` (after a conflict or a 422: the
 *   user's fixed values go again, in the same place of the scope's order, with a new key).
 * - `listOps(userId)`, `getOp(id)`; the React hooks are in use-outbox.ts, the replay in replay.ts, the page's
 *   triggers (online, start, visibility, timer, Background Sync, Web Locks, BroadcastChannel) in runtime.ts.
 * - `isNetworkFailure(err)`: whether a failed request should be queued (OfflineError / fetch TypeError / offline).
 *
 * Everything here loads lazily: features import it with `await import('#src/offline/outbox.ts')` on first write, so
 * Dexie stays out of the home route's bundle.
 */
import { changesOf } from './changes.ts';
import { outboxDb, type OutboxDb } from './outbox-db.ts';
import { OUTBOX_CHANNEL, type NewOp, type OutboxEvent, type OutboxOp } from './types.ts';

export * from './types.ts';

/** The browser refused to store more (QuotaExceededError): the UI says so; nothing queued before is lost. */
export class OutboxQuotaError extends Error {
  constructor(cause?: unknown) {
    super('outbox_quota', { cause });
    this.name = 'OutboxQuotaError';
  }
}

function isQuotaError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const name = (e as { name?: string }).name;
    if (name === 'QuotaExceededError') return true;
    e = (e as { inner?: unknown; cause?: unknown }).inner ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether a failed request should go to the outbox: it never reached the server, or the browser says it is offline. */
export function isNetworkFailure(err: unknown): boolean {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return true;
  if (!(err instanceof Error)) return false;
  return err.name === 'OfflineError' || err.message === 'offline' || err instanceof TypeError;
}

let persistAsked = false;
async function askPersistence() {
  if (persistAsked) return;
  persistAsked = true;
  try {
    // Without it the browser may evict the queue under storage pressure. The answer does not change what we do.
    // `persist` is a window API (a worker's StorageManager lacks it): the worker never queues, the page does.
    const storage =
      typeof navigator === 'undefined' ? undefined : (navigator.storage as StorageManager & { persist?: () => Promise<boolean> });
    if (storage?.persisted && !(await storage.persisted())) await storage.persist?.();
  } catch {
    // Not offered (older browsers, some private modes).
  }
}

let channel: BroadcastChannel | undefined;
/** Tells this and the other tabs (and the worker) that the queue changed. */
export function broadcast(event: OutboxEvent) {
  try {
    channel ??= typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(OUTBOX_CHANNEL);
    channel?.postMessage(event);
  } catch {
    // A closed channel (page unloading): the others re-read the database on their next look anyway.
  }
  for (const l of localListeners) l(event);
}
type Listener = (e: OutboxEvent) => void;
const localListeners = new Set<Listener>();
/** Events of this context (a BroadcastChannel does not deliver to its own sender). */
export function onLocalEvent(l: Listener): () => void {
  localListeners.add(l);
  return () => localListeners.delete(l);
}

const uuid = () => crypto.randomUUID();

async function nextSeq(db: OutboxDb): Promise<number> {
  const last = await db.ops.orderBy('seq').last();
  return (last?.seq ?? 0) + 1;
}

export async function enqueue(input: NewOp & { coalesce?: boolean }, db: OutboxDb = outboxDb()): Promise<OutboxOp> {
  const { coalesce, ...fields } = input;
  const now = Date.now();
  let stored: OutboxOp | undefined;
  try {
    await db.transaction('rw', db.ops, async () => {
      let seq = await nextSeq(db);
      if (coalesce) {
        const same = await db.ops
          .where('scope')
          .equals(fields.scope)
          .filter((o) => o.userId === fields.userId && o.kind === fields.kind && o.attempts === 0 && o.status !== 'sending')
          .toArray();
        // The replaced op's place in the scope's order and the version it was based on (the server saw neither).
        const first = same.sort((a, b) => a.seq - b.seq)[0];
        if (first) {
          seq = first.seq;
          if (fields.baseVersion === undefined || (first.baseVersion !== undefined && first.baseVersion < fields.baseVersion)) {
            fields.baseVersion = first.baseVersion;
          }
          await db.ops.bulkDelete(same.map((o) => o.id));
        }
      }
      stored = {
        ...fields,
        id: fields.id ?? uuid(),
        seq,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: 0,
        createdAt: now,
        updatedAt: now,
      };
      await db.ops.add(stored);
    });
  } catch (err) {
    if (isQuotaError(err)) throw new OutboxQuotaError(err);
    throw err;
  }
  void askPersistence();
  broadcast({ type: 'changed', id: stored!.id, status: 'pending' });
  return stored!;
}

export function getOp(id: string, db: OutboxDb = outboxDb()) {
  return db.ops.get(id);
}

/** One user's queue, in the order it will be sent. */
export function listOps(userId: number, db: OutboxDb = outboxDb()): Promise<OutboxOp[]> {
  return db.ops.where('[userId+seq]').between([userId, -Infinity], [userId, Infinity]).toArray();
}

export async function discard(id: string, db: OutboxDb = outboxDb()) {
  await db.ops.delete(id);
  broadcast({ type: 'changed', id, status: 'pending' });
}

/** Send again at the next replay, now (a user's "retry", or the session is back after 'auth'). */
export async function retryNow(id: string, db: OutboxDb = outboxDb()) {
  await db.ops.update(id, { status: 'pending', nextAttemptAt: 0, updatedAt: Date.now() });
  broadcast({ type: 'changed', id, status: 'pending' });
}

/** After sign-in: every op of this user stopped for the session goes again. */
export async function resumeAuth(userId: number, db: OutboxDb = outboxDb()) {
  const n = await db.ops
    .where('userId')
    .equals(userId)
    .filter((o) => o.status === 'auth')
    .modify({ status: 'pending', nextAttemptAt: 0 });
  if (n) broadcast({ type: 'changed', id: '*', status: 'pending' });
  return n;
}

/**
 * The user fixed a conflict or a refusal: the op goes again with the new body and version and a new key (the old
 * key's request was answered; the same key with another body would be refused as a mismatch), keeping its place.
 */
export async function requeue(
  id: string,
  change: Partial<Pick<OutboxOp, 'body' | 'parts' | 'baseVersion' | 'meta' | 'summary'>>,
  db: OutboxDb = outboxDb(),
): Promise<OutboxOp | undefined> {
  let next: OutboxOp | undefined;
  try {
    await db.transaction('rw', db.ops, async () => {
      const op = await db.ops.get(id);
      if (!op) return;
      await db.ops.delete(id);
      next = {
        ...op,
        ...change,
        id: uuid(),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: 0,
        error: undefined,
        current: undefined,
        updatedAt: Date.now(),
      };
      await db.ops.add(next);
    });
  } catch (err) {
    if (isQuotaError(err)) throw new OutboxQuotaError(err);
    throw err;
  }
  if (next) broadcast({ type: 'changed', id: next.id, status: 'pending' });
  return next;
}

/** Sign-out: how many of this user's changes are unsent (the app warns before they are left behind). */
export async function countUnsent(userId: number, db: OutboxDb = outboxDb()): Promise<number> {
  return changesOf(await listOps(userId, db)).length;
}
