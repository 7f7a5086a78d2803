/**
 *   POST /api/reports                       anyone: a notice about an ad → 201 with a receipt (mailed if an e-mail was left)
 *   GET  /api/admin/reports                 staff: the queue (open first, urgent first, oldest first), filters
 *   GET  /api/admin/reports/{id}            staff: one notice
 *   POST /api/admin/reports/{id}/decide     staff: actioned | dismissed with a text; the reporter is told; audited
 * Restricting the ad itself is a decision in the admin review tools (statement of reasons and all). The services are
 * in reports.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, successOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import {
  reportCreateSchema,
  reportDecisionSchema,
  reportListSchema,
  reportQuerySchema,
  reportReceivedSchema,
  reportSchema,
} from '#contract/reports.ts';
import { API } from '#contract/routes.ts';
import { ok } from '../../answers.ts';
import { requireUser } from '../../plugins/session.ts';
import { consume } from '../auth/auth.limits.ts';
import { decideReport, fileReport, getReport, ipHash, listReports, toReport } from './reports.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };

export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const limits = {
    /** Five notices an hour per address… */
    perIp: app.limiter({ keyPrefix: 'report-ip', points: 5, duration: 3600 }),
    /** …and three a day about the same ad. */
    perIpAd: app.limiter({ keyPrefix: 'report-ip-ad', points: 3, duration: 24 * 3600 }),
  };

  app.post(API.reports, { schema: { body: reportCreateSchema, response: { 201: reportReceivedSchema } } }, async (req, reply) => {
    const hash = ipHash(app.config.appKey, req.ip);
    const receipt = await fileReport(app, req.body, {
      ipHash: hash,
      language: req.lang,
      reporterUserId: req.user?.id ?? null,
      log: req.log,
      throttle: async () => {
        await consume(limits.perIp, hash, reply);
        await consume(limits.perIpAd, `${hash}:${req.body.ad_id}`, reply);
      },
    });
    return reply
      .status(201)
      .send({ ...ok(req, 'reports.api.received', { receipt }), description: req.t('reports.api.receivedDescription', { receipt }) });
  });

  app.get(
    API.adminReports,
    { schema: { querystring: reportQuerySchema, response: { 200: reportListSchema } }, config: STAFF },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listReports(db, req.query);
    },
  );

  app.get(
    API.adminReport(':id'),
    { schema: { params: idParamsSchema, response: { 200: dataOf(reportSchema) } }, config: STAFF },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await getReport(db, req.params.id) };
    },
  );

  app.post(
    API.adminReportDecide(':id'),
    { schema: { params: idParamsSchema, body: reportDecisionSchema, response: { 200: successOf(reportSchema) } }, config: STAFF },
    async (req) => ok(req, 'reports.api.decided', toReport(await decideReport(app, req, requireUser(req), req.params.id, req.body))),
  );
};
