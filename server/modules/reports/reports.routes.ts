/**
 *   POST /api/reports                       anyone: a notice about an ad → 201 with a receipt (mailed if an e-mail was left)
 *   GET  /api/admin/reports                 staff: the queue (open first, urgent first, oldest first), filters
 *   GET  /api/admin/reports/{id}            staff: one notice
 *   POST /api/admin/reports/{id}/decide     staff: actioned | dismissed with a text; the reporter is told; audited
 * Restricting the ad itself is a decision in the admin review tools (statement of reasons and all).
 */
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#contract/locations.ts';
import { reportCreateSchema, reportDecisionSchema, reportQuerySchema, URGENT_REPORT_REASONS } from '#contract/reports.ts';
import { reports } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { consume } from '../auth/auth.limits.ts';
import { pageMeta } from '../../answers.ts';
import { adSnapshot, decideReport, findDuplicate, ipHash, mailReporter, MIN_FILL_MS, newReceipt, priorityOf, toReport } from './reports.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };

export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const limits = {
    /** Five notices an hour per address… */
    perIp: app.limiter({ keyPrefix: 'report-ip', points: 5, duration: 3600 }),
    /** …and three a day about the same ad. */
    perIpAd: app.limiter({ keyPrefix: 'report-ip-ad', points: 3, duration: 24 * 3600 }),
  };

  app.post(API.reports, { schema: { body: reportCreateSchema } }, async (req, reply) => {
    const input = req.body;
    const hash = ipHash(app.config.appKey, req.ip);
    const received = (receipt: string) =>
      reply.status(201).send({
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('reports.api.received'),
        description: req.t('reports.api.receivedDescription', { receipt }),
        data: { receipt },
      });
    // A bot (honeypot filled, or sent faster than a person can read the form) gets the same answer and is not stored.
    if (input.website || (input.opened_at !== undefined && Date.now() - input.opened_at < MIN_FILL_MS)) {
      req.log.info({ ipHash: hash }, 'report dropped as automated');
      return received(newReceipt());
    }
    const snapshot = await adSnapshot(db, input.ad_id);
    if (!snapshot) throw notFound();
    const duplicate = await findDuplicate(db, { adId: input.ad_id, reason: input.reason, details: input.details, ipHash: hash });
    if (duplicate) return received(duplicate.receipt);
    await consume(limits.perIp, hash, reply);
    await consume(limits.perIpAd, `${hash}:${input.ad_id}`, reply);
    const urgent = URGENT_REPORT_REASONS.includes(input.reason);
    // The notice and its receipt mail (a queued job) commit together.
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(reports)
        .values({
          adId: input.ad_id,
          adSnapshot: snapshot,
          reason: input.reason,
          details: input.details,
          contact: input.contact ?? null,
          language: req.lang,
          priority: priorityOf(input.reason),
          escalate: urgent,
          receipt: newReceipt(),
          reporterUserId: req.user?.id ?? null,
          ipHash: hash,
        })
        .returning();
      await mailReporter(app, inserted!, 'received', {}, tx);
      return inserted;
    });
    if (urgent) req.log.warn({ reportId: row!.id, adId: input.ad_id, reason: input.reason }, 'urgent report: flagged for escalation');
    return received(row!.receipt);
  });

  app.get(API.adminReports, { schema: { querystring: reportQuerySchema }, config: STAFF }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    const q = req.query;
    const where: SQL[] = [];
    const status = q.status ?? 'open';
    if (status !== 'all') where.push(eq(reports.status, status));
    if (q.reason) where.push(eq(reports.reason, q.reason));
    if (q.escalate) where.push(eq(reports.escalate, q.escalate === '1'));
    const cond = where.length ? and(...where) : undefined;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(reports)
        .where(cond)
        // Open before decided, urgent before the rest, then oldest first: nothing waits behind newer notices.
        .orderBy(desc(eq(reports.status, 'open')), asc(reports.priority), asc(reports.createdAt), asc(reports.id))
        .limit(q.per_page)
        .offset((q.page - 1) * q.per_page),
      db.select({ n: count() }).from(reports).where(cond),
    ]);
    return { data: rows.map(toReport), meta: pageMeta(q.page, q.per_page, Number(total?.n ?? 0), rows.length) };
  });

  app.get(API.adminReport(':id'), { schema: { params: idParamsSchema }, config: STAFF }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    const [row] = await db.select().from(reports).where(eq(reports.id, req.params.id));
    if (!row) throw notFound();
    return { data: toReport(row) };
  });

  app.post(API.adminReportDecide(':id'), { schema: { params: idParamsSchema, body: reportDecisionSchema }, config: STAFF }, async (req) => {
    const decided = await decideReport(app, req, requireUser(req), req.params.id, req.body);
    return {
      channel: 'notification' as const,
      type: 'success' as const,
      message: req.t('reports.api.decided'),
      data: toReport(decided),
    };
  });
};
