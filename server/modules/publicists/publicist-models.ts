/**
 * The work behind publicists.routes.ts (the routes stay parse → call → answer): the models under a publicist's
 * responsibility. A model with their ad is created and saved by the shared model-profiles/model-with-ad.ts; what is
 * the publicist's own is here: who may manage a model (the publicist with their own, active publicist profile, or
 * staff; another publicist's model answers 403, an unknown one 404), the agency's caps, and consent — every new model,
 * every new contact e-mail and every re-send opens a consent request whose mail is queued in the same transaction.
 * Changes staff make are audited.
 */
import { asc, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { CONSENT_RESEND_MINUTES, type PublicistModel, type PublicistModelsQuery, type PublicistModelValues } from '#contract/publicists.ts';
import type { Db } from '../../db/client.ts';
import { ads, modelConsents, modelProfiles } from '../../db/schema.ts';
import { conflict, forbidden, notFound, tooManyRequests, validationFailed } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { isStaff } from '../media/ad-access.ts';
import { firstAdOf, profileById, sectionIdOf, switchAd, type ProfileRow } from '../model-profiles/model-profiles.repository.ts';
import { checkModelsWithAds, insertModelWithAd, modelWithAdFormValues, updateModelWithAd } from '../model-profiles/model-with-ad.ts';
import { assertConsentBudget, requestConsent } from './consent.ts';
import {
  assertRoomForModels,
  listPublicistModels,
  publicistById,
  publicistOfUser,
  toPublicistModel,
  type PublicistRow,
} from './publicists.repository.ts';

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

/** What the publicist's form shows and edits: the shared fields and the model's contact e-mail. */
export function publicistModelFormValues(m: PublicistModel) {
  return { ...modelWithAdFormValues(m), contact_email: m.contact_email };
}

/** The model as the answers show it (read through `db`: inside a transaction, the transaction). */
export async function publicistModelView(db: Db, modelId: number, lng: string): Promise<PublicistModel> {
  return toPublicistModel(db, (await profileById(db, modelId))!, lng);
}

/** One page of publicist `publicistId`'s models: staff, or that publicist. */
export async function listModelsOf(db: Db, user: SessionUser, publicistId: number, query: PublicistModelsQuery, lng: string) {
  const publicist = await publicistById(db, publicistId);
  if (!publicist) throw notFound();
  if (!isStaff(user)) {
    const own = await ownPublicist(db, user);
    if (own.id !== publicist.id) throw forbidden();
  }
  return listPublicistModels(db, publicist.id, query, lng);
}

/** One page of the signed-in publicist's own models. */
export async function listOwnModels(db: Db, user: SessionUser, query: PublicistModelsQuery, lng: string) {
  const publicist = await ownPublicist(db, user);
  return listPublicistModels(db, publicist.id, query, lng);
}

export async function readManagedModel(db: Db, user: SessionUser, modelId: number, lng: string): Promise<PublicistModel> {
  const { model } = await managedModel(db, user, modelId);
  return toPublicistModel(db, model, lng);
}

/**
 * Creates the models with their ads, consent requests and the requests' mails in one transaction, all or nothing,
 * within the agency's caps. Field errors are named with `prefix` (`models.{i}.` in a bulk create).
 */
export async function createManagedModels(
  req: FastifyRequest,
  user: SessionUser,
  inputs: PublicistModelValues[],
  prefix: (i: number) => string = () => '',
): Promise<PublicistModel[]> {
  const db = req.server.db;
  const publicist = await ownPublicist(db, user);
  await checkModelsWithAds(req, inputs, prefix);
  const sectionIds = await Promise.all(inputs.map((input) => sectionIdOf(db, input.section)));
  const created = await db.transaction(async (tx) => {
    await assertRoomForModels(tx, publicist.id, inputs.length, req.server.config.maxModelsPerPublicist);
    const ids: number[] = [];
    for (const [i, input] of inputs.entries()) {
      const model = await insertModelWithAd(tx, input, sectionIds[i]!, {
        userId: null,
        publicistId: publicist.id,
        consentStatus: 'pending',
      });
      await requestConsent(req.server, tx, model, publicist, req.lang);
      ids.push(model.id);
    }
    return ids;
  });
  return Promise.all(created.map((id) => publicistModelView(db, id, req.lang)));
}

/** Saves the form over a managed model (with its version); a new contact e-mail asks the model's consent again. */
export async function updateManagedModel(
  req: FastifyRequest,
  user: SessionUser,
  modelId: number,
  input: PublicistModelValues & { version: number },
  commit?: (tx: Db, modelId: number) => Promise<void>,
): Promise<number> {
  const { model, publicist } = await managedModel(req.server.db, user, modelId);
  return updateModelWithAd(
    req,
    {
      user,
      profile: model,
      view: (db, p) => toPublicistModel(db, p, req.lang),
      formValues: publicistModelFormValues,
      consent: {
        budget: assertConsentBudget,
        reopen: (tx, updated) => requestConsent(req.server, tx, updated, publicist, req.lang),
      },
    },
    input,
    commit,
  );
}

/** Switches the model's ad on or off; answers the model's id. */
export async function switchManagedAd(
  req: FastifyRequest,
  user: SessionUser,
  modelId: number,
  value: boolean,
  commit?: (tx: Db, modelId: number) => Promise<void>,
): Promise<number> {
  const db = req.server.db;
  const { model } = await managedModel(db, user, modelId);
  const ad = await firstAdOf(db, model.id);
  if (!ad) throw notFound();
  await switchAd(db, ad, value, isStaff(user) ? { actor: user, req } : null, (tx) => commit?.(tx, model.id) ?? Promise.resolve());
  return model.id;
}

/** Deletes the model's ad (its photos' rows with it, then their files); answers the model as it now is. */
export async function deleteManagedAd(req: FastifyRequest, user: SessionUser, modelId: number): Promise<PublicistModel> {
  const db = req.server.db;
  const { model } = await managedModel(db, user, modelId);
  const ad = await firstAdOf(db, model.id);
  if (!ad) throw notFound();
  await db.transaction(async (tx) => {
    await tx.delete(ads).where(eq(ads.id, ad.id));
    if (isStaff(user)) {
      await recordAudit(tx, { actor: user, action: 'ad.delete', subjectType: 'ad', subjectId: ad.id, before: { title: ad.title }, req });
    }
  });
  await req.server.storage.remove(`ads/${ad.id}`);
  return publicistModelView(db, model.id, req.lang);
}

/** Deletes the model with its ads, photos and consent requests (ON DELETE CASCADE), then the photos' files. */
export async function deleteManagedModel(req: FastifyRequest, user: SessionUser, modelId: number): Promise<void> {
  const db = req.server.db;
  const { model } = await managedModel(db, user, modelId);
  const adIds = (await db.select({ id: ads.id }).from(ads).where(eq(ads.modelProfileId, model.id))).map((a) => a.id);
  await db.transaction(async (tx) => {
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
  for (const id of adIds) await req.server.storage.remove(`ads/${id}`);
}

/**
 * Sends the model's consent request again: not once given (409), not twice within CONSENT_RESEND_MINUTES nor past the
 * day's budget (429), not without an e-mail to send it to (422). Answers the model as it now is.
 */
export async function resendConsent(req: FastifyRequest, user: SessionUser, modelId: number): Promise<PublicistModel> {
  const db = req.server.db;
  const { model, publicist } = await managedModel(db, user, modelId);
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
  const issued = await db.transaction((tx) => requestConsent(req.server, tx, model, publicist, req.lang));
  if (!issued) throw validationFailed({ contact_email: [req.t('publicist.validation.contact')] });
  return publicistModelView(db, model.id, req.lang);
}
