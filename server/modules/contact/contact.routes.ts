/**
 *   POST  /api/contact                        visitors: the contact form (honeypot, per-IP limit), acknowledged by a fixed mail
 *   POST  /api/contact/sendMessageToAdmin     signed-in users: a message to the admins (per-user limit)
 *   GET   /api/admin/contact-messages         staff: the messages (new first), filter by status
 *   PATCH /api/admin/contact-messages/{id}    staff: mark read or archived (audited when the status changes)
 * The services are in contact-messages.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successOf } from '#contract/answers.ts';
import {
  adminMessageSchema,
  contactListSchema,
  contactMessageSchema,
  contactQuerySchema,
  contactSchema,
  contactSentSchema,
  contactStatusSchema,
} from '#contract/contact.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import { ok, type Translates } from '../../answers.ts';
import { requireUser } from '../../plugins/session.ts';
import { consume } from '../auth/auth.limits.ts';
import { ipHash } from '../reports/reports.ts';
import { listContactMessages, receiveContactForm, recordContactMessage, setMessageStatus, toMessage } from './contact-messages.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };

const sent = (req: Translates) => ({ ...ok(req, 'contact.api.sent'), description: req.t('contact.api.sentDescription') });

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const limits = {
    perIp: app.limiter({ keyPrefix: 'contact-ip', points: 5, duration: 3600 }),
    perUser: app.limiter({ keyPrefix: 'contact-user', points: 5, duration: 3600 }),
  };

  app.post(API.contact, { schema: { body: contactSchema, response: { 201: contactSentSchema } } }, async (req, reply) => {
    const hash = ipHash(app.config.appKey, req.ip);
    await receiveContactForm(app, req.body, {
      ipHash: hash,
      userId: req.user?.id ?? null,
      language: req.lang,
      log: req.log,
      throttle: () => consume(limits.perIp, hash, reply),
    });
    return reply.status(201).send(sent(req));
  });

  app.post(
    API.contactToAdmin,
    { schema: { body: adminMessageSchema, response: { 201: contactSentSchema } }, config: { auth: true } },
    async (req, reply) => {
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
    },
  );

  app.get(
    API.adminContactMessages,
    { schema: { querystring: contactQuerySchema, response: { 200: contactListSchema } }, config: STAFF },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listContactMessages(db, req.query);
    },
  );

  app.patch(
    API.adminContactMessage(':id'),
    { schema: { params: idParamsSchema, body: contactStatusSchema, response: { 200: successOf(contactMessageSchema) } }, config: STAFF },
    async (req) =>
      ok(req, 'contact.api.updated', toMessage(await setMessageStatus(db, requireUser(req), req.params.id, req.body.status, req))),
  );
};
