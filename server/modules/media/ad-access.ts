/**
 * Who may change an ad (its photos, and whatever else other modules hang on an ad): the model whose profile owns it,
 * the publicist responsible for that model (model_profiles.publicist_id → publicist_profiles.user_id), or staff
 * (admin, super_admin). Checked on the server for every row, never trusted from the client.
 *
 *   anonymous → 401 · unknown id → 404 · anyone else → 403
 */
import { eq } from 'drizzle-orm';
import { STAFF_ROLES } from '#contract/roles.ts';
import type { Db } from '../../db/client.ts';
import { ads, media, modelProfiles, publicistProfiles } from '../../db/schema.ts';
import { forbidden, notFound, unauthenticated } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';

export interface EditableAd {
  id: number;
  modelProfileId: number;
  /** The user who owns the ad (the model's account). */
  ownerUserId: number | null;
  /** The account of the publicist responsible for the model (null for a model's own profile). */
  publicistUserId: number | null;
  status: (typeof ads.$inferSelect)['status'];
  isListed: boolean;
}

export const isStaff = (user: Pick<SessionUser, 'role'>) => STAFF_ROLES.includes(user.role);

/** Whether `user` may change an ad owned by `ownerUserId` (and managed by the publicist `publicistUserId`, if any). */
export function canEditAd(
  user: Pick<SessionUser, 'id' | 'role'> | null,
  ownerUserId: number | null,
  publicistUserId: number | null = null,
): boolean {
  if (!user) return false;
  return isStaff(user) || (ownerUserId !== null && user.id === ownerUserId) || (publicistUserId !== null && user.id === publicistUserId);
}

export interface LoadOptions {
  /** Inside a transaction: lock the ad row (SELECT … FOR UPDATE) so concurrent changes to its photos queue up. */
  forUpdate?: boolean;
}

const adColumns = {
  id: ads.id,
  modelProfileId: ads.modelProfileId,
  ownerUserId: modelProfiles.userId,
  publicistUserId: publicistProfiles.userId,
  status: ads.status,
  isListed: ads.isListed,
};

/** The ad, if `user` may change it; throws 401 / 404 / 403 otherwise. */
export async function loadEditableAd(db: Db, user: SessionUser | null, adId: number, opts: LoadOptions = {}): Promise<EditableAd> {
  if (!user) throw unauthenticated();
  const query = db
    .select(adColumns)
    .from(ads)
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
    .where(eq(ads.id, adId));
  const [ad] = opts.forUpdate ? await query.for('update', { of: ads }) : await query;
  if (!ad) throw notFound();
  if (!canEditAd(user, ad.ownerUserId, ad.publicistUserId)) throw forbidden();
  return ad;
}

/** A photo and its ad, if `user` may change that ad; throws 401 / 404 / 403 otherwise. */
export async function loadEditableMedia(
  db: Db,
  user: SessionUser | null,
  mediaId: number,
  opts: LoadOptions = {},
): Promise<{ ad: EditableAd; media: typeof media.$inferSelect }> {
  if (!user) throw unauthenticated();
  const [row] = await db.select({ adId: media.adId }).from(media).where(eq(media.id, mediaId));
  if (!row) throw notFound();
  const ad = await loadEditableAd(db, user, row.adId, opts);
  // Read the photo after the ad is locked: what we act on is what is there now.
  const [photo] = await db.select().from(media).where(eq(media.id, mediaId));
  if (!photo || photo.adId !== ad.id) throw notFound();
  return { ad, media: photo };
}

/** Like loadEditableAd, but answers null instead of throwing (for reads that fall back to "not found"). */
export async function findEditableAd(db: Db, user: SessionUser | null, adId: number): Promise<EditableAd | null> {
  if (!user) return null;
  const [ad] = await db
    .select(adColumns)
    .from(ads)
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
    .where(eq(ads.id, adId));
  return ad && canEditAd(user, ad.ownerUserId, ad.publicistUserId) ? ad : null;
}
