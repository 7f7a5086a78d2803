/**
 * A model's profile with its ad (Profile/Model Create, Update, index, Actions): create with the ad
 * (POST /api/profile/model-with-ad/create, also POST /api/model/create), read (GET /api/profile/model), update
 * with optimistic versions (PUT /api/profile/model-with-ad/update/{id}: a stale version answers 409 with the
 * current record), switch the ad on or off (PUT /api/profile/model/activate/{id}/{value}), add an ad
 * (POST /api/ad/create) and delete one (DELETE /api/ad/{id}). Every row is checked against the session user:
 * the profile's owner or staff, nobody else. What staff change on someone else's profile or ad is audited.
 */
import { and, eq } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '#contract/locations.ts';
import {
  activateParamsSchema,
  adCreateSchema,
  type MODEL_WITH_AD_FIELDS,
  modelProfileResponseSchema,
  modelWithAdSchema,
  modelWithAdUpdateSchema,
  type ModelProfile,
  type ModelWithAd,
} from '#contract/profiles.ts';
import { STAFF_ROLES } from '#contract/roles.ts';
import type { Db } from '../../db/client.ts';
import { ads, modelProfiles } from '../../db/schema.ts';
import { conflict, forbidden, notFound, validationFailed } from '../../errors.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser, requireVerified, type SessionUser } from '../../plugins/session.ts';
import { changedFields, recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { assertNoForbiddenWords } from '../forbidden-words/assert-no-forbidden-words.ts';
import { loadEditableAd } from '../media/ad-access.ts';
import {
  adSummary,
  firstAdOf,
  insertAdWithinLimit,
  placeIsConsistent,
  profileById,
  profileOfUser,
  sectionIdOf,
  switchAd,
  toModelProfile,
  type AdRow,
  type ProfileRow,
} from './model-profiles.repository.ts';

const isStaff = (user: SessionUser) => STAFF_ROLES.includes(user.role);

/** The owner, or staff. Others learn nothing about whether the row exists beyond a 403. */
function assertCanEdit(user: SessionUser, profile: ProfileRow): void {
  if (profile.userId !== user.id && !isStaff(user)) throw forbidden();
}

async function editableProfile(db: Db, user: SessionUser, profileId: number): Promise<ProfileRow> {
  const profile = await profileById(db, profileId);
  if (!profile) throw notFound();
  assertCanEdit(user, profile);
  return profile;
}

/** The ad's owner, the publicist responsible for its model, or staff (modules/media/ad-access.ts decides). */
async function editableAd(db: Db, user: SessionUser, adId: number) {
  const access = await loadEditableAd(db, user, adId);
  const [ad] = await db.select().from(ads).where(eq(ads.id, adId));
  if (!ad) throw notFound();
  return { ad, audited: staffActsForOthers(user, access.ownerUserId, access.publicistUserId) };
}

async function assertPlace(req: FastifyRequest, db: Db, input: { country_id: number; state_id: number; city_id: number }) {
  if (!(await placeIsConsistent(db, input.country_id, input.state_id, input.city_id))) {
    throw validationFailed({ city_id: [req.t('profiles.validation.location')] });
  }
}

function assertCleanText(req: FastifyRequest, input: { display_name?: string; title: string; description: string }) {
  assertNoForbiddenWords(req, { display_name: input.display_name, title: input.title, description: input.description });
}

/** What the form shows and edits, from the stored record: the conflict view compares it with what the user typed. */
function formValues(p: ModelProfile): Partial<Record<(typeof MODEL_WITH_AD_FIELDS)[number], unknown>> {
  return {
    display_name: p.display_name,
    birth_date: p.birth_date,
    phone_country: p.phone_country,
    phone: p.phone,
    whatsapp: p.whatsapp,
    country_id: p.country_id,
    state_id: p.ad?.state_id,
    city_id: p.ad?.city_id,
    section: p.ad?.section,
    title: p.ad?.title,
    description: p.ad?.description,
  };
}

export const modelProfilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  const createWithAd = async (req: FastifyRequest & { body: ModelWithAd }) => {
    const user = requireVerified(req);
    if (user.role !== 'model') throw forbidden();
    const input = req.body;
    await assertPlace(req, db, input);
    assertCleanText(req, input);
    const sectionId = await sectionIdOf(db, input.section);
    const profileId = await db.transaction(async (tx) => {
      const [profile] = await tx
        .insert(modelProfiles)
        .values({
          userId: user.id,
          displayName: input.display_name,
          birthDate: input.birth_date,
          phone: input.phone,
          phoneCountry: input.phone_country,
          whatsapp: input.whatsapp,
          countryId: input.country_id,
          status: 'unverified',
        })
        .onConflictDoNothing()
        .returning({ id: modelProfiles.id });
      if (!profile) throw conflict(undefined, 'profiles.exists');
      // A new ad waits for review (SPEC §4) and for photos; it is switched on so approval publishes it.
      await tx.insert(ads).values({
        modelProfileId: profile.id,
        title: input.title,
        description: input.description,
        sectionId,
        cityId: input.city_id,
        status: 'pending',
        isActive: true,
      });
      return profile.id;
    });
    return {
      channel: 'notification' as const,
      type: 'success' as const,
      message: req.t('notices.profileCreated'),
      data: await toModelProfile(db, (await profileById(db, profileId))!, req.lang),
    };
  };

  const createOptions = {
    schema: { body: modelWithAdSchema },
    config: { auth: { roles: ['model' as const], verified: true } },
  };
  app.post(API.modelWithAdCreate, createOptions, async (req, reply) => reply.status(201).send(await createWithAd(req)));
  app.post(API.modelCreate, createOptions, async (req, reply) => reply.status(201).send(await createWithAd(req)));

  app.get(
    API.modelProfile,
    { schema: { response: { 200: modelProfileResponseSchema } }, config: { auth: { roles: ['model'] } } },
    async (req) => {
      const user = requireUser(req);
      if (user.role !== 'model') throw forbidden();
      const profile = await profileOfUser(db, user.id);
      return { data: profile ? await toModelProfile(db, profile, req.lang) : null };
    },
  );

  app.put(
    API.modelWithAdUpdate(':id'),
    { schema: { params: idParamsSchema, body: modelWithAdUpdateSchema }, config: { auth: true } },
    async (req, reply) => {
      const user = requireUser(req);
      const input = req.body;
      const profile = await editableProfile(db, user, req.params.id);
      // Checked before anything else: an edit based on an old copy must not overwrite someone else's newer work.
      if (profile.version !== input.version) {
        const current = await toModelProfile(db, profile, req.lang);
        throw conflict({ current, values: formValues(current) });
      }
      await assertPlace(req, db, input);
      assertCleanText(req, input);
      const sectionId = await sectionIdOf(db, input.section);
      const ad = await firstAdOf(db, profile.id);
      // Read before the write: the entry compares the form's fields as they were with what staff sent.
      const auditedBefore = staffActsForOthers(user, profile.userId) ? formValues(await toModelProfile(db, profile, req.lang)) : null;
      const once = answerOnce(req, reply, 200, async (profileId: number, reader: Db) => ({
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('notices.profileUpdated'),
        data: await toModelProfile(reader, (await profileById(reader, profileId))!, req.lang),
      }));
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(modelProfiles)
          .set({
            displayName: input.display_name,
            birthDate: input.birth_date,
            phone: input.phone,
            phoneCountry: input.phone_country,
            whatsapp: input.whatsapp,
            countryId: input.country_id,
            version: profile.version + 1,
            updatedAt: new Date(),
          })
          // The version in the WHERE makes the check and the write one step: two saves racing cannot both win.
          .where(and(eq(modelProfiles.id, profile.id), eq(modelProfiles.version, input.version)))
          .returning({ id: modelProfiles.id });
        if (!updated) throw conflict();
        if (auditedBefore) {
          const sent = Object.fromEntries(Object.keys(auditedBefore).map((k) => [k, input[k as keyof typeof input]]));
          // A save that changes nothing (only the version moves) is no change to someone's data: nothing to record.
          const change = changedFields(auditedBefore, sent);
          if (change) {
            await recordAudit(tx, {
              actor: user,
              action: 'model_profile.update',
              subjectType: 'model_profile',
              subjectId: profile.id,
              ...change,
              req,
            });
          }
        }
        const adFields = { title: input.title, description: input.description, sectionId, cityId: input.city_id };
        if (!ad) {
          await tx.insert(ads).values({ modelProfileId: profile.id, ...adFields, status: 'pending', isActive: true });
        } else if (
          ad.title !== adFields.title ||
          ad.description !== adFields.description ||
          ad.sectionId !== sectionId ||
          ad.cityId !== adFields.cityId
        ) {
          // Edited text goes back to review (staff see new and edited ads in one queue); staff edits do not.
          await tx
            .update(ads)
            .set({ ...adFields, status: isStaff(user) ? ad.status : 'pending', version: ad.version + 1, updatedAt: new Date() })
            .where(eq(ads.id, ad.id));
        }
        await once.commit?.(tx, profile.id);
      });
      return once.send(profile.id);
    },
  );

  app.put(
    API.modelAdActivate(':id', ':value'),
    { schema: { params: activateParamsSchema }, config: { auth: true } },
    async (req, reply) => {
      const user = requireUser(req);
      const { ad, audited } = await editableAd(db, user, req.params.id);
      const once = answerOnce(req, reply, 200, async (updated: AdRow, reader: Db) => ({
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('notices.adStatusChanged'),
        data: await adSummary(reader, updated, req.lang),
      }));
      const updated = await switchAd(db, ad, req.params.value, audited ? { actor: user, req } : null, once.commit);
      return once.send(updated);
    },
  );

  app.post(
    API.adCreate,
    { schema: { body: adCreateSchema }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => {
      const user = requireVerified(req);
      const profile = await profileOfUser(db, user.id);
      if (!profile) throw conflict(undefined, 'profiles.missing');
      const input = req.body;
      await assertPlace(req, db, input);
      assertCleanText(req, input);
      const once = answerOnce(req, reply, 201, async (ad: AdRow, reader: Db) => {
        const summary = await adSummary(reader, ad, req.lang);
        return { channel: 'notification', type: 'success', message: req.t('notices.adCreated'), url: summary.url, data: summary };
      });
      const ad = await insertAdWithinLimit(
        db,
        profile.id,
        {
          title: input.title,
          description: input.description,
          sectionId: await sectionIdOf(db, input.section),
          cityId: input.city_id,
          status: 'pending',
          isActive: true,
        },
        app.config.maxAdsPerModel,
        once.commit,
      );
      return once.send(ad);
    },
  );

  app.delete(
    API.adDelete(':id'),
    {
      schema: { params: idParamsSchema, response: { 200: z.object({ channel: z.string(), type: z.string(), message: z.string() }) } },
      config: { auth: true },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { ad, audited } = await editableAd(db, user, req.params.id);
      const once = answerOnce(req, reply, 200, () => ({ channel: 'notification', type: 'success', message: req.t('notices.adDeleted') }));
      await db.transaction(async (tx) => {
        // The photos' rows go with the ad (ON DELETE CASCADE); their files with the storage prefix.
        await tx.delete(ads).where(eq(ads.id, ad.id));
        if (audited) {
          await recordAudit(tx, {
            actor: user,
            action: 'ad.delete',
            subjectType: 'ad',
            subjectId: ad.id,
            before: {
              model_profile_id: ad.modelProfileId,
              title: ad.title,
              description: ad.description,
              status: ad.status,
              is_active: ad.isActive,
            },
            req,
          });
        }
        await once.commit?.(tx, undefined);
      });
      await app.storage.remove(`ads/${ad.id}`);
      return once.send(undefined);
    },
  );
};
