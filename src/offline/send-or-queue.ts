/**
 * The one path of a queueable write: online, it is sent at once with the op's key as `Idempotency-Key`; offline, or
 * when the request fails for want of network, or while earlier ops of the same record still wait (order per record),
 * it goes to the outbox with that same key — so a request that did reach the server before the connection dropped
 * is answered from the server's stored answer on replay, never applied twice.
 */
import { enqueue, isNetworkFailure } from './outbox.ts';
import { outboxDb } from './outbox-db.ts';
import { registerBackgroundSync } from './runtime.ts';
import type { NewOp, OutboxOp } from './types.ts';

export type SendOrQueueResult<T> = { sent: T; queued?: undefined } | { queued: OutboxOp; sent?: undefined };

/** Whether this user has ops of `scope` still in the outbox. */
export async function scopeBusy(userId: number, scope: string): Promise<boolean> {
  return (
    (await outboxDb()
      .ops.where('scope')
      .equals(scope)
      .filter((o) => o.userId === userId)
      .count()) > 0
  );
}

export async function sendOrQueue<T>(
  op: NewOp & { coalesce?: boolean },
  send: (idempotencyKey: string) => Promise<T>,
): Promise<SendOrQueueResult<T>> {
  const id = op.id ?? crypto.randomUUID();
  const queue = async () => {
    const queued = await enqueue({ ...op, id });
    void registerBackgroundSync();
    return { queued };
  };
  if (!navigator.onLine || (await scopeBusy(op.userId, op.scope).catch(() => false))) return queue();
  try {
    return { sent: await send(id) };
  } catch (err) {
    if (isNetworkFailure(err)) return queue();
    throw err;
  }
}
