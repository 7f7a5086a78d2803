/**
 * Models under a publicist's responsibility (issue 6 point 1): list (search, sort, pagination; `data` + `meta`), read,
 * create one or several (all-or-nothing), update with `version` (409 answers the current record), switch the ad on or
 * off, delete the ad or the whole model, and re-send the model's consent request. Only a publicist with their own
 * publicist profile, or staff, may call these; every row is checked: another publicist's model answers 403, an
 * unknown one 404. Changes staff make are audited.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '#contract/locations.ts';
import { activateParamsSchema } from '#contract/profiles.ts';
import {
  CONSENT_RESEND_MINUTES,
  publicistModelListSchema,
  publicistModelSchema,
  publicistModelsBulkSchema,
  publicistModelsQuerySchema,
  publicistModelUpdateSchema,
  type PublicistModel,
  type PublicistModelValues,
} from '#contract/publicists.ts';
import type { Db } from '../../db/client.ts';
import { ads, modelConsents, modelProfiles } from '../../db/schema.ts';
import { conflict, forbidden, notFound, tooManyRequests, validationFailed } from '../../errors.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser, type SessionUser } from '../../plugins/session.ts';
import { changedFields, recordAudit } from '../audit/audit.ts';
import { assertNoForbiddenWords } from '../forbidden-words/assert-no-forbidden-words.ts';
import { isStaff } from '../media/ad-access.ts';
import {
  firstAdOf,
  placeIsConsistent,
  profileById,
  sectionIdOf,
  switchAd,
  type ProfileRow,
} from '../model-profiles/model-profiles.repository.ts';
import { assertConsentBudget, openConsent, sendConsentRequest, type IssuedConsent } from './consent.ts';
import {
  assertRoomForModels,
  listPublicistModels,
  publicistById,
  publicistOfUser,
  toPublicistModel,
  type PublicistRow,
} from './publicists.repository.ts';

const PUBLICIST_OR_STAFF = { roles: ['publicist' as const, 'admin' as const, 'super_admin' as const] };

/** The caller's own publicist profile; a publicist without one (or suspended) may not manage models. */
async function ownPublicist(db: Db, user: SessionUser): Promise<PublicistRow> {
  if (user.role !== 'publicist') throw forbidden();
  const publicist = await publicistOfUser(db, user.id);
  if (!publicist) throw forbidden('publicist.profileRequired');
  if (publicist.status === 'suspended') throw forbidden('publicist.suspended');
  return publicist;
}

/** A model the caller may manage: their own (as publicist) or any publicist's (staff). 404 unknown, 403 otherwise. */
async function managedModel(db: Db, user: SessionUser, modelId: number): Promise<{ model: ProfileRow; publicist: PublicistRow }> {
  const model = await profileById(db, modelId);
  if (!model || model.publicistId === null) {
    // A model's own profile is not a publicist's model: staff get 404 here, everyone else learns nothing either.
    if (!model) throw notFound();
    throw isStaff(user) ? notFound() : forbidden();
  }
  if (isStaff(user)) return { model, publicist: (await publicistById(db, model.publicistId))! };
  const publicist = await ownPublicist(db, user);
  if (model.publicistId !== publicist.id) throw forbidden();
  return { model, publicist };
}

type Fields = Record<string, string | null | undefined>;

/** Place and forbidden words of every model in the request, errors named with `prefix` (e.g. `models.2.`). */
async function checkModels(req: FastifyRequest, db: Db, inputs: PublicistModelValues[], prefix: (i: number) => string) {
  const placeErrors: Record<string, string[]> = {};
  for (const [i, input] of inputs.entries()) {
    if (!(await placeIsConsistent(db, input.country_id, input.state_id, input.city_id))) {
      placeErrors[`${prefix(i)}city_id`] = [req.t('profiles.validation.location')];
    }
  }
  if (Object.keys(placeErrors).length) throw validationFailed(placeErrors);
  const fields: Fields = {};
  for (const [i, input] of inputs.entries()) {
    fields[`${prefix(i)}display_name`] = input.display_name;
    fields[`${prefix(i)}title`] = input.title;
    fields[`${prefix(i)}description`] = input.description;
  }
  assertNoForbiddenWords(req, fields);
}

function profileValues(input: PublicistModelValues) {
  return {
    displayName: input.display_name,
    birthDate: input.birth_date,
    contactEmail: input.contact_email,
    phone: input.phone,
    phoneCountry: input.phone_country,
    whatsapp: input.whatsapp,
    countryId: input.country_id,
  };
}

function formValues(m: PublicistModel) {
  return {
    display_name: m.display_name,
    birth_date: m.birth_date,
    contact_email: m.contact_email,
    phone_country: m.phone_country,
    phone: m.phone,
    whatsapp: m.whatsapp,
    country_id: m.country_id,
    state_id: m.ad?.state_id,
    city_id: m.ad?.city_id,
    section: m.ad?.section,
    title: m.ad?.title,
    description: m.ad?.description,
  };
}

const okAnswer = (req: FastifyRequest, key: string, data?: unknown) => ({
  channel: 'notification' as const,
  type: 'success' as const,
  message: req.t(key),
  ...(data === undefined ? {} : { data }),
});

export const publicistsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** Queues the requests' mails in `tx`, the transaction that opened them (rolled back, nothing is sent). */
  const mailRequests = async (req: FastifyRequest, publicist: PublicistRow, issued: { issued: IssuedConsent; name: string }[], tx: Db) => {
    for (const { issued: one, name } of issued) {
      await sendConsentRequest(app, one, req.lang, { model: name, publicist: publicist.displayName, legal: publicist.legalName }, tx);
    }
  };

  /** Creates the models with their ads, consent requests and the requests' mails in one transaction. */
  const createModels = async (req: FastifyRequest, inputs: PublicistModelValues[], prefix: (i: number) => string) => {
    const user = requireUser(req);
    const publicist = await ownPublicist(db, user);
    await checkModels(req, db, inputs, prefix);
    const sectionIds = await Promise.all(inputs.map((input) => sectionIdOf(db, input.section)));
    const created = await db.transaction(async (tx) => {
      await assertRoomForModels(tx, publicist.id, inputs.length, app.config.maxModelsPerPublicist);
      const out: { id: number; issued: IssuedConsent; name: string }[] = [];
      for (const [i, input] of inputs.entries()) {
        const [model] = await tx
          .insert(modelProfiles)
          .values({ ...profileValues(input), userId: null, publicistId: publicist.id, status: 'unverified', consentStatus: 'pending' })
          .returning();
        // Switched on: it is listed once staff approve the ad and the model's profile, the model consents and the
        // agency itself is approved (the ads trigger checks all four).
        await tx.insert(ads).values({
          modelProfileId: model!.id,
          title: input.title,
          description: input.description,
          sectionId: sectionIds[i]!,
          cityId: input.city_id,
          status: 'pending',
          isActive: true,
        });
        const issued = await openConsent(tx, model!, publicist);
        out.push({ id: model!.id, issued: issued!, name: model!.displayName });
      }
      await mailRequests(req, publicist, out, tx);
      return out;
    });
    return Promise.all(created.map(async (c) => toPublicistModel(db, (await profileById(db, c.id))!, req.lang)));
  };

  const listOptions = {
    schema: { querystring: publicistModelsQuerySchema, response: { 200: publicistModelListSchema } },
    config: { auth: PUBLICIST_OR_STAFF },
  };

  app.get(API.publicistModelsOf(':id'), { ...listOptions, schema: { ...listOptions.schema, params: idParamsSchema } }, async (req) => {
    const user = requireUser(req);
    const publicist = await publicistById(db, req.params.id);
    if (!publicist) throw notFound();
    if (!isStaff(user)) {
      const own = await ownPublicist(db, user);
      if (own.id !== publicist.id) throw forbidden();
    }
    return listPublicistModels(db, publicist.id, req.query, req.lang);
  });

  for (const path of [API.publicistModels, API.publicistModelsLegacy]) {
    app.get(path, { ...listOptions, config: { auth: { roles: ['publicist' as const] } } }, async (req) => {
      const publicist = await ownPublicist(db, requireUser(req));
      return listPublicistModels(db, publicist.id, req.query, req.lang);
    });
  }

  app.get(API.publicistModel(':id'), { schema: { params: idParamsSchema }, config: { auth: PUBLICIST_OR_STAFF } }, async (req) => {
    const { model } = await managedModel(db, requireUser(req), req.params.id);
    return { data: await toPublicistModel(db, model, req.lang) };
  });

  for (const path of [API.publicistModelCreate, API.publicistModelUnderResponsibilityCreate]) {
    app.post(path, { schema: { body: publicistModelSchema }, config: { auth: { roles: ['publicist' as const] } } }, async (req, reply) => {
      const [model] = await createModels(req, [req.body], () => '');
      return reply.status(201).send(okAnswer(req, 'publicist.notices.modelCreated', model));
    });
  }

  app.post(
    API.publicistModelsCreate,
    { schema: { body: publicistModelsBulkSchema }, config: { auth: { roles: ['publicist' as const] } } },
    async (req, reply) => {
      const models = await createModels(req, req.body.models, (i) => `models.${i}.`);
      // The form sends one model through this route too: one model is told in the singular.
      const notice = models.length === 1 ? 'publicist.notices.modelCreated' : 'publicist.notices.modelsCreated';
      return reply.status(201).send(okAnswer(req, notice, models));
    },
  );

  app.put(
    API.publicistModelUpdate(':id'),
    { schema: { params: idParamsSchema, body: publicistModelUpdateSchema }, config: { auth: PUBLICIST_OR_STAFF } },
    async (req, reply) => {
      const user = requireUser(req);
      const input = req.body;
      const { model, publicist } = await managedModel(db, user, req.params.id);
      if (model.version !== input.version) {
        const current = await toPublicistModel(db, model, req.lang);
        throw conflict({ current, values: formValues(current) });
      }
      await checkModels(req, db, [input], () => '');
      const sectionId = await sectionIdOf(db, input.section);
      const ad = await firstAdOf(db, model.id);
      // Consent is asked by e-mail only: a new phone number is the ad's, not a new person to ask.
      const contactChanged = (model.contactEmail ?? null) !== input.contact_email;
      if (contactChanged) await assertConsentBudget(db, model.id);
      // Read before the transaction: inside it, a read on `db` would wait for the transaction's own connection (PGlite
      // has one) and never return.
      const { version: _version, ...fields } = input;
      const staffChange = isStaff(user) ? changedFields(formValues(await toPublicistModel(db, model, req.lang)), fields) : null;
      const once = answerOnce(req, reply, 200, async (id: number, reader: Db) =>
        okAnswer(req, 'notices.profileUpdated', await toPublicistModel(reader, (await profileById(reader, id))!, req.lang)),
      );
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(modelProfiles)
          .set({ ...profileValues(input), version: model.version + 1, updatedAt: new Date() })
          .where(and(eq(modelProfiles.id, model.id), eq(modelProfiles.version, input.version)))
          .returning();
        if (!updated) throw conflict();
        const adFields = { title: input.title, description: input.description, sectionId, cityId: input.city_id };
        if (!ad) {
          await tx.insert(ads).values({ modelProfileId: model.id, ...adFields, status: 'pending', isActive: true });
        } else if (
          ad.title !== adFields.title ||
          ad.description !== adFields.description ||
          ad.sectionId !== sectionId ||
          ad.cityId !== adFields.cityId
        ) {
          await tx
            .update(ads)
            .set({ ...adFields, status: isStaff(user) ? ad.status : 'pending', version: ad.version + 1, updatedAt: new Date() })
            .where(eq(ads.id, ad.id));
        }
        if (staffChange) {
          await recordAudit(tx, {
            actor: user,
            action: 'model_profile.update',
            subjectType: 'model_profile',
            subjectId: model.id,
            before: staffChange.before,
            after: staffChange.after,
            req,
          });
        }
        // A new contact means a new person may be behind it: their consent is asked again and the ads wait for it.
        const consent = contactChanged ? await openConsent(tx, updated, publicist) : null;
        if (consent) await mailRequests(req, publicist, [{ issued: consent, name: input.display_name }], tx);
        await once.commit?.(tx, model.id);
      });
      return once.send(model.id);
    },
  );

  app.put(
    API.publicistModelActivate(':id', ':value'),
    { schema: { params: activateParamsSchema }, config: { auth: PUBLICIST_OR_STAFF } },
    async (req, reply) => {
      const user = requireUser(req);
      const { model } = await managedModel(db, user, req.params.id);
      const ad = await firstAdOf(db, model.id);
      if (!ad) throw notFound();
      const once = answerOnce(req, reply, 200, async (id: number, reader: Db) =>
        okAnswer(req, 'notices.adStatusChanged', await toPublicistModel(reader, (await profileById(reader, id))!, req.lang)),
      );
      await switchAd(
        db,
        ad,
        req.params.value,
        isStaff(user) ? { actor: user, req } : null,
        (tx) => once.commit?.(tx, model.id) ?? Promise.resolve(),
      );
      return once.send(model.id);
    },
  );

  app.delete(API.publicistModelAd(':id'), { schema: { params: idParamsSchema }, config: { auth: PUBLICIST_OR_STAFF } }, async (req) => {
    const user = requireUser(req);
    const { model } = await managedModel(db, user, req.params.id);
    const ad = await firstAdOf(db, model.id);
    if (!ad) throw notFound();
    await db.transaction(async (tx) => {
      await tx.delete(ads).where(eq(ads.id, ad.id));
      if (isStaff(user)) {
        await recordAudit(tx, { actor: user, action: 'ad.delete', subjectType: 'ad', subjectId: ad.id, before: { title: ad.title }, req });
      }
    });
    await app.storage.remove(`ads/${ad.id}`);
    return okAnswer(req, 'notices.adDeleted', await toPublicistModel(db, (await profileById(db, model.id))!, req.lang));
  });

  app.delete(
    API.publicistModel(':id'),
    {
      schema: { params: idParamsSchema, response: { 200: z.object({ channel: z.string(), type: z.string(), message: z.string() }) } },
      config: { auth: PUBLICIST_OR_STAFF },
    },
    async (req) => {
      const user = requireUser(req);
      const { model } = await managedModel(db, user, req.params.id);
      const adIds = (await db.select({ id: ads.id }).from(ads).where(eq(ads.modelProfileId, model.id))).map((a) => a.id);
      await db.transaction(async (tx) => {
        // Ads, photos' rows and consent requests go with the profile (ON DELETE CASCADE).
        await tx.delete(modelProfiles).where(eq(modelProfiles.id, model.id));
        if (isStaff(user)) {
          await recordAudit(tx, {
            actor: user,
            action: 'model_profile.delete',
            subjectType: 'model_profile',
            subjectId: model.id,
            before: { display_name: model.displayName, publicist_id: model.publicistId },
            req,
          });
        }
      });
      for (const id of adIds) await app.storage.remove(`ads/${id}`);
      return okAnswer(req, 'publicist.notices.modelDeleted');
    },
  );

  app.post(
    API.publicistModelConsentResend(':id'),
    { schema: { params: idParamsSchema }, config: { auth: { roles: ['publicist' as const] } } },
    async (req) => {
      const { model, publicist } = await managedModel(db, requireUser(req), req.params.id);
      if (model.consentStatus === 'given') throw conflict(undefined, 'publicist.consent.alreadyGiven');
      const [last] = await db
        .select({ at: modelConsents.createdAt })
        .from(modelConsents)
        .where(eq(modelConsents.modelProfileId, model.id))
        .orderBy(desc(modelConsents.createdAt), asc(modelConsents.id))
        .limit(1);
      if (last && Date.now() - last.at.getTime() < CONSENT_RESEND_MINUTES * 60_000) {
        throw tooManyRequests('publicist.consent.resendTooSoon');
      }
      await assertConsentBudget(db, model.id);
      const issued = await db.transaction(async (tx) => {
        const opened = await openConsent(tx, model, publicist);
        if (opened) await mailRequests(req, publicist, [{ issued: opened, name: model.displayName }], tx);
        return opened;
      });
      if (!issued)
        throw validationFailed({
          contact_email: [req.t('publicist.validation.contact')],
        });
      return okAnswer(req, 'publicist.notices.consentSent', await toPublicistModel(db, (await profileById(db, model.id))!, req.lang));
    },
  );
};
