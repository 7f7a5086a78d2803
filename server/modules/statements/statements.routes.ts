/**
 * The caller's statements of reasons and their appeals (EU DSA art. 17, 20):
 *   GET  /api/statements                  own statements, newest first, paginated (`data` + `meta`)
 *   GET  /api/statements/{id}             one of them (someone else's: 403; unknown: 404)
 *   POST /api/statements/{id}/appeal      `{ text }` once per statement (409 the second time, or after `appeal_until`)
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#contract/locations.ts';
import { appealBodySchema, statementListSchema, statementSchema, statementsQuerySchema, type Statement } from '#contract/statements.ts';
import { z } from 'zod';
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
import { conflict, forbidden, notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import type { StatementRow } from './statements.ts';

export type AppealRow = typeof appeals.$inferSelect;

export function pageMeta(page: number, perPage: number, total: number, rows: number) {
  const from = rows ? (page - 1) * perPage + 1 : null;
  return {
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
    from,
    to: from === null ? null : from + rows - 1,
  };
}

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
export async function listUserStatements(db: Db, userId: number, page: number, perPage: number) {
  const [{ total }] = (await db.select({ total: count() }).from(statements).where(eq(statements.userId, userId))) as [{ total: number }];
  const rows = await db
    .select()
    .from(statements)
    .leftJoin(appeals, eq(appeals.statementId, statements.id))
    .where(eq(statements.userId, userId))
    .orderBy(desc(statements.createdAt), desc(statements.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const data: Statement[] = [];
  for (const r of rows) data.push(await toStatement(db, r.statements, r.appeals));
  return { data, meta: pageMeta(page, perPage, Number(total), rows.length) };
}

async function ownStatement(db: Db, userId: number, id: number) {
  const [row] = await db.select().from(statements).leftJoin(appeals, eq(appeals.statementId, statements.id)).where(eq(statements.id, id));
  if (!row) throw notFound();
  if (row.statements.userId !== userId) throw forbidden();
  return { statement: row.statements, appeal: row.appeals };
}

export const statementsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.get(
    API.statements,
    { schema: { querystring: statementsQuerySchema, response: { 200: statementListSchema } }, config: { auth: true } },
    async (req, reply) => {
      const user = requireUser(req);
      const list = await listUserStatements(db, user.id, req.query.page, req.query.per_page);
      reply.header('cache-control', 'private, no-store');
      return list;
    },
  );

  app.get(
    API.statement(':id'),
    { schema: { params: idParamsSchema, response: { 200: z.object({ data: statementSchema }) } }, config: { auth: true } },
    async (req, reply) => {
      const user = requireUser(req);
      const { statement, appeal } = await ownStatement(db, user.id, req.params.id);
      reply.header('cache-control', 'private, no-store');
      return { data: await toStatement(db, statement, appeal) };
    },
  );

  app.post(
    API.statementAppeal(':id'),
    { schema: { params: idParamsSchema, body: appealBodySchema }, config: { auth: true } },
    async (req, reply) => {
      const user = requireUser(req);
      const { statement, appeal } = await ownStatement(db, user.id, req.params.id);
      if (appeal) throw conflict(undefined, 'statements.appealExists');
      if (statement.appealUntil <= new Date()) throw conflict(undefined, 'statements.appealClosed');
      const [created] = await db
        .insert(appeals)
        .values({ statementId: statement.id, userId: user.id, text: req.body.text })
        .onConflictDoNothing()
        .returning();
      // Two submissions racing: the unique statement_id lets one in.
      if (!created) throw conflict(undefined, 'statements.appealExists');
      return reply.status(201).send({
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('statements.appealSent'),
        data: await toStatement(db, statement, created),
      });
    },
  );
};
