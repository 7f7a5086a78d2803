/**
 * The user's changes as the sync page and the header count show them. Most ops are one change each, but some exist
 * only to carry another: a first support message written offline, before the user has a conversation, is two ops —
 * `chat.open` (opens the conversation) and the message waiting for its id (`after`). Listed as they are, one message
 * showed twice ("3 pendientes" for two changes) with different attempts and buttons, and a user who discarded "the
 * duplicate" could not know which copy was real. Here a carrier op is folded into the change it carries: one row, its
 * state the worse of the two, retry and discard acting on both.
 */
import type { OpKind, OpStatus, OutboxOp } from './types.ts';

/** Kinds never shown on their own while a change they carry is queued. */
const CARRIER_KINDS: ReadonlySet<OpKind> = new Set(['chat.open']);

const ATTENTION: readonly OpStatus[] = ['conflict', 'invalid', 'failed', 'auth'];

export interface Change {
  /** The op the user made (its label, summary, meta and edit path are the change's). */
  op: OutboxOp;
  /** Ops sent first on its behalf (the conversation a first message opens). */
  carriers: OutboxOp[];
  /** A carrier's refusal or sending shows on the change; else the op's own status. */
  status: OpStatus;
  /** The attempts the change has seen: the carrier's while it goes first, then the op's. */
  attempts: number;
  error: OutboxOp['error'];
  nextAttemptAt: number;
  /** Every op of the change, carriers first (the order they are sent in). */
  ids: string[];
}

function folded(op: OutboxOp, carriers: OutboxOp[]): Change {
  const all = [...carriers, op];
  const worst = all.find((o) => ATTENTION.includes(o.status)) ?? all.find((o) => o.status === 'sending') ?? op;
  return {
    op,
    carriers,
    status: worst.status,
    attempts: Math.max(...all.map((o) => o.attempts)),
    error: worst.error,
    nextAttemptAt: Math.max(...all.map((o) => (o.status === 'pending' ? o.nextAttemptAt : 0))),
    ids: all.map((o) => o.id),
  };
}

/** The queue (in sending order) as the user's changes, each once, in the order of the op the user made. */
export function changesOf(ops: readonly OutboxOp[]): Change[] {
  const carriers = new Map(ops.filter((o) => CARRIER_KINDS.has(o.kind)).map((o) => [o.id, o]));
  const carried = new Set<string>();
  const changes: Change[] = [];
  for (const op of ops) {
    if (carriers.has(op.id)) continue;
    const carrier = op.after ? carriers.get(op.after.op) : undefined;
    if (carrier) carried.add(carrier.id);
    changes.push(folded(op, carrier ? [carrier] : []));
  }
  // A carrier whose change is gone (sent, or discarded while the carrier was in flight) is still a change on its own.
  for (const carrier of carriers.values()) if (!carried.has(carrier.id)) changes.push(folded(carrier, []));
  return changes.sort((a, b) => a.op.seq - b.op.seq);
}

/** The carriers only this change needs: discarding the change discards them too (others' stay for the others). */
export function carriersOnlyFor(change: Change, ops: readonly OutboxOp[]): OutboxOp[] {
  return change.carriers.filter((c) => !ops.some((o) => o.id !== change.op.id && o.after?.op === c.id));
}

export const needsAttention = (change: Change) => ATTENTION.includes(change.status);
