/**
 *   GET  /api/notifications                 the signed-in user's notifications, newest first, with the unread count
 *   POST /api/notifications/{id}/read       mark one read
 *   POST /api/notifications/read-all        mark every one read
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#contract/locations.ts';
import { notificationsQuerySchema } from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { requireUser } from '../../plugins/session.ts';
import { listNotifications, markAllRead, markRead } from './notifications.ts';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const done = (req: { t: (k: string) => string }, data: { unread: number }) => ({
    channel: 'notification' as const,
    type: 'success' as const,
    message: req.t('notifications.api.read'),
    data,
  });

  app.get(API.notifications, { schema: { querystring: notificationsQuerySchema }, config: { auth: true } }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return listNotifications(app.db, requireUser(req).id, req.query);
  });

  app.post(API.notificationRead(':id'), { schema: { params: idParamsSchema }, config: { auth: true } }, async (req) =>
    done(req, await markRead(app.db, requireUser(req).id, req.params.id)),
  );

  app.post(API.notificationsReadAll, { config: { auth: true } }, async (req) => done(req, await markAllRead(app.db, requireUser(req).id)));
};
