/**
 * An ad's photo writes through the outbox (issue 15), all in one scope per ad (`photos:ad:{id}`) so they reach the
 * server in the order made:
 * - an upload that cannot be sent (no network) is stored as the pixelated JPEG the uploader rendered — never the
 *   original — with a thumbnail to show meanwhile, under the Idempotency-Key of the attempt that failed (if that
 *   attempt did reach the server, the replay gets its stored answer: one photo, not two);
 * - a deletion or a cover change is sent at once when it can be, else queued (sendOrQueue);
 * - a cover change of a photo still waiting to upload waits for that upload and takes the media id from its answer
 *   (the outbox's `after`).
 * Everything of src/offline is imported on first use: this screen's first paint does not need Dexie.
 */
import { type MediaChangeAnswer } from '#contract/media.ts';
import { API } from '#contract/routes.ts';
import { apiRequest, type ApiResponse } from '#src/lib/api-client.ts';
import type { ParkedPhoto } from '#src/components/photo-uploader/photo-uploader.tsx';
import { photosScope, queuePhotoUpload } from '#src/offline/photo-upload.ts';
import { AFTER_TOKEN, type Json, type NewOp, type OutboxOp } from '#src/offline/types.ts';
import { adPhotosQueryKey } from '../api/media-api.ts';

export { photosScope };

/** What a done photo op makes stale: the gallery here and the public model page's copy. */
const invalidate = (adId: number): Json[][] => [[...adPhotosQueryKey(adId)], ['model-images', String(adId)]];

/** Where the uploaded photo's id is in the upload's answer (201: the accepted files, in order; one file per request). */
export const UPLOADED_MEDIA_ID = ['data', 'media', 0, 'media_id'];

export interface PhotoMeta {
  adId: number;
  /** The server photo a deletion or cover change is about. */
  mediaId?: number;
  /** A cover change of a queued upload: that upload's op id. */
  uploadOp?: string;
  /** An upload's thumbnail and file name. */
  thumbnail?: Blob;
  name?: string;
}

export const metaOf = (op: OutboxOp) => (op.meta ?? {}) as unknown as PhotoMeta;

async function offline() {
  const [outbox, runtime, sendOrQueue] = await Promise.all([
    import('#src/offline/outbox.ts'),
    import('#src/offline/runtime.ts'),
    import('#src/offline/send-or-queue.ts'),
  ]);
  return { ...outbox, ...runtime, ...sendOrQueue };
}

/** Stores a photo the uploader could not send; resolves once it is on disk. */
export function parkUpload(userId: number, photo: ParkedPhoto): Promise<void> {
  return queuePhotoUpload(userId, photo, invalidate(photo.adId));
}

export type PhotoChange = 'cover' | 'delete';

/**
 * Deletes a server photo or makes it the cover: sent now when possible (resolves with the answer), else queued
 * (resolves with 'queued'). Rejects with the request's error when the server refused it.
 */
export async function changePhoto(
  userId: number,
  adId: number,
  mediaId: number,
  action: PhotoChange,
): Promise<ApiResponse<MediaChangeAnswer> | 'queued'> {
  const { sendOrQueue } = await offline();
  const op: NewOp =
    action === 'cover'
      ? {
          userId,
          scope: photosScope(adId),
          kind: 'photo.cover',
          method: 'PUT',
          path: API.changeCover(mediaId),
          label: 'outbox.kind.photoCover',
        }
      : {
          userId,
          scope: photosScope(adId),
          kind: 'photo.delete',
          method: 'POST',
          path: API.mediaDelete,
          body: { media_id: mediaId },
          label: 'outbox.kind.photoDelete',
        };
  const result = await sendOrQueue({ ...op, meta: { adId, mediaId } satisfies PhotoMeta, invalidate: invalidate(adId) }, (key) =>
    apiRequest<MediaChangeAnswer>(op.path, {
      method: op.method === 'PUT' ? 'PUT' : 'POST',
      ...(op.body !== undefined ? { body: op.body } : {}),
      idempotencyKey: key,
    }),
  );
  return result.queued ? 'queued' : result.sent;
}

/** Makes a photo still waiting to upload the cover, once it is uploaded. */
export async function coverQueuedUpload(userId: number, adId: number, uploadOp: string): Promise<void> {
  const { enqueue, registerBackgroundSync } = await offline();
  await enqueue({
    userId,
    scope: photosScope(adId),
    kind: 'photo.cover',
    method: 'PUT',
    path: API.changeCover(AFTER_TOKEN),
    label: 'outbox.kind.photoCover',
    meta: { adId, uploadOp } satisfies PhotoMeta,
    invalidate: invalidate(adId),
    after: { op: uploadOp, pick: UPLOADED_MEDIA_ID },
  });
  void registerBackgroundSync();
}

/** Drops a queued op; for an upload, the cover change waiting for it goes too. */
export async function discardPhotoOp(op: OutboxOp, all: readonly OutboxOp[]): Promise<void> {
  const { discard } = await offline();
  for (const dependent of all.filter((o) => o.after?.op === op.id)) await discard(dependent.id);
  await discard(op.id);
}
