/**
 * POST /api/upload/images, the work behind the route (media.routes.ts stays parse → call → answer). An upload is read
 * part by part: `ad_id` first (ownership is checked before a single file byte is kept), then each file in turn — at
 * most one file is in memory at a time. Each file is accepted or refused on its own: decoded and re-encoded by the
 * pipeline, screened, written to storage, then recorded; if recording fails its files are removed, so nothing
 * half-done stays behind. Staff changing the photos of an ad that is not theirs are audited, in the same transaction
 * as the change, and so is the request's idempotent answer (`commit`).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AD_MAX_PHOTOS,
  IMAGE_VARIANT_WIDTHS,
  UPLOAD_FIELDS,
  UPLOAD_MAX_FILES,
  type RefusalReason,
  type RefusedFile,
  type UploadedImage,
} from '#contract/media.ts';
import type { RefusalReview } from '#contract/photo-reviews.ts';
import type { Db } from '../../db/client.ts';
import { AppError, validationFailed } from '../../errors.ts';
import { recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { mediaKey, toImage } from './images.ts';
import type { ModerationRule } from '../moderation/moderation.ts';
import { loadEditableAd, type EditableAd } from './ad-access.ts';
import { processImage } from './image-pipeline.ts';
import { accountSideOf, recordUploadHashes, screenUpload, type AccountSide, type UploadScreening } from './photo-hashes.ts';
import { holdRefusedPhoto } from './refused-photos.ts';
import { countAdPhotos, insertPhoto, markAdPendingReview, type MediaRecord, type NewPhoto } from './media.repository.ts';
import type { VisibilityCache } from './media-visibility.ts';

/** A file processed, screened and written to storage, waiting to be recorded with the others. */
interface StoredFile {
  name: string;
  index: number;
  prefix: string;
  started: number;
  photo: Omit<NewPhoto, 'adId' | 'createdBy'>;
  /** Its perceptual hashes and matches (issue 29); null when hashing failed. */
  match: UploadScreening | null;
}

export interface UploadData {
  media: UploadedImage[];
  refused: RefusedFile[];
}

/** What the route answers with: the photos accepted and refused, and whether the ad is suspended (its message). */
export interface UploadOutcome {
  data: UploadData;
  suspended: boolean;
}

export interface UploadContext {
  app: FastifyInstance;
  /** The signed-in user's request (its user, language, log, and the audit entry's origin). */
  req: FastifyRequest;
  visibility: VisibilityCache;
  /** Stores the request's idempotent answer inside the transaction that records the photos (answerOnce). */
  commit: ((tx: Db, outcome: UploadOutcome) => Promise<void>) | undefined;
}

const adIdSchema = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().positive().max(2_147_483_647));

/** The name as sent, for display only: no path, no control characters, bounded. */
function displayName(filename: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const base = path.posix.basename((filename ?? '').replaceAll('\\', '/')).replace(/[\u0000-\u001f\u007f]/g, '');
  return base.slice(0, 255);
}

/** Reads a part to its end without keeping it (a file we refuse unread, or a field we do not know). */
async function drain(part: MultipartFile): Promise<void> {
  for await (const _chunk of part.file) {
    // discard
  }
}

/**
 * Reads the upload's parts, stores and records what is accepted, and says what was refused and why. Throws a 422
 * AppError when there is no usable ad, no file, or nothing was accepted (with the refusals as its data).
 */
export async function receivePhotos(ctx: UploadContext, parts: AsyncIterable<Multipart>): Promise<UploadOutcome> {
  const { app, req, visibility, commit } = ctx;
  const { uploadMaxBytes, uploadMaxPixels } = app.config;
  const reasonMessage = (t: (key: string, params?: Record<string, unknown>) => string, reason: RefusalReason) =>
    t(`media.refused.${reason}`, {
      max:
        reason === 'too_large'
          ? Math.floor(uploadMaxBytes / (1024 * 1024))
          : reason === 'too_many_pixels'
            ? Math.floor(uploadMaxPixels / 1_000_000)
            : UPLOAD_MAX_FILES,
      perAd: AD_MAX_PHOTOS,
    });
  const user = req.user!;
  const t = (key: string, params?: Record<string, unknown>) => req.t(key, params ?? {});
  const accepted: UploadedImage[] = [];
  const refused: RefusedFile[] = [];
  const refuse = (file: string, index: number, reason: RefusalReason) =>
    refused.push({ file, index, reason, message: reasonMessage(t, reason) });
  /** An automated refusal names its rule and, when the photo could be kept, how to ask a person (issue 24 B7). */
  const refuseUnsuitable = (file: string, index: number, rule: ModerationRule, review: RefusalReview | null) =>
    refused.push({
      file,
      index,
      reason: 'unsuitable',
      message: t('media.refused.unsuitableRule', { rule: t(`media.rules.${rule}`) }),
      ...(review ? { review } : {}),
    });
  /** Files processed and written to storage, not yet recorded. */
  const stored: StoredFile[] = [];
  let ad: EditableAd | undefined;
  /** Whose photos never count as a match: the ad's model profile, her own account and her agency. */
  let side: AccountSide | undefined;
  let existing = 0;
  let index = 0;

  const handleFile = async (part: MultipartFile, adRow: EditableAd, i: number, name: string) => {
    const started = performance.now();
    const bytes = await part.toBuffer();
    if (part.file.truncated) return refuse(name, i, 'too_large');
    const result = await processImage(bytes, { maxBytes: uploadMaxBytes, maxPixels: uploadMaxPixels, widths: IMAGE_VARIANT_WIDTHS });
    if (!result.ok) {
      req.log.info({ file: name, reason: result.reason, detail: result.detail }, 'upload: file refused by the pipeline');
      return refuse(name, i, result.reason);
    }
    const image = result.image;
    const screening = await app.moderation.screen(image.moderationCopy);
    if (screening.verdict === 'failed') {
      req.log.warn({ file: name, provider: screening.provider, error: screening.error }, 'upload: moderation check failed');
      return refuse(name, i, 'moderation_failed');
    }
    if (screening.verdict === 'unsuitable') {
      req.log.info(
        { file: name, provider: screening.provider, scores: screening.scores, rule: screening.rule },
        'upload: photo unsuitable',
      );
      const review = await holdRefusedPhoto(app, req, { adId: adRow.id, userId: user.id, image, screening });
      return refuseUnsuitable(name, i, screening.rule, review);
    }

    // Matches with another account's photos or the removed list flag the photo; the answer stays the same (no tipping off).
    side ??= await accountSideOf(app.db, adRow.modelProfileId);
    const smallest = image.variants.reduce((a, b) => (b.width < a.width ? b : a));
    const match = await screenUpload(app, smallest.data, side);
    if (match?.flagged)
      req.log.info({ file: name, matches: match.matches.length }, 'upload: photo matches another account or the removed list');

    const uid = crypto.randomUUID();
    const prefix = `ads/${adRow.id}/${uid}`;
    try {
      for (const v of image.variants) await app.storage.put(mediaKey(adRow.id, uid, v.width), v.data);
    } catch (err) {
      req.log.error({ err }, 'upload: storing the variants failed');
      await app.storage.remove(prefix).catch(() => {});
      return refuse(name, i, 'failed');
    }
    stored.push({
      name,
      index: i,
      prefix,
      started,
      match,
      photo: {
        uid,
        width: image.width,
        height: image.height,
        variants: image.variants.map((v) => v.width),
        moderation: {
          provider: screening.provider,
          scores: screening.scores,
          ...(screening.details ? { details: screening.details } : {}),
          source_format: image.sourceFormat,
          checked_at: new Date().toISOString(),
        },
      },
    });
  };

  /**
   * Records the stored files in one transaction, with the request's idempotent answer (a retry after a crash finds
   * the answer, never a second copy of the photos). Files whose row is not recorded are removed; a process killed
   * before the commit leaves its files to the start-up sweep (orphans.ts).
   */
  const record = async (adRow: EditableAd) => {
    let rows: (MediaRecord | null)[];
    try {
      rows = await app.db.transaction(async (tx) => {
        // Ownership again, under the ad's row lock: the ad may have changed hands or gone while we worked.
        const locked = await loadEditableAd(tx, user, adRow.id, { forUpdate: true });
        let count = await countAdPhotos(tx, locked.id);
        const out: (MediaRecord | null)[] = [];
        for (const file of stored) {
          if (count >= AD_MAX_PHOTOS) {
            out.push(null);
            continue;
          }
          // Back to review before the new photo can be seen by anyone.
          await markAdPendingReview(tx, locked.id);
          const photo = await insertPhoto(tx, { ...file.photo, adId: locked.id, createdBy: user.id });
          if (file.match) await recordUploadHashes(tx, app, { id: photo.id, modelProfileId: locked.modelProfileId }, file.match);
          if (staffActsForOthers(user, locked.ownerUserId, locked.publicistUserId)) {
            await recordAudit(tx, {
              actor: user,
              action: 'media.upload',
              subjectType: 'media',
              subjectId: photo.id,
              after: { ad_id: locked.id, uid: photo.uid, width: photo.width, height: photo.height, is_cover: photo.isCover },
              req,
            });
          }
          out.push(photo);
          count++;
        }
        const data = answerData(out);
        if (data.media.length) await commit?.(tx, { data, suspended: adRow.status === 'suspended' });
        return out;
      });
    } catch (err) {
      for (const file of stored) await app.storage.remove(file.prefix).catch(() => {});
      if (err instanceof AppError) throw err;
      req.log.error({ err }, 'upload: recording the photos failed');
      for (const file of stored) refuse(file.name, file.index, 'failed');
      return;
    }
    stored.forEach((file, k) => {
      const row = rows[k];
      if (!row) {
        void app.storage.remove(file.prefix).catch(() => {});
        return refuse(file.name, file.index, 'too_many_files');
      }
      accepted.push({ ...toImage(app.storage, row), file: file.name, index: file.index });
      req.log.info({ file: file.name, mediaId: row.id, ms: Math.round(performance.now() - file.started) }, 'upload: photo accepted');
    });
    if (accepted.length) visibility.forget(adRow.id);
  };

  /** The answer's data: the accepted photos (from `rows`, in stored order) and every refusal, in file order. */
  const answerData = (rows: (MediaRecord | null)[]) => {
    const media: UploadedImage[] = [];
    const refusedHere = [...refused];
    stored.forEach((file, k) => {
      const row = rows[k];
      if (row) media.push({ ...toImage(app.storage, row), file: file.name, index: file.index });
      else refusedHere.push({ file: file.name, index: file.index, reason: 'too_many_files', message: reasonMessage(t, 'too_many_files') });
    });
    return { media, refused: refusedHere.sort((a, b) => a.index - b.index) };
  };

  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname !== UPLOAD_FIELDS.adId || ad) continue;
        const parsed = adIdSchema.safeParse(typeof part.value === 'string' ? part.value : '');
        if (!parsed.success) throw validationFailed({ ad_id: [t('media.upload.adRequired')] });
        ad = await loadEditableAd(app.db, user, parsed.data);
        existing = await countAdPhotos(app.db, ad.id);
        continue;
      }
      if (part.fieldname !== UPLOAD_FIELDS.files && part.fieldname !== UPLOAD_FIELDS.filesAlt) {
        await drain(part);
        continue;
      }
      if (!ad) {
        await drain(part);
        throw validationFailed({ ad_id: [t('media.upload.adRequired')] });
      }
      const i = index++;
      const name = displayName(part.filename);
      if (i >= UPLOAD_MAX_FILES || existing + stored.length >= AD_MAX_PHOTOS) {
        await drain(part);
        refuse(name, i, 'too_many_files');
        continue;
      }
      await handleFile(part, ad, i, name);
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    // The hard limits on parts/files: answer with what was done so far, and say the rest was too much.
    if (ad && (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')) refuse('', index, 'too_many_files');
    else throw err;
  }

  if (!ad) throw validationFailed({ ad_id: [t('media.upload.adRequired')] });
  if (index === 0) throw validationFailed({ images: [t('media.upload.noFiles')] });
  if (stored.length) await record(ad);
  refused.sort((a, b) => a.index - b.index);
  const data = { media: accepted, refused };
  if (!accepted.length)
    throw validationFailed(
      { images: refused.map((r) => (r.file ? `${r.file}: ${r.message}` : r.message)) },
      'media.upload.noneAccepted',
      data,
    );
  return { data, suspended: ad.status === 'suspended' };
}
