/**
 * Two reviewers working the same queue (issue 29 point 4): the second decision on an item that left the queue meanwhile
 * is refused with 409 and names who decided it and when, so the second reviewer's screen skips the item and says so
 * («decidido por Ana hace 1 min») instead of overwriting a colleague's decision or failing without a word.
 */
import { and, desc, eq, like } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import { conflict } from '../../errors.ts';

/** What a 409 on a decided item carries in `data` (contract/admin.ts decidedMeanwhileSchema). */
export interface DecidedMeanwhile {
  decided_meanwhile: true;
  decided_by: { id: number | null; name: string | null };
  decided_at: string | null;
  action: string | null;
}

/** The latest decision recorded on the item (its audit entry, the log's one writer names the staff member). */
export async function lastDecision(db: Db, subjectType: string, subjectId: number): Promise<DecidedMeanwhile> {
  const [row] = await db
    .select({ actorId: auditLog.actorId, name: users.name, action: auditLog.action, at: auditLog.createdAt })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(eq(auditLog.subjectType, subjectType), eq(auditLog.subjectId, subjectId), like(auditLog.action, `${subjectType}.%`)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return {
    decided_meanwhile: true,
    decided_by: { id: row?.actorId ?? null, name: row?.name ?? null },
    decided_at: row?.at.toISOString() ?? null,
    action: row?.action.slice(subjectType.length + 1) ?? null,
  };
}

/** The 409 for an item decided meanwhile; the message names the colleague when the log knows them. */
export async function decidedMeanwhile(db: Db, subjectType: string, subjectId: number) {
  const data = await lastDecision(db, subjectType, subjectId);
  return data.decided_by.name
    ? conflict(data, 'reviewQueue.server.decidedBy', { name: data.decided_by.name })
    : conflict(data, 'reviewQueue.server.decided');
}
