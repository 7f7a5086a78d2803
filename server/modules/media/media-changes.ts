/**
 * POST /api/media/delete and PUT /api/change-cover-picture/{id}, the work behind the routes (media.routes.ts stays
 * parse → call → answer). Each change runs in one transaction that locks the ad's row (loadEditableMedia with
 * forUpdate), records the audit entry when staff change another's ad, and stores the request's idempotent answer
 * (`commit`), so the three happen together or not at all.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { loadEditableMedia } from './ad-access.ts';
import { deletePhoto, listAdPhotos, setCover } from './media.repository.ts';
import type { VisibilityCache } from './media-visibility.ts';

export interface MediaChangeContext {
  app: FastifyInstance;
  /** The signed-in user's request (its user, its log, and the audit entry's origin). */
  req: FastifyRequest;
  /** Stores the request's idempotent answer inside the change's transaction (answerOnce); gets the ad's id. */
  commit: ((tx: Db, adId: number) => Promise<void>) | undefined;
}

/** Deletes one photo; its files go after the commit. Answers the ad's id. */
export async function deleteMedia({ app, req, commit }: MediaChangeContext, visibility: VisibilityCache, mediaId: number): Promise<number> {
  const removed = await app.db.transaction(async (tx) => {
    const { ad, media } = await loadEditableMedia(tx, req.user, mediaId, { forUpdate: true });
    await deletePhoto(tx, media);
    if (staffActsForOthers(req.user!, ad.ownerUserId, ad.publicistUserId)) {
      await recordAudit(tx, {
        actor: req.user,
        action: 'media.delete',
        subjectType: 'media',
        subjectId: media.id,
        before: { ad_id: ad.id, uid: media.uid, is_cover: media.isCover, position: media.position },
        req,
      });
    }
    await commit?.(tx, ad.id);
    return { adId: ad.id, uid: media.uid };
  });
  visibility.forget(removed.adId);
  // The row is gone, so nothing links to the files any more; a failure here leaves only unreachable bytes.
  await app.storage
    .remove(`ads/${removed.adId}/${removed.uid}`)
    .catch((err: unknown) => req.log.error({ err }, 'media: removing files failed'));
  return removed.adId;
}

/** Makes one photo its ad's cover (nothing changes, nor is audited, if it already is). Answers the ad's id. */
export async function changeCover({ app, req, commit }: MediaChangeContext, mediaId: number): Promise<number> {
  return app.db.transaction(async (tx) => {
    const { ad, media } = await loadEditableMedia(tx, req.user, mediaId, { forUpdate: true });
    if (media.isCover) {
      await commit?.(tx, ad.id);
      return ad.id;
    }
    const previous = (await listAdPhotos(tx, ad.id)).find((m) => m.isCover)?.id ?? null;
    await setCover(tx, ad.id, media.id);
    if (staffActsForOthers(req.user!, ad.ownerUserId, ad.publicistUserId)) {
      await recordAudit(tx, {
        actor: req.user,
        action: 'ad.change_cover',
        subjectType: 'ad',
        subjectId: ad.id,
        before: { cover_media_id: previous },
        after: { cover_media_id: media.id },
        req,
      });
    }
    await commit?.(tx, ad.id);
    return ad.id;
  });
}
