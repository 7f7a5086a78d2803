import { z } from 'zod';
import { intParam } from './params.ts';
import { paginationMetaSchema } from './listings.ts';

/**
 * A person's review of a photo the automated screening refused (issue 24 B7; DSA art. 17 and 20: an automated
 * decision is named as such and can be contested). The refusal of an upload carries a `review` token; with it the
 * photo's owner (the model, or their publicist) asks for review (POST API.photoReviews). The photo is kept unlisted,
 * a statement of reasons for the automated refusal is issued and the request is its appeal; staff decide it from the
 * photo queue: approved, the photo joins the ad like any other; rejected, it stays refused.
 */

/** SPEC §5's scores, named to the user as the rule a refusal rests on (`media.rules.*`). */
export const MODERATION_RULES = ['sexual_activity', 'sexual_display', 'erotica'] as const;
export type ModerationRuleName = (typeof MODERATION_RULES)[number];

/** How long a refused photo is kept for a review request (then removed unless someone asked). */
export const PHOTO_REVIEW_HOLD_HOURS = 24;

/** What an automated refusal (reason `unsuitable`) carries besides its message. */
export const refusalReviewSchema = z.object({
  /** Names the kept photo in the review request. */
  token: z.string(),
  rule: z.enum(MODERATION_RULES),
  /** Always true: the refusal was made by automated means (DSA art. 17(3)(c)). */
  automated: z.literal(true),
  /** Until when a review can be asked for. */
  expires_at: z.string(),
});
export type RefusalReview = z.infer<typeof refusalReviewSchema>;

export const PHOTO_REVIEW_STATUSES = ['refused', 'requested', 'approved', 'rejected'] as const;
export type PhotoReviewStatus = (typeof PHOTO_REVIEW_STATUSES)[number];

export const photoReviewRequestSchema = z.object({ token: z.uuid() }).strict();
export type PhotoReviewRequest = z.infer<typeof photoReviewRequestSchema>;

export const photoReviewSchema = z.object({
  id: z.number().int(),
  status: z.enum(PHOTO_REVIEW_STATUSES),
  rule: z.enum(MODERATION_RULES),
  ad_id: z.number().int(),
  requested_at: z.string().nullable(),
  /** The statement of reasons of the automated refusal (its page shows the appeal and, later, the outcome). */
  statement_id: z.number().int().nullable(),
});
export type PhotoReview = z.infer<typeof photoReviewSchema>;

/** 201 (asked now) or 200 (already asked) answer of POST API.photoReviews. */
export const photoReviewAnswerSchema = z.object({
  channel: z.literal('notification'),
  type: z.literal('success'),
  message: z.string(),
  data: photoReviewSchema,
});

export const PHOTO_REVIEW_FILTERS = ['requested', 'decided', 'all'] as const;
export type PhotoReviewFilter = (typeof PHOTO_REVIEW_FILTERS)[number];
export const photoReviewQueueQuerySchema = z
  .object({
    status: z.enum(PHOTO_REVIEW_FILTERS).optional().default('requested'),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(20),
  })
  .strict();

const scoresSchema = z.object({ sexual_activity: z.number(), sexual_display: z.number(), erotica: z.number() });

/** One request in the staff queue: the photo (served to staff only), its scores, the thresholds and the rule. */
export const adminPhotoReviewSchema = photoReviewSchema.extend({
  image_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  provider: z.string(),
  scores: scoresSchema,
  thresholds: scoresSchema.nullable(),
  /** The provider's own classes (nsfwjs's five probabilities), when it gave them. */
  classes: z.record(z.string(), z.number()).nullable(),
  ad: z.object({ id: z.number().int(), title: z.string(), status: z.string() }),
  profile: z.object({ id: z.number().int(), display_name: z.string() }),
  decided_at: z.string().nullable(),
  media_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type AdminPhotoReview = z.infer<typeof adminPhotoReviewSchema>;

export const adminPhotoReviewListSchema = z.object({ data: z.array(adminPhotoReviewSchema), meta: paginationMetaSchema });

export const PHOTO_REVIEW_ACTIONS = ['approve', 'reject'] as const;
export const PHOTO_REVIEW_TEXT_MIN = 10;
export const PHOTO_REVIEW_TEXT_MAX = 2000;
/** Staff's decision: the text is what the model reads as the outcome of their request. */
export const photoReviewDecisionSchema = z
  .object({
    action: z.enum(PHOTO_REVIEW_ACTIONS),
    text: z.string().trim().min(PHOTO_REVIEW_TEXT_MIN).max(PHOTO_REVIEW_TEXT_MAX),
  })
  .strict();
export type PhotoReviewDecision = z.infer<typeof photoReviewDecisionSchema>;

export const photoReviewDecisionAnswerSchema = z.object({
  channel: z.literal('notification'),
  type: z.literal('success'),
  message: z.string(),
  data: photoReviewSchema.extend({ media_id: z.number().int().nullable() }),
});
