/**
 * Staff routes (roles admin and super_admin; a super admin can do everything an admin can):
 *   GET  /api/admin/counts                            dashboard counts (queues, open reports, appeals, new messages)
 *   GET  /api/admin/models                            model profiles (status, search, page)
 *   GET  /api/admin/models-under-responsibility       the same, only publicists' models (with the publicist)
 *   GET  /api/admin/publicists                        publicist profiles with trader details (status=pending: the queue)
 *   GET  /api/admin/ads                               ads with profile and photos; `data` and `ads` (same array), `count`
 *   GET  /api/admin/clients, /api/admin/clients/{id}  client accounts; one client with their statements of reasons (?page=)
 *   GET  /api/admin/users-without-profile             models and publicists who have not created their profile
 *   GET  /api/admin/photos                            the photo queue (status=pending|reviewed|all), riskiest first
 *   GET  /api/admin/verifications                     verification requests (status=pending: the queue) + profile photos
 *   GET  /api/admin/verifications/{id}/selfie         the private selfie, streamed `private, no-store`
 *   POST /api/admin/decisions                         approve / reject / suspend / pause / reinstate / remove
 *   GET  /api/admin/appeals, POST /api/admin/appeals/{id}/decide
 * Super admin only:
 *   GET  /api/super-admin/admins                      staff accounts (admins are created by POST /api/admin/create)
 *   GET  /api/super-admin/audit                       the audit log, read-only (actor, subject, action, dates)
 */
import { and, count, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { API, STAFF_PREFIXES } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminClientQuerySchema,
  adminClientResponseSchema,
  adminListQuerySchema,
  appealDecisionSchema,
  appealQuerySchema,
  auditQuerySchema,
  decisionBodySchema,
  photoQuerySchema,
  verificationQuerySchema,
} from '#contract/admin.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { auditLog, users, verificationRequests } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { pageMeta } from '../../answers.ts';
import { listUserStatements, subjectLabel, toAppeal } from '../statements/statement-views.ts';
import {
  adminCounts,
  clientsWhere,
  listAds,
  listAppeals,
  listModels,
  listPublicists,
  listPhotos,
  listUsers,
  listVerifications,
  toAdminUser,
  withoutProfileWhere,
} from './admin.repository.ts';
import { applyDecision, decideAppeal } from './decisions.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };
const SUPER = { auth: { roles: ['super_admin' as const] } };

const okAnswer = (message: string, data?: unknown) => ({
  channel: 'notification' as const,
  type: 'success' as const,
  message,
  ...(data === undefined ? {} : { data }),
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const pageOf = (q: { page: number; per_page: number }) => ({ limit: q.per_page, offset: (q.page - 1) * q.per_page });
  // Staff answers are about other people's data: never cached anywhere.
  app.addHook('onSend', async (req, reply) => {
    if (STAFF_PREFIXES.some((p) => req.url.startsWith(p))) reply.header('cache-control', 'private, no-store');
  });

  app.get(API.adminCounts, { config: STAFF }, async () => ({ data: await adminCounts(db) }));

  app.get(API.adminModels, { schema: { querystring: adminListQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listModels(db, req.query, pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.adminModelsUnderResponsibility, { schema: { querystring: adminListQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listModels(db, req.query, pageOf(req.query), true);
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.adminPublicists, { schema: { querystring: adminListQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listPublicists(db, req.query, pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.adminAds, { schema: { querystring: adminListQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listAds(db, app.storage, req.query, pageOf(req.query), req.lang);
    return { data: rows, ads: rows, count: total, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.adminClients, { schema: { querystring: adminListQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listUsers(db, clientsWhere(req.query), pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  // The client's record with their statements of reasons (DSA art. 17), so staff see the history before deciding.
  app.get(
    API.adminClient(':id'),
    {
      schema: { params: idParamsSchema, querystring: adminClientQuerySchema, response: { 200: adminClientResponseSchema } },
      config: STAFF,
    },
    async (req) => {
      const [user] = await db
        .select()
        .from(users)
        .where(and(eq(users.id, req.params.id), eq(users.role, 'client')));
      if (!user) throw notFound();
      const list = await listUserStatements(db, user.id, req.query.page, req.query.per_page);
      return {
        data: {
          ...toAdminUser(user),
          created_at: user.createdAt.toISOString(),
          updated_at: user.updatedAt.toISOString(),
          statements: list.meta.total,
          statement_list: list,
        },
      };
    },
  );

  app.get(API.adminUsersWithoutProfile, { schema: { querystring: adminListQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listUsers(db, withoutProfileWhere(req.query), pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.adminPhotos, { schema: { querystring: photoQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listPhotos(db, app.storage, req.query.status, pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.adminVerifications, { schema: { querystring: verificationQuerySchema }, config: STAFF }, async (req) => {
    const { rows, total } = await listVerifications(db, app.storage, req.query.status ?? 'pending', pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  // The selfie lives in private storage (`verification/…`), which /media/* never serves: staff only, never cached.
  app.get(API.adminVerificationSelfie(':id'), { schema: { params: idParamsSchema }, config: STAFF }, async (req, reply) => {
    const [row] = await db
      .select({ key: verificationRequests.photoKey })
      .from(verificationRequests)
      .where(eq(verificationRequests.id, req.params.id));
    if (!row?.key) throw notFound();
    const file = await app.storage.read(row.key);
    if (!file) throw notFound();
    return reply
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .type('image/webp')
      .header('content-length', file.size)
      .send(file.stream);
  });

  app.post(API.adminDecisions, { schema: { body: decisionBodySchema }, config: STAFF }, async (req) => {
    const staff = requireUser(req);
    const result = await applyDecision(app, req, staff, req.body);
    return okAnswer(req.t(`admin.decided.${req.body.action}`), result);
  });

  app.get(API.adminAppeals, { schema: { querystring: appealQuerySchema }, config: STAFF }, async (req) => {
    const status = req.query.status ?? 'pending';
    const { rows, total } = await listAppeals(db, status, pageOf(req.query));
    const data = [];
    for (const r of rows) {
      data.push({
        ...toAppeal(r.a),
        user: r.user?.id ? r.user : null,
        statement: {
          id: r.s.id,
          subject_type: r.s.subjectType,
          subject_id: r.s.subjectId,
          subject_label: await subjectLabel(db, r.s.subjectType, r.s.subjectId),
          decision: r.s.decision,
          reason_codes: r.s.reasonCodes,
          ground: r.s.ground,
          facts: r.s.facts,
          created_at: r.s.createdAt.toISOString(),
        },
      });
    }
    return { data, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.post(API.adminAppealDecide(':id'), { schema: { params: idParamsSchema, body: appealDecisionSchema }, config: STAFF }, async (req) => {
    const staff = requireUser(req);
    const out = await decideAppeal(app, req, staff, req.params.id, req.body.outcome, req.body.text);
    return okAnswer(req.t(`admin.appeal.${req.body.outcome}`), { id: req.params.id, status: req.body.outcome, restored: out.restored });
  });

  app.get(API.superAdminAdmins, { schema: { querystring: adminListQuerySchema }, config: SUPER }, async (req) => {
    const where = and(
      inArray(users.role, ['admin', 'super_admin']),
      req.query.search
        ? or(ilike(users.name, `%${escapeLike(req.query.search)}%`), ilike(users.email, `%${escapeLike(req.query.search)}%`))
        : undefined,
    );
    const { rows, total } = await listUsers(db, where, pageOf(req.query));
    return { data: rows, meta: pageMeta(req.query.page, req.query.per_page, total, rows.length) };
  });

  app.get(API.superAdminAudit, { schema: { querystring: auditQuerySchema }, config: SUPER }, async (req) => {
    const q = req.query;
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
    return {
      data: rows.map((r) => ({
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
      })),
      meta: pageMeta(q.page, q.per_page, Number(n), rows.length),
    };
  });
};
