/**
 * Profiles created right after e-mail verification (POST /api/profile/create for a model, POST
 * /api/publicist/profile/create for a publicist), the publicist's profile (GET /api/profile/publicist) and its update
 * with `version` (PUT /api/publicist/profile/update/{id}). The work is in profiles.ts.
 * SPEC §2: after profile creation the user is sent to /login, so the session ends here and the user
 * signs in again with their password (docs/decisions/0004).
 */
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { modelProfileCreateSchema } from '#contract/auth.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { profileCreatedAnswerSchema } from '#contract/profiles.ts';
import {
  publicistProfileAnswerSchema,
  publicistProfileInputSchema,
  publicistProfileReadSchema,
  publicistProfileUpdateSchema,
} from '#contract/publicists.ts';
import { ok } from '../../answers.ts';
import { endSession, requireUser, requireVerified } from '../../plugins/session.ts';
import { createModelProfile, createPublicistProfile, ownPublicistProfile, updatePublicistProfile } from './profiles.ts';

export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    API.profileCreate,
    {
      schema: { body: modelProfileCreateSchema, response: { 201: profileCreatedAnswerSchema } },
      config: { auth: { roles: ['model'], verified: true } },
    },
    async (req, reply) => {
      const created = await createModelProfile(db, requireVerified(req), req.body.display_name);
      await endSession(db, req, reply);
      return reply.status(201).send(ok(req, 'notices.profileCreated', created, { redirect: '/login' }));
    },
  );

  app.post(
    API.publicistProfileCreate,
    {
      schema: { body: publicistProfileInputSchema, response: { 201: profileCreatedAnswerSchema } },
      config: { auth: { roles: ['publicist'], verified: true } },
    },
    async (req, reply) => {
      const created = await createPublicistProfile(req, requireVerified(req), req.body);
      await endSession(db, req, reply);
      return reply.status(201).send(ok(req, 'notices.profileCreated', created, { redirect: '/login' }));
    },
  );

  app.get(
    API.publicistProfile,
    { schema: { response: { 200: publicistProfileReadSchema } }, config: { auth: { roles: ['publicist'] } } },
    async (req) => ({ data: await ownPublicistProfile(db, requireUser(req)) }),
  );

  /** Trader details change with the version they were based on; a stale one answers 409 with the current record. */
  app.put(
    API.publicistProfileUpdate(':id'),
    {
      schema: { params: idParamsSchema, body: publicistProfileUpdateSchema, response: { 200: publicistProfileAnswerSchema } },
      config: { auth: { roles: ['publicist', 'admin', 'super_admin'] } },
    },
    async (req) => ok(req, 'notices.profileUpdated', await updatePublicistProfile(req, requireUser(req), req.params.id, req.body)),
  );
};
