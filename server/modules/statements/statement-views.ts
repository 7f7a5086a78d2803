/**
 * Statements as their recipients (and staff, on a client's record) read them, and the appeal against one: the
 * services behind statements.routes.ts. `subjectLabel`, `toAppeal` and `listUserStatements` are shared with the
 * staff tools (modules/admin) and the notifications (a statement's subject named in its notice).
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Statement } from '#contract/statements.ts';
import type { Db } from '../../db/client.ts';
import {
  ads,
  appeals,
  auditLog,
  media,
  modelProfiles,
  photoReviews,
  publicistProfiles,
  statements,
  users,
  verificationRequests,
} from '../../db/schema.ts';
import { page } from '../../answers.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { StatementRow } from './statements.ts';

export type AppealRow = typeof appeals.$inferSelect;

/** A readable name for what a statement is about, while it still exists. */
export async function subjectLabel(db: Db, type: string, id: number): Promise<string | null> {
  const one = async (q: Promise<{ label: string }[]>) => (await q)[0]?.label ?? null;
  switch (type) {
    case 'ad':
      return one(db.select({ label: ads.title }).from(ads).where(eq(ads.id, id)));
    case 'model_profile':
      return one(db.select({ label: modelProfiles.displayName }).from(modelProfiles).where(eq(modelProfiles.id, id)));
    case 'publicist_profile':
      return one(db.select({ label: publicistProfiles.displayName }).from(publicistProfiles).where(eq(publicistProfiles.id, id)));
    case 'photo_review':
      return one(
        db.select({ label: ads.title }).from(photoReviews).innerJoin(ads, eq(ads.id, photoReviews.adId)).where(eq(photoReviews.id, id)),
      );
    case 'media': {
      const label = await one(db.select({ label: ads.title }).from(media).innerJoin(ads, eq(ads.id, media.adId)).where(eq(media.id, id)));
      if (label !== null) return label;
      // A removed photo has no row left: its ad is named by the audit entry of the removal.
      return one(
        db
          .select({ label: ads.title })
          .from(auditLog)
          .innerJoin(ads, sql`${ads.id} = (${auditLog.before} ->> 'ad_id')::int`)
          .where(and(eq(auditLog.subjectType, 'media'), eq(auditLog.subjectId, id)))
          .limit(1),
      );
    }
    case 'verification':
      return one(
        db
          .select({ label: modelProfiles.displayName })
          .from(verificationRequests)
          .innerJoin(modelProfiles, eq(modelProfiles.id, verificationRequests.modelProfileId))
          .where(eq(verificationRequests.id, id)),
      );
    case 'user':
      return one(db.select({ label: users.name }).from(users).where(eq(users.id, id)));
    default:
      return null;
  }
}

export function toAppeal(a: AppealRow) {
  return {
    id: a.id,
    status: a.status,
    text: a.text,
    decision_text: a.decisionText,
    decided_at: a.decidedAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  };
}

export async function toStatement(db: Db, s: StatementRow, appeal: AppealRow | null, now = new Date()): Promise<Statement> {
  return {
    id: s.id,
    subject_type: s.subjectType,
    subject_id: s.subjectId,
    subject_label: await subjectLabel(db, s.subjectType, s.subjectId),
    decision: s.decision,
    reason_codes: s.reasonCodes,
    facts: s.facts,
    ground: s.ground,
    automated: s.automated,
    automated_detail: s.automatedDetail ?? null,
    language: s.language,
    appeal_until: s.appealUntil.toISOString(),
    created_at: s.createdAt.toISOString(),
    can_appeal: !appeal && s.appealUntil > now,
    appeal: appeal ? toAppeal(appeal) : null,
  };
}

/**
 * One page of the statements `userId` received, newest first, with their appeals: the user's own list and the staff
 * view of a client's record answer the same thing.
 */
export async function listUserStatements(db: Db, userId: number, pageNo: number, perPage: number) {
  const [{ total }] = (await db.select({ total: count() }).from(statements).where(eq(statements.userId, userId))) as [{ total: number }];
  const rows = await db
    .select()
    .from(statements)
    .leftJoin(appeals, eq(appeals.statementId, statements.id))
    .where(eq(statements.userId, userId))
    .orderBy(desc(statements.createdAt), desc(statements.id))
    .limit(perPage)
    .offset((pageNo - 1) * perPage);
  const data: Statement[] = [];
  for (const r of rows) data.push(await toStatement(db, r.statements, r.appeals));
  return page(data, { page: pageNo, perPage, total: Number(total) });
}

/** The statement `id` with its appeal, if `userId` received it: someone else's is 403, an unknown one 404. */
async function ownStatement(db: Db, userId: number, id: number) {
  const [row] = await db.select().from(statements).leftJoin(appeals, eq(appeals.statementId, statements.id)).where(eq(statements.id, id));
  if (!row) throw notFound();
  if (row.statements.userId !== userId) throw forbidden();
  return { statement: row.statements, appeal: row.appeals };
}

/** One of the user's statements, as they read it. */
export async function readOwnStatement(db: Db, userId: number, id: number): Promise<Statement> {
  const { statement, appeal } = await ownStatement(db, userId, id);
  return toStatement(db, statement, appeal);
}

/** The user's one appeal against their statement `id`, while `appeal_until` has not passed (409 otherwise). */
export async function appealStatement(db: Db, userId: number, id: number, text: string): Promise<Statement> {
  const { statement, appeal } = await ownStatement(db, userId, id);
  if (appeal) throw conflict(undefined, 'statements.appealExists');
  if (statement.appealUntil <= new Date()) throw conflict(undefined, 'statements.appealClosed');
  const [created] = await db.insert(appeals).values({ statementId: statement.id, userId, text }).onConflictDoNothing().returning();
  // Two submissions racing: the unique statement_id lets one in.
  if (!created) throw conflict(undefined, 'statements.appealExists');
  return toStatement(db, statement, created);
}
