/**
 * The photo rows of an ad. Every change runs in a transaction that first locks the ad row (loadEditableAd with
 * forUpdate), so two uploads, a delete and a cover change on the same ad queue up instead of racing for the one
 * cover (the unique partial index media_one_cover_per_ad_idx would refuse a second one anyway).
 */
import { and, asc, count, desc, eq, max, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ads, media, type MediaModeration } from '../../db/schema.ts';

export type MediaRecord = typeof media.$inferSelect;

/** The ad's photos, cover first, then in upload order. */
export async function listAdPhotos(db: Db, adId: number): Promise<MediaRecord[]> {
  return db.select().from(media).where(eq(media.adId, adId)).orderBy(desc(media.isCover), asc(media.position), asc(media.id));
}

export async function countAdPhotos(db: Db, adId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(media).where(eq(media.adId, adId));
  return Number(row?.n ?? 0);
}

export interface NewPhoto {
  adId: number;
  uid: string;
  width: number;
  height: number;
  variants: number[];
  moderation: MediaModeration;
  createdBy: number;
}

/**
 * Adds a photo at the end of the ad's gallery; it becomes the cover if the ad has none. Call inside a transaction
 * that holds the ad's row lock.
 */
export async function insertPhoto(tx: Db, photo: NewPhoto): Promise<MediaRecord> {
  const [agg] = await tx
    .select({ last: max(media.position), covers: sql<number>`count(*) filter (where ${media.isCover})` })
    .from(media)
    .where(eq(media.adId, photo.adId));
  const [row] = await tx
    .insert(media)
    .values({ ...photo, position: (agg?.last ?? -1) + 1, isCover: Number(agg?.covers ?? 0) === 0 })
    .returning();
  return row!;
}

/**
 * After new photos the ad goes back to review (SPEC §4: "Anuncio pendiente de revisión!"); the ads trigger then takes
 * it out of the listing. A suspended ad stays suspended: uploading is no way round a block.
 */
export async function markAdPendingReview(tx: Db, adId: number): Promise<void> {
  await tx
    .update(ads)
    .set({ status: 'pending', updatedAt: new Date() })
    .where(and(eq(ads.id, adId), notInArray(ads.status, ['pending', 'suspended'])));
}

/** Deletes the photo; if it was the cover, the first remaining photo (by position) becomes the cover. */
export async function deletePhoto(tx: Db, photo: MediaRecord): Promise<void> {
  await tx.delete(media).where(eq(media.id, photo.id));
  if (!photo.isCover) return;
  const [next] = await tx
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.adId, photo.adId), ne(media.id, photo.id)))
    .orderBy(asc(media.position), asc(media.id))
    .limit(1);
  if (next) await tx.update(media).set({ isCover: true }).where(eq(media.id, next.id));
}

/** Makes `mediaId` the ad's one cover: the old cover is cleared first, then the new one set (same transaction). */
export async function setCover(tx: Db, adId: number, mediaId: number): Promise<void> {
  await tx
    .update(media)
    .set({ isCover: false })
    .where(and(eq(media.adId, adId), eq(media.isCover, true), ne(media.id, mediaId)));
  await tx
    .update(media)
    .set({ isCover: true })
    .where(and(eq(media.id, mediaId), eq(media.adId, adId)));
}
