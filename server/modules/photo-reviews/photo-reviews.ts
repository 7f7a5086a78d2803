/**
 * A person's review of a photo the automated screening refused (issue 24 B7; DSA art. 17 and 20).
 *
 * 1. Upload (media-upload.ts): a photo found `unsuitable` is kept unlisted by `holdRefusedPhoto` (media/refused-photos.ts) — its re-encoded
 *    WebP variants (no metadata, like every upload) under the private key `held/{uid}/` that GET /media/* never
 *    serves — for PHOTO_REVIEW_HOLD_HOURS, and the refusal answers the rule, that it was automated, and a token.
 *    Refusals nobody contests are removed after that (a few at each new refusal, `sweepExpired`).
 * 2. The owner (the model, or the publicist responsible for them; never staff for someone else) asks with the token
 *    (`requestPhotoReview`): a statement of reasons for the automated refusal is issued (automated, with the scores
 *    and the rule) and the request is stored as its appeal, so it reaches the staff appeal queue too.
 * 3. Staff decide from the photo queue (`decidePhotoReview`, or from the appeals queue): the appeal's outcome, through
 *    admin/decisions.ts decideAppeal, which calls `settlePhotoReview` in its transaction: reversed = approved, the
 *    photo joins the ad like any other (files copied under `ads/`, a media row, already reviewed); upheld = rejected,
 *    the kept files are removed. The model hears it as every appeal outcome: notification and mail.
 */
import { API } from '#contract/routes.ts';
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AD_MAX_PHOTOS } from '#contract/media.ts';
import { type AdminPhotoReview, type PhotoReview, type PhotoReviewFilter } from '#contract/photo-reviews.ts';
import type { Db } from '../../db/client.ts';
import { ads, appeals, media, modelProfiles, photoReviews, type MediaModeration } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { page } from '../../answers.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { Storage } from '../../plugins/storage.ts';
import { recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { mediaKey } from '../media/images.ts';
import { loadEditableAd } from '../media/ad-access.ts';
import { heldKey, heldPrefix } from '../media/refused-photos.ts';
import { countAdPhotos, insertPhoto } from '../media/media.repository.ts';
import type { ModerationScores } from '../moderation/moderation.ts';
import { issueStatement, recipientFor } from '../statements/statements.ts';

type ReviewRow = typeof photoReviews.$inferSelect;

export function toPhotoReview(r: ReviewRow): PhotoReview {
  return {
    id: r.id,
    status: r.status,
    rule: r.rule,
    ad_id: r.adId,
    requested_at: r.requestedAt?.toISOString() ?? null,
    statement_id: r.statementId ?? null,
  };
}

const percent = (v: number) => `${Math.round(v * 100)} %`;

/**
 * The owner asks a person to look at a refused photo. Asking again for the same photo answers the request as it
 * stands (created: false) without a second statement. Staff may not ask for someone else's photo: they decide.
 */
export async function requestPhotoReview(
  app: FastifyInstance,
  req: FastifyRequest,
  user: SessionUser,
  token: string,
  commit?: (tx: Db, result: { review: PhotoReview; created: boolean }) => Promise<void>,
): Promise<{ review: PhotoReview; created: boolean }> {
  return app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(photoReviews).where(eq(photoReviews.token, token)).for('update');
    if (!row) throw notFound('photoReviews.gone');
    // Only whoever may change the ad's photos, and of those only the model's side, may contest the refusal.
    const ad = await loadEditableAd(tx, user, row.adId);
    if (staffActsForOthers(user, ad.ownerUserId, ad.publicistUserId)) throw forbidden('photoReviews.ownerOnly');
    if (row.status !== 'refused') {
      const out = { review: toPhotoReview(row), created: false };
      await commit?.(tx, out);
      return out;
    }
    if (row.expiresAt < new Date()) throw notFound('photoReviews.gone');

    const recipient = await recipientFor(tx, 'photo_review', row.id);
    const lng = recipient?.locale ?? user.locale ?? 'es';
    const tr = app.tFor(lng);
    const rule = row.rule;
    const threshold = (row.moderation as { thresholds?: ModerationScores }).thresholds?.[rule];
    const issued = await issueStatement(tx, app, {
      subjectType: 'photo_review',
      subjectId: row.id,
      decision: 'rejected',
      reasonCodes: ['photo_rules'],
      ground: 'photo_rules',
      facts: tr('photoReviews.statementFacts', {
        rule: tr(`media.rules.${rule}`),
        score: percent(row.moderation.scores[rule]),
        threshold: threshold === undefined ? '—' : percent(threshold),
      }),
      automated: true,
      automatedDetail: {
        moderation: {
          provider: row.moderation.provider,
          scores: row.moderation.scores,
          thresholds: threshold === undefined ? null : (row.moderation as { thresholds?: ModerationScores }).thresholds,
          rule,
        },
      },
      decidedBy: null,
      recipient,
    });
    // The request is the appeal of that statement (DSA art. 20): a person decides it.
    await tx.insert(appeals).values({
      statementId: issued.statement.id,
      userId: user.id,
      text: app.tFor(user.locale ?? lng)('photoReviews.appealText'),
    });
    const [updated] = await tx
      .update(photoReviews)
      .set({ status: 'requested', requestedBy: user.id, requestedAt: new Date(), statementId: issued.statement.id })
      .where(eq(photoReviews.id, row.id))
      .returning();
    await recordAudit(tx, {
      actor: user,
      action: 'photo_review.request',
      subjectType: 'photo_review',
      subjectId: row.id,
      before: { status: 'refused' },
      after: { status: 'requested', ad_id: row.adId, statement_id: issued.statement.id },
      req,
    });
    const out = { review: toPhotoReview(updated!), created: true };
    await commit?.(tx, out);
    return out;
  });
}

/**
 * The photo part of deciding a review request, inside the appeal decision's transaction (decisions.ts decideAppeal).
 * Returns what to do once that transaction has committed (remove the kept files).
 */
export async function settlePhotoReview(
  tx: Db,
  app: FastifyInstance,
  req: FastifyRequest,
  staff: SessionUser,
  reviewId: number,
  approve: boolean,
  restored: Record<string, unknown>,
): Promise<() => Promise<void>> {
  const [row] = await tx.select().from(photoReviews).where(eq(photoReviews.id, reviewId)).for('update');
  if (!row) throw notFound();
  if (row.status !== 'requested') throw conflict(undefined, 'admin.decisionNotApplicable');
  let mediaId: number | null = null;
  if (approve) {
    // The ad's row lock, as every photo change takes it: the 30-photo limit holds.
    await tx.select({ id: ads.id }).from(ads).where(eq(ads.id, row.adId)).for('update');
    if ((await countAdPhotos(tx, row.adId)) >= AD_MAX_PHOTOS) throw conflict({ max: AD_MAX_PHOTOS }, 'photoReviews.adFull');
    try {
      for (const w of row.variants) await app.storage.link(heldKey(row.uid, w), mediaKey(row.adId, row.uid, w));
    } catch (err) {
      // The kept copy is missing (a crash between its row and its files): nothing to approve; the model uploads again.
      req.log.error({ err, reviewId: row.id }, 'photo review: the kept photo could not be copied');
      await app.storage.remove(`ads/${row.adId}/${row.uid}`).catch(() => {});
      throw conflict(undefined, 'photoReviews.filesGone');
    }
    const { thresholds: _t, rule: _r, ...moderation } = row.moderation as MediaModeration & { thresholds?: unknown; rule?: unknown };
    const photo = await insertPhoto(tx, {
      adId: row.adId,
      uid: row.uid,
      width: row.width,
      height: row.height,
      variants: row.variants,
      moderation: { ...moderation, ...({ reviewed_after_refusal: true } as object) },
      createdBy: row.createdBy ?? staff.id,
    });
    // A person has just looked at it: it does not wait in the photo queue again, and the ad stays as it was.
    await tx.update(media).set({ reviewedAt: new Date(), reviewedBy: staff.id }).where(eq(media.id, photo.id));
    mediaId = photo.id;
    restored.photo = 'listed';
    restored.media_id = photo.id;
  } else {
    restored.photo = 'refused';
  }
  await tx
    .update(photoReviews)
    .set({ status: approve ? 'approved' : 'rejected', decidedBy: staff.id, decidedAt: new Date(), mediaId })
    .where(eq(photoReviews.id, row.id));
  await recordAudit(tx, {
    actor: staff,
    action: `photo_review.${approve ? 'approve' : 'reject'}`,
    subjectType: 'photo_review',
    subjectId: row.id,
    before: { status: 'requested' },
    after: { status: approve ? 'approved' : 'rejected', ad_id: row.adId, media_id: mediaId },
    req,
  });
  return async () => {
    await app.storage
      .remove(heldPrefix(row.uid))
      .catch((err: unknown) => req.log.error({ err }, 'photo review: removing kept files failed'));
  };
}

/** The appeal a review request is stored as (null when there is none to decide: never asked, or already decided). */
export async function pendingAppealOf(db: Db, reviewId: number): Promise<number | null> {
  const [row] = await db
    .select({ appealId: appeals.id })
    .from(photoReviews)
    .innerJoin(appeals, eq(appeals.statementId, photoReviews.statementId))
    .where(and(eq(photoReviews.id, reviewId), eq(photoReviews.status, 'requested')));
  return row?.appealId ?? null;
}

export async function photoReviewById(db: Db, reviewId: number): Promise<(PhotoReview & { media_id: number | null }) | null> {
  const [row] = await db.select().from(photoReviews).where(eq(photoReviews.id, reviewId));
  return row ? { ...toPhotoReview(row), media_id: row.mediaId ?? null } : null;
}

/** The staff queue: `requested` oldest first (first asked, first seen); `decided` and `all` newest first. */
/** One page of the staff's review queue. */
export async function photoReviewsPage(db: Db, q: { status: PhotoReviewFilter; page: number; per_page: number }) {
  const { rows, total } = await listPhotoReviews(db, q.status, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
  return page(rows, { page: q.page, perPage: q.per_page, total });
}

export async function listPhotoReviews(db: Db, status: PhotoReviewFilter, page: { limit: number; offset: number }) {
  const where =
    status === 'requested'
      ? eq(photoReviews.status, 'requested')
      : status === 'decided'
        ? inArray(photoReviews.status, ['approved', 'rejected'])
        : isNotNull(photoReviews.requestedAt);
  const [{ n }] = (await db.select({ n: count() }).from(photoReviews).where(where)) as [{ n: number }];
  const rows = await db
    .select({
      r: photoReviews,
      ad: { id: ads.id, title: ads.title, status: ads.status },
      profile: { id: modelProfiles.id, display_name: modelProfiles.displayName },
    })
    .from(photoReviews)
    .innerJoin(ads, eq(ads.id, photoReviews.adId))
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .where(where)
    .orderBy(
      status === 'requested' ? asc(photoReviews.requestedAt) : desc(sql`coalesce(${photoReviews.decidedAt}, ${photoReviews.requestedAt})`),
      desc(photoReviews.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  const data: AdminPhotoReview[] = rows.map(({ r, ad, profile }) => {
    const m = r.moderation as MediaModeration & { thresholds?: ModerationScores };
    const classes = (m.details as { classes?: Record<string, number> } | undefined)?.classes ?? null;
    return {
      ...toPhotoReview(r),
      image_url: API.adminPhotoReviewImage(r.id),
      width: r.width,
      height: r.height,
      provider: m.provider,
      scores: m.scores,
      thresholds: m.thresholds ?? null,
      classes,
      ad,
      profile,
      decided_at: r.decidedAt?.toISOString() ?? null,
      media_id: r.mediaId ?? null,
      created_at: r.createdAt.toISOString(),
    };
  });
  return { rows: data, total: Number(n) };
}

/** The key of a kept photo's file for staff (the variant closest to 800 px wide); null once its files are gone. */
export async function heldImageKey(db: Db, reviewId: number): Promise<string | null> {
  const [row] = await db.select().from(photoReviews).where(eq(photoReviews.id, reviewId));
  if (!row) return null;
  if (row.status === 'approved' && row.mediaId !== null) {
    const w = [...row.variants].sort((a, b) => Math.abs(a - 800) - Math.abs(b - 800))[0]!;
    return mediaKey(row.adId, row.uid, w);
  }
  if (row.status === 'rejected') return null;
  const w = [...row.variants].sort((a, b) => Math.abs(a - 800) - Math.abs(b - 800))[0]!;
  return heldKey(row.uid, w);
}

/** The kept photo of a review, as staff see it; 404 once there is none (a rejected review's photo is gone). */
export async function heldImage(db: Db, storage: Storage, reviewId: number) {
  const key = await heldImageKey(db, reviewId);
  const file = key ? await storage.read(key) : null;
  if (!file) throw notFound();
  return file;
}
