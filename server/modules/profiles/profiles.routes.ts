/**
 * Profiles created right after e-mail verification: the model's minimal one (display name; the full profile with its
 * ad lives in modules/model-profiles) and the publicist's, with the trader details of EU DSA art. 30 (legal name, tax
 * id, address, phone, e-mail), which the publicist can update with `version` (409 when stale). Publicists start
 * `pending`: staff approve them.
 * SPEC §2: after profile creation the user is sent to /login, so the session ends here and the user
 * signs in again with their password (docs/decisions/0004).
 */
import { and, eq } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { modelProfileCreateSchema } from '#contract/auth.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { publicistProfileInputSchema, publicistProfileUpdateSchema, type PublicistProfileValues } from '#contract/publicists.ts';
import { STAFF_ROLES } from '#contract/roles.ts';
import { modelProfiles, publicistProfiles } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { endSession, requireUser, requireVerified } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { assertNoForbiddenWords } from '../forbidden-words/assert-no-forbidden-words.ts';
import { publicistById, publicistOfUser, toPublicistProfile } from '../publicists/publicists.repository.ts';

function publicistValues(input: PublicistProfileValues) {
  return {
    displayName: input.display_name,
    legalName: input.legal_name,
    taxId: input.tax_id,
    address: input.address,
    phone: input.phone,
    phoneCountry: input.phone_country,
    email: input.email,
  };
}

export const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    API.profileCreate,
    { schema: { body: modelProfileCreateSchema }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => {
      const user = requireVerified(req);
      if (user.role !== 'model') throw forbidden();
      const [created] = await app.db
        .insert(modelProfiles)
        .values({ userId: user.id, displayName: req.body.display_name, status: 'unverified' })
        .onConflictDoNothing()
        .returning({ id: modelProfiles.id });
      if (!created) throw conflict(undefined, 'profiles.exists');
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
    API.publicistProfileCreate,
    { schema: { body: publicistProfileInputSchema }, config: { auth: { roles: ['publicist'], verified: true } } },
    async (req, reply) => {
      const user = requireVerified(req);
      if (user.role !== 'publicist') throw forbidden();
      const input = req.body;
      assertNoForbiddenWords(req, { display_name: input.display_name, legal_name: input.legal_name });
      // Staff approve publicists: the profile starts `pending` (the column's default).
      const [created] = await app.db
        .insert(publicistProfiles)
        .values({ userId: user.id, ...publicistValues(input), status: 'pending' })
        .onConflictDoNothing()
        .returning({ id: publicistProfiles.id });
      if (!created) throw conflict(undefined, 'profiles.exists');
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

  app.get(API.publicistProfile, { config: { auth: { roles: ['publicist'] } } }, async (req) => {
    const user = requireUser(req);
    if (user.role !== 'publicist') throw forbidden();
    const profile = await publicistOfUser(app.db, user.id);
    if (!profile) throw notFound();
    return { data: await toPublicistProfile(app.db, profile) };
  });

  /** Trader details change with the version they were based on; a stale one answers 409 with the current record. */
  app.put(
    API.publicistProfileUpdate(':id'),
    {
      schema: { params: idParamsSchema, body: publicistProfileUpdateSchema },
      config: { auth: { roles: ['publicist', 'admin', 'super_admin'] } },
    },
    async (req) => {
      const user = requireUser(req);
      const staff = STAFF_ROLES.includes(user.role);
      const profile = await publicistById(app.db, req.params.id);
      if (!profile) throw notFound();
      if (!staff && profile.userId !== user.id) throw forbidden();
      const input = req.body;
      if (profile.version !== input.version) throw conflict({ current: await toPublicistProfile(app.db, profile) });
      assertNoForbiddenWords(req, { display_name: input.display_name, legal_name: input.legal_name });
      await app.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(publicistProfiles)
          .set({ ...publicistValues(input), version: profile.version + 1, updatedAt: new Date() })
          .where(and(eq(publicistProfiles.id, profile.id), eq(publicistProfiles.version, input.version)))
          .returning({ id: publicistProfiles.id });
        if (!updated) throw conflict();
        if (staff) {
          await recordAudit(tx, {
            actor: user,
            action: 'publicist_profile.update',
            subjectType: 'publicist_profile',
            subjectId: profile.id,
            before: await toPublicistProfile(tx, profile),
            after: { ...input },
            req,
          });
        }
      });
      return {
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('notices.profileUpdated'),
        data: await toPublicistProfile(app.db, (await publicistById(app.db, profile.id))!),
      };
    },
  );
};
