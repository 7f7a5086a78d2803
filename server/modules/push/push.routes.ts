/**
 * Web Push subscriptions and switches (issue 25, contract/push.ts), for the signed-in user:
 *   GET    /api/push/subscriptions        the user's devices (`current`: subscribed by this session)
 *   POST   /api/push/subscriptions        this device subscribes (PushSubscription.toJSON()); 201 new, 200 known
 *   DELETE /api/push/subscriptions        this device unsubscribes `{ endpoint }`
 *   DELETE /api/push/subscriptions/{id}   one of the user's devices goes (the profile's list)
 *   GET    /api/push/preferences          the per-category switches and "hide previews"
 *   PUT    /api/push/preferences          change some of them
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import {
  pushDeviceListSchema,
  pushDeviceSchema,
  pushPreferencesAnswerSchema,
  pushPreferencesBodySchema,
  pushSubscriptionBodySchema,
  pushUnsubscribeBodySchema,
} from '#contract/push.ts';
import { API } from '#contract/routes.ts';
import { ok } from '../../answers.ts';
import { requireUser } from '../../plugins/session.ts';
import { registerPushJobs } from './push-delivery.ts';
import { listDevices, preferencesFor, removeDevice, subscribe, unsubscribe, updatePreferences } from './push-subscriptions.ts';

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  if (app.hasDecorator('jobs')) registerPushJobs(app);
  const noStore = { 'cache-control': 'private, no-store' };

  app.get(API.pushSubscriptions, { schema: { response: { 200: pushDeviceListSchema } }, config: { auth: true } }, async (req, reply) => {
    reply.headers(noStore);
    return { data: await listDevices(app.db, requireUser(req).id, req.session?.idHash) };
  });

  app.post(
    API.pushSubscriptions,
    {
      schema: { body: pushSubscriptionBodySchema, response: { 200: successOf(pushDeviceSchema), 201: successOf(pushDeviceSchema) } },
      config: { auth: true },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { device, created } = await subscribe(app, {
        userId: user.id,
        sessionHash: req.session!.idHash,
        userAgent: req.headers['user-agent'],
        body: req.body,
      });
      reply.code(created ? 201 : 200);
      return ok(req, 'pushServer.subscribed', device);
    },
  );

  app.delete(
    API.pushSubscriptions,
    { schema: { body: pushUnsubscribeBodySchema, response: { 200: successOf(z.null()) } }, config: { auth: true } },
    async (req) => {
      await unsubscribe(app, requireUser(req).id, req.body.endpoint);
      return ok(req, 'pushServer.unsubscribed', null);
    },
  );

  app.delete(
    API.pushSubscription(':id'),
    { schema: { params: idParamsSchema, response: { 200: successOf(z.null()) } }, config: { auth: true } },
    async (req) => {
      await removeDevice(app, requireUser(req).id, req.params.id);
      return ok(req, 'pushServer.removed', null);
    },
  );

  app.get(
    API.pushPreferences,
    { schema: { response: { 200: pushPreferencesAnswerSchema } }, config: { auth: true } },
    async (req, reply) => {
      reply.headers(noStore);
      return { data: await preferencesFor(app.db, requireUser(req).id) };
    },
  );

  app.put(
    API.pushPreferences,
    {
      schema: { body: pushPreferencesBodySchema, response: { 200: successOf(pushPreferencesAnswerSchema.shape.data) } },
      config: { auth: true },
    },
    async (req) => ok(req, 'pushServer.saved', await updatePreferences(app.db, requireUser(req).id, req.body)),
  );
};
