/**
 * React hooks over the outbox (Dexie liveQuery + useSyncExternalStore; dexie-react-hooks is not needed for this).
 * Lazy like the rest of src/offline: import them from components that are themselves loaded on demand.
 */
import { liveQuery } from 'dexie';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { outboxDb } from './outbox-db.ts';
import { getOutboxState, subscribeOutboxState, type OutboxState } from './runtime.ts';
import type { OutboxOp } from './types.ts';

/** A live query's latest value; undefined until the first answer. */
function useLive<T>(query: () => Promise<T>, deps: unknown[]): T | undefined {
  const [value, setValue] = useState<T>();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller lists what the query reads
  const observable = useMemo(() => liveQuery(query), deps);
  useEffect(() => {
    const sub = observable.subscribe({ next: setValue, error: () => setValue(undefined) });
    return () => sub.unsubscribe();
  }, [observable]);
  return value;
}

/** The user's queued ops, in sending order (undefined while loading, or without a user). */
export function useOutboxOps(userId: number | undefined): OutboxOp[] | undefined {
  return useLive(
    () =>
      userId === undefined
        ? Promise.resolve([])
        : outboxDb().ops.where('[userId+seq]').between([userId, -Infinity], [userId, Infinity]).toArray(),
    [userId],
  );
}

/** The ops of one record (e.g. `ad:12`): a card shows "changes not yet sent" while there are any. */
export function useScopeOps(userId: number | undefined, scope: string): OutboxOp[] {
  const ops = useOutboxOps(userId);
  return useMemo(() => (ops ?? []).filter((o) => o.scope === scope), [ops, scope]);
}

export const NEEDS_ATTENTION: readonly OutboxOp['status'][] = ['conflict', 'invalid', 'failed', 'auth'];

export function useOutboxState(): OutboxState {
  return useSyncExternalStore(subscribeOutboxState, getOutboxState, getOutboxState);
}
