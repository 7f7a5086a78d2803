/**
 * The audit log's one writer, and its one reader (the super admin's read-only view). Call `recordAudit` inside the
 * same transaction as the change it records, so an entry exists if and only if the change happened. Rows cannot be
 * updated or deleted (trigger in migration 0007).
 */
import { and, count, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditEntryView, auditQuerySchema } from '#contract/admin.ts';
import { STAFF_ROLES } from '#contract/roles.ts';
import type { z } from 'zod';
import { page } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { SessionUser } from '../../plugins/session.ts';

export type AuditSubject =
  | 'ad'
  | 'media'
  | 'model_profile'
  | 'publicist_profile'
  | 'user'
  | 'verification'
  | 'appeal'
  | 'report'
  | 'contact_message'
  | 'photo_review';

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

/**
 * Whether a change by `actor` belongs in the log: staff acting on data that is not theirs (`ownerIds` are the accounts
 * the data belongs to or is managed by). An owner's or a publicist's own edits are their business, not a staff action.
 */
export function staffActsForOthers(actor: Pick<SessionUser, 'id' | 'role'>, ...ownerIds: (number | null)[]): boolean {
  return STAFF_ROLES.includes(actor.role) && !ownerIds.includes(actor.id);
}

/**
 * The fields of `after` whose value differs from `before`, as a before/after pair: an entry shows what changed, not
 * whole rows (which would copy hashes and noise into an append-only log). Null when nothing changed.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before[key] ?? null;
    if (JSON.stringify(old) === JSON.stringify(value ?? null)) continue;
    was[key] = old;
    now[key] = value ?? null;
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the log, newest first, filtered as the super admin's form asks: an actor by id (all digits) or by a
 * part of the e-mail, an action by its beginning (`ad.` finds every ad decision), and whole days from–to.
 */
export async function listAuditLog(db: Db, q: z.output<typeof auditQuerySchema>) {
  const conds: SQL[] = [];
  if (q.actor) {
    conds.push(/^\d+$/.test(q.actor) ? eq(auditLog.actorId, Number(q.actor)) : ilike(auditLog.actorEmail, `%${escapeLike(q.actor)}%`));
  }
  if (q.subject_type) conds.push(eq(auditLog.subjectType, q.subject_type));
  if (q.subject_id) conds.push(eq(auditLog.subjectId, q.subject_id));
  if (q.action) conds.push(ilike(auditLog.action, `${escapeLike(q.action)}%`));
  if (q.from) conds.push(gte(auditLog.createdAt, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) conds.push(lt(auditLog.createdAt, sql`${`${q.to}T00:00:00Z`}::timestamptz + interval '1 day'`));
  const where = conds.length ? and(...conds) : undefined;
  const [{ n }] = (await db.select({ n: count() }).from(auditLog).where(where)) as [{ n: number }];
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page);
  const entries: AuditEntryView[] = rows.map((r) => ({
    id: r.id,
    actor: { id: r.actorId, role: r.actorRole, email: r.actorEmail },
    action: r.action,
    subject_type: r.subjectType,
    subject_id: r.subjectId,
    before: r.before ?? null,
    after: r.after ?? null,
    reason: r.reason ?? null,
    ip: r.ip,
    created_at: r.createdAt.toISOString(),
  }));
  return page(entries, { page: q.page, perPage: q.per_page, total: Number(n) });
}
