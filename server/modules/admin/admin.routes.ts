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
 *   POST /api/admin/photo-reviews/{id}/decision       a person's review of a refused photo (its appeal's outcome)
 * Super admin only:
 *   GET  /api/super-admin/admins                      staff accounts (admins are created by POST /api/admin/create)
 *   GET  /api/super-admin/audit                       the audit log, read-only (actor, subject, action, dates)
 *   GET  /api/super-admin/review-stats                decided per hour (24 h, per queue), overturned on appeal per rule
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminClientQuerySchema,
  adminClientResponseSchema,
  adminCountsSchema,
  adminListQuerySchema,
  adminUserSchema,
  appealDecidedSchema,
  appealDecisionSchema,
  appealQuerySchema,
  auditEntrySchema,
  auditQuerySchema,
  decisionBodySchema,
  decisionResultSchema,
  photoQuerySchema,
  reviewStatsSchema,
  adminAdRowSchema,
  adminAppealRowSchema,
  adminModelRowSchema,
  adminPublicistRowSchema,
  adminRecentPhotoSchema,
  adminVerificationRowSchema,
  verificationQuerySchema,
} from '#contract/admin.ts';
import { dataOf, pageOf, successOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { photoReviewDecisionAnswerSchema, photoReviewDecisionSchema } from '#contract/photo-reviews.ts';
import { API, STAFF_PREFIXES } from '#contract/routes.ts';
import { z } from 'zod';
import { ok } from '../../answers.ts';
import { requireUser } from '../../plugins/session.ts';
import { listAuditLog } from '../audit/audit.ts';
import { adminCounts } from './admin.repository.ts';
import {
  adminsPage,
  adsPage,
  appealsPage,
  clientRecord,
  clientsPage,
  modelsPage,
  photosPage,
  publicistsPage,
  usersWithoutProfilePage,
  verificationSelfie,
  verificationsPage,
} from './admin.service.ts';
import { applyDecision, decideAppeal } from './decisions.ts';
import { decidePhotoReview } from './photo-review-decision.ts';
import { reviewStats } from './review-stats.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };
const SUPER = { auth: { roles: ['super_admin' as const] } };

const userPage = pageOf(adminUserSchema);

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // Staff answers are about other people's data: never cached anywhere.
  app.addHook('onSend', async (req, reply) => {
    if (STAFF_PREFIXES.some((p) => req.url.startsWith(p))) reply.header('cache-control', 'private, no-store');
  });

  app.get(API.adminCounts, { schema: { response: { 200: dataOf(adminCountsSchema) } }, config: STAFF }, async () => ({
    data: await adminCounts(db),
  }));

  app.get(
    API.adminModels,
    { schema: { querystring: adminListQuerySchema, response: { 200: pageOf(adminModelRowSchema) } }, config: STAFF },
    async (req) => modelsPage(db, req.query),
  );

  app.get(
    API.adminModelsUnderResponsibility,
    { schema: { querystring: adminListQuerySchema, response: { 200: pageOf(adminModelRowSchema) } }, config: STAFF },
    async (req) => modelsPage(db, req.query, true),
  );

  app.get(
    API.adminPublicists,
    { schema: { querystring: adminListQuerySchema, response: { 200: pageOf(adminPublicistRowSchema) } }, config: STAFF },
    async (req) => publicistsPage(db, req.query),
  );

  app.get(
    API.adminAds,
    {
      schema: {
        querystring: adminListQuerySchema,
        response: { 200: pageOf(adminAdRowSchema).extend({ ads: z.array(adminAdRowSchema), count: z.number().int() }) },
      },
      config: STAFF,
    },
    async (req) => adsPage(db, app.storage, req.query, req.lang),
  );

  app.get(API.adminClients, { schema: { querystring: adminListQuerySchema, response: { 200: userPage } }, config: STAFF }, async (req) =>
    clientsPage(db, req.query),
  );

  app.get(
    API.adminClient(':id'),
    {
      schema: { params: idParamsSchema, querystring: adminClientQuerySchema, response: { 200: adminClientResponseSchema } },
      config: STAFF,
    },
    async (req) => ({ data: await clientRecord(db, req.params.id, req.query) }),
  );

  app.get(
    API.adminUsersWithoutProfile,
    { schema: { querystring: adminListQuerySchema, response: { 200: userPage } }, config: STAFF },
    async (req) => usersWithoutProfilePage(db, req.query),
  );

  app.get(
    API.adminPhotos,
    { schema: { querystring: photoQuerySchema, response: { 200: pageOf(adminRecentPhotoSchema) } }, config: STAFF },
    async (req) => photosPage(db, app.storage, req.query),
  );

  app.get(
    API.adminVerifications,
    { schema: { querystring: verificationQuerySchema, response: { 200: pageOf(adminVerificationRowSchema) } }, config: STAFF },
    async (req) => verificationsPage(db, app.storage, req.query),
  );

  // An image, not JSON: no answer schema.
  app.get(API.adminVerificationSelfie(':id'), { schema: { params: idParamsSchema }, config: STAFF }, async (req, reply) => {
    const file = await verificationSelfie(db, app.storage, req.params.id);
    return reply
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .type('image/webp')
      .header('content-length', file.size)
      .send(file.stream);
  });

  app.post(
    API.adminDecisions,
    { schema: { body: decisionBodySchema, response: { 200: successOf(decisionResultSchema) } }, config: STAFF },
    async (req) => ok(req, `admin.decided.${req.body.action}`, await applyDecision(app, req, requireUser(req), req.body)),
  );

  app.get(
    API.adminAppeals,
    { schema: { querystring: appealQuerySchema, response: { 200: pageOf(adminAppealRowSchema) } }, config: STAFF },
    async (req) => appealsPage(db, req.query),
  );

  app.post(
    API.adminAppealDecide(':id'),
    { schema: { params: idParamsSchema, body: appealDecisionSchema, response: { 200: successOf(appealDecidedSchema) } }, config: STAFF },
    async (req) => {
      const { restored } = await decideAppeal(app, req, requireUser(req), req.params.id, req.body.outcome, req.body.text);
      return ok(req, `admin.appeal.${req.body.outcome}`, { id: req.params.id, status: req.body.outcome, restored });
    },
  );

  app.post(
    API.adminPhotoReviewDecision(':id'),
    {
      config: STAFF,
      schema: { params: idParamsSchema, body: photoReviewDecisionSchema, response: { 200: photoReviewDecisionAnswerSchema } },
    },
    async (req) =>
      ok(
        req,
        `photoReviews.decided.${req.body.action}`,
        await decidePhotoReview(app, req, requireUser(req), req.params.id, req.body.action, req.body.text),
      ),
  );

  app.get(
    API.superAdminAdmins,
    { schema: { querystring: adminListQuerySchema, response: { 200: userPage } }, config: SUPER },
    async (req) => adminsPage(db, req.query),
  );

  app.get(
    API.superAdminAudit,
    { schema: { querystring: auditQuerySchema, response: { 200: pageOf(auditEntrySchema) } }, config: SUPER },
    async (req) => listAuditLog(db, req.query),
  );

  app.get(API.superAdminReviewStats, { schema: { response: { 200: dataOf(reviewStatsSchema) } }, config: SUPER }, async () => ({
    data: await reviewStats(db),
  }));
};
