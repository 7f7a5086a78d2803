/**
 * Refused photos kept for a person's review (issue 24 B7): the upload keeps them here (`holdRefusedPhoto`), under the
 * private key `held/{uid}/` that GET /media/* never serves, for PHOTO_REVIEW_HOLD_HOURS; refusals nobody contests are
 * removed after that (`sweepExpired`). The review itself (asking, deciding) is modules/photo-reviews', which reads
 * these keys; kept in the media module because the upload needs it and photo-reviews already depends on media.
 */
import crypto from 'node:crypto';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PHOTO_REVIEW_HOLD_HOURS, type RefusalReview } from '#contract/photo-reviews.ts';
import { photoReviews, type MediaModeration } from '../../db/schema.ts';
import type { ModerationRule, ModerationScores } from '../moderation/moderation.ts';
import type { ProcessedImage } from './image-pipeline.ts';

export const heldPrefix = (uid: string) => `held/${uid}`;
export const heldKey = (uid: string, width: number) => `held/${uid}/${width}.webp`;

/** Expired refusals removed per new refusal: bounded work on the upload's path. */
const SWEEP_BATCH = 20;

export interface RefusedScreening {
  provider: string;
  scores: ModerationScores;
  details?: Record<string, unknown>;
  rule: ModerationRule;
  thresholds: ModerationScores;
}

/** Removes refusals nobody sent to review before they expired (rows first, then their files). */
export async function sweepExpired(app: FastifyInstance, now = new Date()): Promise<number> {
  const gone = await app.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: photoReviews.id, uid: photoReviews.uid })
      .from(photoReviews)
      .where(and(eq(photoReviews.status, 'refused'), lt(photoReviews.expiresAt, now)))
      .orderBy(asc(photoReviews.expiresAt))
      .limit(SWEEP_BATCH)
      .for('update', { skipLocked: true });
    if (rows.length)
      await tx.delete(photoReviews).where(
        inArray(
          photoReviews.id,
          rows.map((r) => r.id),
        ),
      );
    return rows;
  });
  for (const r of gone) await app.storage.remove(heldPrefix(r.uid)).catch(() => {});
  return gone.length;
}

/**
 * Keeps a refused photo for a possible review and answers what the refusal tells the uploader; null when it could
 * not be kept (the refusal then still names the rule, without the way to ask). The row is written before the files,
 * so a crash leaves a row whose files are missing (it expires) rather than files nothing points to.
 */
export async function holdRefusedPhoto(
  app: FastifyInstance,
  req: FastifyRequest,
  input: { adId: number; userId: number; image: ProcessedImage; screening: RefusedScreening },
): Promise<RefusalReview | null> {
  await sweepExpired(app).catch((err: unknown) => req.log.warn({ err }, 'photo review: sweeping expired refusals failed'));
  const { image, screening } = input;
  const token = crypto.randomUUID();
  const uid = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + PHOTO_REVIEW_HOLD_HOURS * 3600_000);
  const moderation: MediaModeration & { thresholds: ModerationScores; rule: ModerationRule } = {
    provider: screening.provider,
    scores: screening.scores,
    ...(screening.details ? { details: screening.details } : {}),
    source_format: image.sourceFormat,
    checked_at: new Date().toISOString(),
    thresholds: screening.thresholds,
    rule: screening.rule,
  };
  let id: number;
  try {
    const [row] = await app.db
      .insert(photoReviews)
      .values({
        token,
        adId: input.adId,
        uid,
        width: image.width,
        height: image.height,
        variants: image.variants.map((v) => v.width),
        moderation,
        rule: screening.rule,
        createdBy: input.userId,
        expiresAt,
      })
      .returning({ id: photoReviews.id });
    id = row!.id;
  } catch (err) {
    req.log.error({ err }, 'photo review: keeping the refused photo failed');
    return null;
  }
  try {
    for (const v of image.variants) await app.storage.put(heldKey(uid, v.width), v.data);
  } catch (err) {
    req.log.error({ err }, 'photo review: storing the refused photo failed');
    await app.storage.remove(heldPrefix(uid)).catch(() => {});
    await app.db
      .delete(photoReviews)
      .where(eq(photoReviews.id, id))
      .catch(() => {});
    return null;
  }
  return { token, rule: screening.rule, automated: true, expires_at: expiresAt.toISOString() };
}
