/**
 * Minimal profiles created right after e-mail verification (model: display name; publicist: agency name). The
 * model's full profile with its ad lives in modules/model-profiles.
 * SPEC §2: after profile creation the user is sent to /login, so the session ends here and the user
 * signs in again with their password (docs/decisions/0004).
 */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { modelProfileCreateSchema, publicistProfileCreateSchema } from '#contract/auth.ts';
import { modelProfiles, publicistProfiles } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { endSession, requireUser, requireVerified } from '../../plugins/session.ts';

export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/profile/create',
    { schema: { body: modelProfileCreateSchema }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => {
      const user = requireVerified(req);
      if (user.role !== 'model') throw forbidden();
      const [created] = await app.db
        .insert(modelProfiles)
        .values({ userId: user.id, displayName: req.body.display_name, status: 'unverified' })
        .onConflictDoNothing()
        .returning({ id: modelProfiles.id });
      if (!created) throw new AppError(409, 'conflict', 'profiles.exists');
      await endSession(app.db, req, reply);
      return reply.status(201).send({
        channel: 'notification',
        type: 'success',
        message: req.t('notices.profileCreated'),
        redirect: '/login',
        data: { id: created.id },
      });
    },
  );

  app.post(
    '/api/publicist/profile/create',
    { schema: { body: publicistProfileCreateSchema }, config: { auth: { roles: ['publicist'], verified: true } } },
    async (req, reply) => {
      const user = requireVerified(req);
      if (user.role !== 'publicist') throw forbidden();
      const [created] = await app.db
        .insert(publicistProfiles)
        .values({ userId: user.id, displayName: req.body.display_name })
        .onConflictDoNothing()
        .returning({ id: publicistProfiles.id });
      if (!created) throw new AppError(409, 'conflict', 'profiles.exists');
      await endSession(app.db, req, reply);
      return reply.status(201).send({
        channel: 'notification',
        type: 'success',
        message: req.t('notices.profileCreated'),
        redirect: '/login',
        data: { id: created.id },
      });
    },
  );

  app.get('/api/profile/publicist', { config: { auth: { roles: ['publicist'] } } }, async (req) => {
    const user = requireUser(req);
    if (user.role !== 'publicist') throw forbidden();
    const [profile] = await app.db.select().from(publicistProfiles).where(eq(publicistProfiles.userId, user.id));
    if (!profile) throw notFound();
    return {
      data: { id: profile.id, display_name: profile.displayName, status: profile.status, version: profile.version, user: { id: user.id } },
    };
  });
};
