/**
 * The audit log's one writer. Call it inside the same transaction as the change it records, so an entry exists if and
 * only if the change happened. Rows cannot be updated or deleted (trigger in migration 0007).
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { SessionUser } from '../../plugins/session.ts';

export type AuditSubject =
  'ad' | 'media' | 'model_profile' | 'publicist_profile' | 'user' | 'verification' | 'appeal' | 'report' | 'contact_message';

export interface AuditEntry {
  actor: Pick<SessionUser, 'id' | 'role' | 'email'> | null;
  /** dotted verb, e.g. `ad.approve`, `model_profile.suspend`, `user.update`, `report.dismiss`. */
  action: string;
  subjectType: AuditSubject;
  subjectId: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: { codes?: string[]; text?: string } | null;
  /** The request, for the caller's IP. */
  req?: Pick<FastifyRequest, 'ip'>;
}

/** Dates and other non-JSON values become JSON-safe, so `before`/`after` show what the row held. */
function plain(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!value) return null;
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actor?.id ?? null,
    actorRole: entry.actor?.role ?? null,
    actorEmail: entry.actor?.email ?? null,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    before: plain(entry.before),
    after: plain(entry.after),
    reason: entry.reason ?? null,
    ip: entry.req?.ip ?? null,
  });
}
