/**
 * The outbox's IndexedDB database (Dexie). `chromeTransactionDurability: 'strict'`: a write resolves only once it is
 * flushed to disk, so "saved, pending" on screen survives a crash or the phone restarting (Chromium's default,
 * 'relaxed', may lose the last writes on power loss).
 */
import { Dexie, type EntityTable } from 'dexie';
import type { OutboxOp } from './types.ts';

export type OutboxDb = Dexie & { ops: EntityTable<OutboxOp, 'id'> };

export const OUTBOX_DB_NAME = 'vitrina-outbox';

export function openOutboxDb(name = OUTBOX_DB_NAME): OutboxDb {
  const db = new Dexie(name, { chromeTransactionDurability: 'strict' }) as OutboxDb;
  db.version(1).stores({
    // seq: global order; [userId+seq]: one user's queue in order; scope/status for the page's filters.
    ops: 'id, seq, [userId+seq], scope, status, userId',
  });
  return db;
}

let shared: OutboxDb | undefined;
/** The one database of this page or worker. */
export function outboxDb(): OutboxDb {
  shared ??= openOutboxDb();
  return shared;
}
/** Tests: start from a fresh database. */
export function setOutboxDbForTests(db: OutboxDb | undefined) {
  shared = db;
}
