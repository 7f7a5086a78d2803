/**
 *   POST  /api/contact                        visitors: the contact form (honeypot, per-IP limit), acknowledged by a fixed mail
 *   POST  /api/contact/sendMessageToAdmin     signed-in users: a message to the admins (per-user limit)
 *   GET   /api/admin/contact-messages         staff: the messages (new first), filter by status
 *   PATCH /api/admin/contact-messages/{id}    staff: mark read or archived (audited when the status changes)
 */
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminMessageSchema, contactQuerySchema, contactSchema, contactStatusSchema, type ContactMessage } from '#contract/contact.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { contactMessages } from '../../db/schema.ts';
import { requireUser } from '../../plugins/session.ts';
import { consume } from '../auth/auth.limits.ts';
import { ipHash, MIN_FILL_MS } from '../reports/reports.ts';
import { pageMeta } from '../../answers.ts';
import { recordContactMessage, setMessageStatus } from './contact-messages.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };
const PER_PAGE = 20;

function toMessage(m: typeof contactMessages.$inferSelect): ContactMessage {
  return {
    id: m.id,
    kind: m.kind,
    user_id: m.userId,
    name: m.name,
    email: m.email,
    subject: m.subject,
    message: m.message,
    language: m.language,
    status: m.status,
    created_at: m.createdAt.toISOString(),
  };
}

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const limits = {
    perIp: app.limiter({ keyPrefix: 'contact-ip', points: 5, duration: 3600 }),
    perUser: app.limiter({ keyPrefix: 'contact-user', points: 5, duration: 3600 }),
  };
  const sent = (req: { t: (k: string) => string }) => ({
    channel: 'notification' as const,
    type: 'success' as const,
    message: req.t('contact.api.sent'),
    description: req.t('contact.api.sentDescription'),
  });

  app.post(API.contact, { schema: { body: contactSchema } }, async (req, reply) => {
    const input = req.body;
    const hash = ipHash(app.config.appKey, req.ip);
    if (input.website || (input.opened_at !== undefined && Date.now() - input.opened_at < MIN_FILL_MS)) {
      req.log.info({ ipHash: hash }, 'contact message dropped as automated');
      return reply.status(201).send(sent(req));
    }
    await consume(limits.perIp, hash, reply);
    await recordContactMessage(app, {
      kind: 'contact',
      userId: req.user?.id ?? null,
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      language: req.lang,
      ipHash: hash,
    });
    return reply.status(201).send(sent(req));
  });

  app.post(API.contactToAdmin, { schema: { body: adminMessageSchema }, config: { auth: true } }, async (req, reply) => {
    const user = requireUser(req);
    await consume(limits.perUser, String(user.id), reply);
    await recordContactMessage(app, {
      kind: 'admin',
      userId: user.id,
      name: user.name,
      email: user.email,
      subject: req.body.subject,
      message: req.body.message,
      language: user.locale,
      ipHash: ipHash(app.config.appKey, req.ip),
    });
    return reply.status(201).send(sent(req));
  });

  app.get(API.adminContactMessages, { schema: { querystring: contactQuerySchema }, config: STAFF }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    const { page } = req.query;
    const status = req.query.status ?? 'all';
    const where: SQL[] = status === 'all' ? [] : [eq(contactMessages.status, status)];
    const cond = where.length ? and(...where) : undefined;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(contactMessages)
        .where(cond)
        // New ones first, then archived last; newest first within each.
        .orderBy(
          desc(eq(contactMessages.status, 'new')),
          asc(eq(contactMessages.status, 'archived')),
          desc(contactMessages.createdAt),
          desc(contactMessages.id),
        )
        .limit(PER_PAGE)
        .offset((page - 1) * PER_PAGE),
      db.select({ n: count() }).from(contactMessages).where(cond),
    ]);
    return { data: rows.map(toMessage), meta: pageMeta(page, PER_PAGE, Number(total?.n ?? 0), rows.length) };
  });

  app.patch(
    API.adminContactMessage(':id'),
    { schema: { params: idParamsSchema, body: contactStatusSchema }, config: STAFF },
    async (req) => {
      const updated = await setMessageStatus(db, requireUser(req), req.params.id, req.body.status, req);
      return {
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('contact.api.updated'),
        data: toMessage(updated),
      };
    },
  );
};
