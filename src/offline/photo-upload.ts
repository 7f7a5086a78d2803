/**
 * A photo the uploader could not send (no network), stored in the outbox to be uploaded later: the pixelated JPEG the
 * uploader rendered (never the original), a thumbnail to show meanwhile, under the Idempotency-Key of the attempt that
 * failed (if it did reach the server, the replay gets its stored answer: one photo, not two). Every screen with an
 * uploader queues photos this way — the Photos screen and the profile wizard's photo step alike (issue 24 B10: the
 * wizard refused them offline and lost them on a reload while the sync page said everything was sent).
 * The outbox code is imported on first use.
 */
import { UPLOAD_FIELDS } from '#contract/media.ts';
import { API } from '#contract/routes.ts';
import type { ParkedPhoto } from '#src/components/photo-uploader/photo-queue.ts';
import type { Json } from './types.ts';

/** One scope per ad: its photo writes reach the server in the order made. */
export const photosScope = (adId: number) => `photos:ad:${adId}`;

/** Resolves once the photo is on disk; `invalidate` names the queries its upload makes stale. */
export async function queuePhotoUpload(userId: number, photo: ParkedPhoto, invalidate: Json[][]): Promise<void> {
  const [{ enqueue }, { registerBackgroundSync }] = await Promise.all([import('./outbox.ts'), import('./runtime.ts')]);
  await enqueue({
    id: photo.key,
    userId,
    scope: photosScope(photo.adId),
    kind: 'photo.upload',
    method: 'POST',
    path: API.uploadImages,
    // The ad first: the server checks who may add photos to it before it reads any file.
    parts: [
      { name: UPLOAD_FIELDS.adId, value: String(photo.adId) },
      { name: UPLOAD_FIELDS.files, blob: photo.jpeg, filename: photo.name },
    ],
    label: 'outbox.kind.photoUpload',
    summary: photo.name,
    meta: { adId: photo.adId, thumbnail: photo.thumbnail, name: photo.name },
    invalidate,
  });
  void registerBackgroundSync();
}
