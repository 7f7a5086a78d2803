/**
 *   POST /broadcasting/auth        channel authorization for pusher-js / Echo (`socket_id`, `channel_name`)
 *   POST /broadcasting/user-auth   user authentication for `pusher:signin` (`socket_id`)
 *
 * Form-encoded as pusher-js posts them (JSON is accepted too), with the session cookie, the CSRF header and
 * `X-Requested-With` like every other write (plugins/security.ts). The answers are Pusher's, not our envelope:
 * `{ auth, channel_data? }` and `{ auth, user_data }`, signed by app.broadcaster as the Pusher spec defines.
 * A private channel's authorization names the user too (channel_data, embedded server): the subscription is theirs,
 * their client events carry their id and name, and their suspension ends the socket (issue 24 points 2 and 3).
 * Both routes are rate limited per user: pusher-js asks once per channel and connection.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  broadcastingAuthBodySchema,
  broadcastingUserAuthBodySchema,
  channelAuthAnswerSchema,
  userAuthAnswerSchema,
} from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { requireUser } from '../../plugins/session.ts';
import { authorizeSubscription, mayWhisper, memberOf } from './channels.ts';

/** Authorizations one user may ask for per minute (a page subscribes to a few channels; reconnecting asks again). */
export const AUTH_PER_MINUTE = 120;
const authRateLimit = {
  max: AUTH_PER_MINUTE,
  timeWindow: 60_000,
  // After the session is read: counted per user, not per address (offices and mobile carriers share one).
  hook: 'preHandler' as const,
  keyGenerator: (req: { user?: { id: number } | null; ip: string }) => (req.user ? `user:${req.user.id}` : `ip:${req.ip}`),
};

export const broadcastingRoutes: FastifyPluginAsyncZod = async (app) => {
  // Only inside this plugin: the rest of the app takes JSON and multipart.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.realtime?.setClientEventGuard(mayWhisper);

  app.post(
    API.broadcastingAuth,
    {
      schema: { body: broadcastingAuthBodySchema, response: { 200: channelAuthAnswerSchema } },
      config: { auth: true, rateLimit: authRateLimit },
    },
    async (req, reply) => {
      const auth = await authorizeSubscription(app, requireUser(req), req.body.socket_id, req.body.channel_name);
      reply.header('cache-control', 'private, no-store');
      return auth;
    },
  );

  const userAuthOptions = {
    schema: { body: broadcastingUserAuthBodySchema, response: { 200: userAuthAnswerSchema } },
    config: { auth: true, rateLimit: authRateLimit },
  } as const;
  app.post(API.broadcastingUserAuth, userAuthOptions, async (req, reply) => {
    const user = requireUser(req);
    const member = memberOf(user);
    reply.header('cache-control', 'private, no-store');
    return app.broadcaster.authenticateUser(req.body.socket_id, { id: member.user_id, user_info: member.user_info });
  });
};
