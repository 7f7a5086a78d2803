/**
 * The work behind model-profiles.routes.ts (the routes stay parse → call → answer): a model's own profile with its ad
 * (created, read and updated through the shared model-with-ad.ts), and the model's further ads (added within
 * MAX_ADS_PER_MODEL, switched on or off, deleted). Every row is checked against the signed-in user: the profile's
 * owner or staff, nobody else (an ad also its publicist, media/ad-access.ts). What staff change on someone else's
 * profile or ad is audited in the transaction of the change; `commit` stores the request's idempotent answer there too.
 */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { ModelProfile, ModelWithAd, MODEL_WITH_AD_FIELDS } from '#contract/profiles.ts';
import type { Db } from '../../db/client.ts';
import { ads } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { isStaff, loadEditableAd } from '../media/ad-access.ts';
import {
  insertAdWithinLimit,
  profileById,
  profileOfUser,
  sectionIdOf,
  switchAd,
  toModelProfile,
  type AdRow,
  type ProfileRow,
} from './model-profiles.repository.ts';
import { checkModelsWithAds, insertModelWithAd, modelWithAdFormValues, updateModelWithAd, type AdValues } from './model-with-ad.ts';

/** What the model's form shows and edits (the conflict view's side of the stored record). */
export function modelFormValues(p: ModelProfile): Partial<Record<(typeof MODEL_WITH_AD_FIELDS)[number], unknown>> {
  return modelWithAdFormValues(p);
}

/** The profile as its answers show it (read through `db`: inside a transaction, the transaction). */
export async function modelProfileView(db: Db, profileId: number, lng: string): Promise<ModelProfile> {
  return toModelProfile(db, (await profileById(db, profileId))!, lng);
}

/** The owner, or staff. Others learn nothing about whether the row exists beyond a 403. */
async function editableProfile(db: Db, user: SessionUser, profileId: number): Promise<ProfileRow> {
  const profile = await profileById(db, profileId);
  if (!profile) throw notFound();
  if (profile.userId !== user.id && !isStaff(user)) throw forbidden();
  return profile;
}

/** The ad's owner, the publicist responsible for its model, or staff (modules/media/ad-access.ts decides). */
async function editableAd(db: Db, user: SessionUser, adId: number) {
  const access = await loadEditableAd(db, user, adId);
  const [ad] = await db.select().from(ads).where(eq(ads.id, adId));
  if (!ad) throw notFound();
  return { ad, audited: staffActsForOthers(user, access.ownerUserId, access.publicistUserId) };
}

/** The signed-in model's profile with its first ad; 409 `profiles.exists` for a second one. */
export async function createOwnModelWithAd(req: FastifyRequest, user: SessionUser, input: ModelWithAd): Promise<ModelProfile> {
  if (user.role !== 'model') throw forbidden();
  const db = req.server.db;
  await checkModelsWithAds(req, [input]);
  const sectionId = await sectionIdOf(db, input.section);
  const profile = await db.transaction((tx) => insertModelWithAd(tx, input, sectionId, { userId: user.id }));
  return modelProfileView(db, profile.id, req.lang);
}

/** The signed-in model's profile, or null before they made one (a normal state, not an error). */
export async function ownModelProfile(db: Db, user: SessionUser, lng: string): Promise<ModelProfile | null> {
  if (user.role !== 'model') throw forbidden();
  const profile = await profileOfUser(db, user.id);
  return profile ? toModelProfile(db, profile, lng) : null;
}

/** Saves the form over profile `profileId` (its owner or staff); answers its id. */
export async function updateOwnModelWithAd(
  req: FastifyRequest,
  user: SessionUser,
  profileId: number,
  input: ModelWithAd & { version: number },
  commit?: (tx: Db, profileId: number) => Promise<void>,
): Promise<number> {
  const profile = await editableProfile(req.server.db, user, profileId);
  const view = (db: Db, p: ProfileRow) => toModelProfile(db, p, req.lang);
  return updateModelWithAd(req, { user, profile, view, formValues: modelFormValues }, input, commit);
}

/** Switches an ad on or off; audited when staff switch someone else's. */
export async function switchOwnAd(
  req: FastifyRequest,
  user: SessionUser,
  adId: number,
  value: boolean,
  commit?: (tx: Db, updated: AdRow) => Promise<void>,
): Promise<AdRow> {
  const { ad, audited } = await editableAd(req.server.db, user, adId);
  return switchAd(req.server.db, ad, value, audited ? { actor: user, req } : null, commit);
}

/** A further ad for the signed-in model's profile (409 `profiles.missing` without one), waiting for review. */
export async function addOwnAd(
  req: FastifyRequest,
  user: SessionUser,
  input: AdValues,
  commit?: (tx: Db, ad: AdRow) => Promise<void>,
): Promise<AdRow> {
  const db = req.server.db;
  const profile = await profileOfUser(db, user.id);
  if (!profile) throw conflict(undefined, 'profiles.missing');
  await checkModelsWithAds(req, [input]);
  const values = {
    title: input.title,
    description: input.description,
    sectionId: await sectionIdOf(db, input.section),
    cityId: input.city_id,
    status: 'pending' as const,
    isActive: true,
  };
  return insertAdWithinLimit(db, profile.id, values, req.server.config.maxAdsPerModel, commit);
}

/** Deletes an ad, its photos' rows (ON DELETE CASCADE) and then their files (the storage prefix). */
export async function deleteOwnAd(
  req: FastifyRequest,
  user: SessionUser,
  adId: number,
  commit?: (tx: Db, result: undefined) => Promise<void>,
): Promise<void> {
  const { ad, audited } = await editableAd(req.server.db, user, adId);
  await req.server.db.transaction(async (tx) => {
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
    await commit?.(tx, undefined);
  });
  await req.server.storage.remove(`ads/${ad.id}`);
}
