/**
 *   GET  /api/notifications                 the signed-in user's notifications, newest first, with the unread count
 *   POST /api/notifications/{id}/read       mark one read
 *   POST /api/notifications/read-all        mark every one read
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { notificationListSchema, notificationReadDataSchema, notificationsQuerySchema } from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { ok } from '../../answers.ts';
import { requireUser } from '../../plugins/session.ts';
import { listNotifications, markAllRead, markRead } from './notifications.ts';

const readAnswer = { 200: successOf(notificationReadDataSchema) };

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API.notifications,
    { schema: { querystring: notificationsQuerySchema, response: { 200: notificationListSchema } }, config: { auth: true } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listNotifications(app.db, requireUser(req).id, req.query);
    },
  );

  app.post(API.notificationRead(':id'), { schema: { params: idParamsSchema, response: readAnswer }, config: { auth: true } }, async (req) =>
    ok(req, 'notifications.api.read', await markRead(app.db, requireUser(req).id, req.params.id)),
  );

  app.post(API.notificationsReadAll, { schema: { response: readAnswer }, config: { auth: true } }, async (req) =>
    ok(req, 'notifications.api.read', await markAllRead(app.db, requireUser(req).id)),
  );
};
