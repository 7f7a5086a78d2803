import { z } from 'zod';
import { INT4_MAX, intParam } from './params.ts';
import { imageSchema, paginationMetaSchema } from './listings.ts';
import { ROLES } from './roles.ts';
import { STATUSES } from './statuses.ts';
import { REASON_CODES, statementSchema } from './statements.ts';
import { mediaMatchSchema } from './media-matches.ts';

/**
 * Staff (admin, super_admin) review: listings with filters, queues, decisions with reason codes, appeals and the
 * audit log (issue 6 points 3, 4, 7). Listing URLs carry the same names (`status`, `search`, `page`).
 */

export const ADMIN_PER_PAGE = 20;

/** `status` also takes `all` (the default: every status). */
export const adminListQuerySchema = z
  .object({
    status: z.enum([...STATUSES, 'all']).optional(),
    search: z.string().trim().max(100).optional(),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(ADMIN_PER_PAGE),
  })
  .strict();
export type AdminListQuery = z.input<typeof adminListQuerySchema>;

export const VERIFICATION_FILTERS = ['pending', 'approved', 'rejected', 'all'] as const;
export const verificationQuerySchema = z
  .object({
    status: z.enum(VERIFICATION_FILTERS).optional(),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(ADMIN_PER_PAGE),
  })
  .strict();

export const APPEAL_FILTERS = ['pending', 'upheld', 'reversed', 'all'] as const;
export const appealQuerySchema = z
  .object({
    status: z.enum(APPEAL_FILTERS).optional(),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(ADMIN_PER_PAGE),
  })
  .strict();

export const PHOTO_FILTERS = ['pending', 'reviewed', 'all'] as const;
export type PhotoFilter = (typeof PHOTO_FILTERS)[number];
/** GET /api/admin/photos: the queue (`pending`, default), photos already kept, or all. */
export const photoQuerySchema = z
  .object({
    status: z.enum(PHOTO_FILTERS).optional().default('pending'),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(ADMIN_PER_PAGE),
  })
  .strict();

export const pageQuerySchema = z
  .object({
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(ADMIN_PER_PAGE),
  })
  .strict();

/** An account as staff lists it (clients, users without profile, administrators). */
export const adminUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(STATUSES),
  locale: z.string(),
  email_verified_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** How many of a client's statements of reasons one page of the client record shows. */
export const CLIENT_STATEMENTS_PER_PAGE = 20;

/** `GET /api/admin/clients/{id}?page=`: `page` pages through the client's statements of reasons. */
export const adminClientQuerySchema = z
  .object({
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 50).optional().default(CLIENT_STATEMENTS_PER_PAGE),
  })
  .strict();
export type AdminClientQuery = z.input<typeof adminClientQuerySchema>;

/**
 * One client record: the account, `statements` (how many statements of reasons the client has received, DSA art. 17)
 * and one page of them, newest first, as the client sees them (`statement_list.meta.total` equals `statements`).
 */
export const adminClientSchema = adminUserSchema.extend({
  updated_at: z.string(),
  statements: z.number().int(),
  statement_list: z.object({ data: z.array(statementSchema), meta: paginationMetaSchema }),
});
export type AdminClient = z.infer<typeof adminClientSchema>;
export const adminClientResponseSchema = z.object({ data: adminClientSchema });

/** What staff may decide about (`user`: the whole account of a client, model or publicist). */
export const DECISION_SUBJECTS = ['ad', 'model_profile', 'publicist_profile', 'verification', 'media', 'user'] as const;
export type DecisionSubject = (typeof DECISION_SUBJECTS)[number];

export const DECISION_ACTIONS = ['approve', 'reject', 'suspend', 'pause', 'reinstate', 'remove'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** Restrictions: each stores and mails a statement of reasons and needs reason codes plus an explanation. */
export const RESTRICTIONS: readonly DecisionAction[] = ['reject', 'suspend', 'pause', 'remove'];

/** Which actions apply to which subject. */
export const ACTIONS_FOR: Record<DecisionSubject, readonly DecisionAction[]> = {
  ad: ['approve', 'reject', 'suspend', 'pause', 'reinstate'],
  model_profile: ['approve', 'reject', 'suspend', 'pause', 'reinstate'],
  publicist_profile: ['approve', 'reject', 'suspend', 'pause', 'reinstate'],
  verification: ['approve', 'reject'],
  media: ['approve', 'remove'],
  // Account-level restriction: sessions end, content is unlisted, the person keeps a restricted view to read and appeal.
  user: ['suspend', 'reinstate'],
};

/** Accounts staff may suspend (staff accounts are managed by the super admin, not restricted). */
export const SUSPENDABLE_ROLES = ['client', 'model', 'publicist'] as const;

export const DECISION_TEXT_MIN = 10;
export const DECISION_TEXT_MAX = 2000;

export const decisionBodySchema = z
  .object({
    subject_type: z.enum(DECISION_SUBJECTS),
    subject_id: z.number().int().positive().max(2_147_483_647),
    action: z.enum(DECISION_ACTIONS),
    reason_codes: z.array(z.enum(REASON_CODES)).max(REASON_CODES.length).default([]),
    text: z.string().trim().max(DECISION_TEXT_MAX).default(''),
    /**
     * Decided from a review queue (issue 29): the item must still be waiting there. One a colleague decided meanwhile
     * answers 409 with `decidedMeanwhileSchema` in `data` instead of overwriting that decision.
     */
    from_queue: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (!ACTIONS_FOR[v.subject_type].includes(v.action)) {
      ctx.addIssue({ code: 'custom', path: ['action'], params: { key: 'admin.validation.action' } });
    }
    if (RESTRICTIONS.includes(v.action)) {
      if (v.reason_codes.length === 0)
        ctx.addIssue({ code: 'custom', path: ['reason_codes'], params: { key: 'admin.validation.reasons' } });
      if (v.text.length < DECISION_TEXT_MIN) ctx.addIssue({ code: 'custom', path: ['text'], params: { key: 'admin.validation.text' } });
    }
  })
  .transform((v) => ({ ...v, reason_codes: [...new Set(v.reason_codes)] }));
export type DecisionInput = z.input<typeof decisionBodySchema>;
export type DecisionValues = z.output<typeof decisionBodySchema>;

/** What a decision changed (POST API.adminDecisions' `data`), and the statement of reasons it issued, if any. */
export const decisionResultSchema = z.object({
  subject_type: z.enum(DECISION_SUBJECTS),
  subject_id: z.number().int(),
  action: z.enum(DECISION_ACTIONS),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
  statement_id: z.number().int().nullable(),
});

/** A 409's `data` when the item left the queue meanwhile: who decided it, when, and how. */
export const decidedMeanwhileSchema = z.object({
  decided_meanwhile: z.literal(true),
  decided_by: z.object({ id: z.number().int().nullable(), name: z.string().nullable() }),
  decided_at: z.string().nullable(),
  action: z.string().nullable(),
});
export type DecidedMeanwhile = z.infer<typeof decidedMeanwhileSchema>;

/** What staff wrote when they refused or suspended something: the rules' codes and their own words. */
export const staffReasonsSchema = z.object({ codes: z.array(z.string()), text: z.string().optional() });
/** Who an account is, as the staff lists name it. */
export const userRefSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
/** An account with its own status (suspended or not), as the model and publicist lists answer it. */
export const accountRefSchema = userRefSchema.extend({ status: z.enum(STATUSES) });

/** A row of the staff's model lists (GET API.adminModels, API.adminModelsUnderResponsibility). */
export const adminModelRowSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  status: z.enum(STATUSES),
  consent_status: z.string(),
  contact_email: z.string().nullable(),
  phone: z.string().nullable(),
  birth_date: z.string().nullable(),
  /** Why staff last refused or suspended it, as they wrote it. */
  reasons: staffReasonsSchema.nullable(),
  user: accountRefSchema.nullable(),
  publicist: z.object({ id: z.number().int(), display_name: z.string(), legal_name: z.string().nullable() }).nullable(),
  ads: z.number().int(),
  created_at: z.string().nullable(),
});

/** A row of the staff's publicist lists (GET API.adminPublicists). */
export const adminPublicistRowSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  status: z.enum(STATUSES),
  legal_name: z.string().nullable(),
  tax_id: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  phone_country: z.string().nullable(),
  email: z.string().nullable(),
  reasons: staffReasonsSchema.nullable(),
  user: accountRefSchema,
  models: z.number().int(),
  created_at: z.string().nullable(),
});

/** A photo as staff review it: the public image, with the automated check's scores when it ran. */
export const adminPhotoSchema = imageSchema.extend({
  moderation: z
    .object({
      provider: z.string(),
      scores: z.object({ sexual_activity: z.number(), sexual_display: z.number(), erotica: z.number() }),
    })
    .nullable(),
  created_at: z.string().nullable(),
});

/** A row of the ad review queue (GET API.adminAds). */
export const adminAdRowSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  status: z.enum(STATUSES),
  is_active: z.boolean(),
  is_listed: z.boolean(),
  edited: z.boolean(),
  version: z.number().int(),
  city: z.string(),
  section: z.object({ slug: z.string(), name: z.string() }),
  profile: z.object({
    id: z.number().int(),
    display_name: z.string(),
    status: z.enum(STATUSES),
    consent_status: z.string(),
    user_id: z.number().int().nullable(),
    publicist_id: z.number().int().nullable(),
  }),
  /** The agency responsible for the model (a publicist's model), else null. */
  publicist: z.object({ id: z.number().int(), display_name: z.string() }).nullable(),
  photos: z.array(adminPhotoSchema),
  /** Risk points (server/modules/admin RISK_POINTS: open reports, photo matches, screening scores): the queue's order. */
  risk: z.number().int(),
  /** Open reports on the ad. */
  open_reports: z.number().int(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});

/** A row of the photo queue (GET API.adminPhotos): a photo is known by its `media_id`. */
export const adminRecentPhotoSchema = adminPhotoSchema.extend({
  /** Null while the photo waits in the review queue. */
  reviewed_at: z.string().nullable(),
  ad: z.object({ id: z.number().int(), title: z.string(), status: z.enum(STATUSES) }),
  profile: z.object({ id: z.number().int(), display_name: z.string() }),
  /** Risk points (open reports on its ad, a match at upload, the screening score): the queue's order. */
  risk: z.number().int(),
  /** Open reports on the photo's ad. */
  open_reports: z.number().int(),
  /** Photos of other accounts and removed-list entries it matches (GET API.adminMediaMatches lists them). */
  match_count: z.number().int(),
});

/** A row of the verification queue (GET API.adminVerifications). */
export const adminVerificationRowSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  status: z.enum(['awaiting_photo', 'pending', 'approved', 'rejected']),
  submitted_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  reasons: staffReasonsSchema.nullable(),
  selfie_url: z.string().nullable(),
  profile: z.object({ id: z.number().int(), display_name: z.string(), status: z.enum(STATUSES), birth_date: z.string().nullable() }),
  photos: z.array(adminPhotoSchema),
  /** The selfie's matches (issue 29): other accounts' photos and selfies and the removed list, closest first. */
  match_count: z.number().int(),
  matches: z.array(mediaMatchSchema),
});

/** A row of the appeals queue (GET API.adminAppeals). */
export const adminAppealRowSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'upheld', 'reversed']),
  text: z.string(),
  decision_text: z.string().nullable(),
  created_at: z.string(),
  user: userRefSchema.nullable(),
  statement: z.object({
    id: z.number().int(),
    subject_type: z.string(),
    subject_id: z.number().int(),
    subject_label: z.string().nullable(),
    decision: z.string(),
    reason_codes: z.array(z.string()),
    ground: z.string(),
    facts: z.string(),
    created_at: z.string(),
  }),
});

export type UserRef = z.infer<typeof userRefSchema>;
export type AccountRef = z.infer<typeof accountRefSchema>;
export type AdminModel = z.infer<typeof adminModelRowSchema>;
export type AdminPublicist = z.infer<typeof adminPublicistRowSchema>;
export type AdminPhoto = z.infer<typeof adminPhotoSchema>;
export type AdminAd = z.infer<typeof adminAdRowSchema>;
export type RecentPhoto = z.infer<typeof adminRecentPhotoSchema>;
export type AdminVerification = z.infer<typeof adminVerificationRowSchema>;
export type AdminAppeal = z.infer<typeof adminAppealRowSchema>;

export const APPEAL_OUTCOMES = ['upheld', 'reversed'] as const;
export const appealDecisionSchema = z.object({
  outcome: z.enum(APPEAL_OUTCOMES),
  text: z.string().trim().min(DECISION_TEXT_MIN).max(DECISION_TEXT_MAX),
});
export type AppealDecisionInput = z.infer<typeof appealDecisionSchema>;
/** POST API.adminAppealDecide's `data`: the outcome and what a reversal restored. */
export const appealDecidedSchema = z.object({
  id: z.number().int(),
  status: z.enum(APPEAL_OUTCOMES),
  restored: z.record(z.string(), z.unknown()),
});

/** A calendar date that exists (`2026-99-99` is refused here, not by the database). */
const dateParam = z.iso.date();

export const auditQuerySchema = z
  .object({
    /** Actor's e-mail (part of it) or id. */
    actor: z
      .string()
      .trim()
      .max(254)
      // All digits means an id: then it must be one an integer column can hold.
      .refine((v) => !/^\d+$/.test(v) || (/^[1-9]\d{0,9}$/.test(v) && Number(v) <= INT4_MAX))
      .optional(),
    subject_type: z.string().trim().max(24).optional(),
    subject_id: intParam(1, 2_147_483_647).optional(),
    /** Action, or its beginning (`ad.` finds every ad decision). */
    action: z.string().trim().max(64).optional(),
    from: dateParam.optional(),
    to: dateParam.optional(),
    page: intParam(1, 10_000).optional().default(1),
    per_page: intParam(1, 100).optional().default(50),
  })
  .strict();
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** One entry of the audit log as the super admin reads it (GET API.superAdminAudit). */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.object({ id: z.number().int().nullable(), role: z.string().nullable(), email: z.string().nullable() }),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.number().int().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.looseObject({ codes: z.array(z.string()).optional(), text: z.string().optional() }).nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

const count = z.number().int();
/** The staff dashboard's counts (GET API.adminCounts). */
export const adminCountsSchema = z.object({
  pending_ads: count,
  pending_verifications: count,
  pending_publicists: count,
  open_reports: count,
  open_appeals: count,
  new_messages: count,
  /** Photos no one has reviewed yet, plus refused photos whose owner asked for a person's review (the photo queue). */
  pending_photos: count,
  /** Models under a publicist's responsibility whose profile is `unverified` (created by the agency, never reviewed). */
  agency_models_unverified: count,
  /** Models under a publicist's responsibility whose profile is `pending` review. */
  agency_models_pending: count,
});
export type AdminCounts = z.infer<typeof adminCountsSchema>;

/** The queues whose decisions the review statistics count (a decision's subject type). */
export const REVIEW_STAT_QUEUES = ['ad', 'media', 'verification', 'model_profile', 'publicist_profile', 'user'] as const;
export type ReviewStatQueue = (typeof REVIEW_STAT_QUEUES)[number];
/** How far back the overturn rates look (statements issued in the last N days). */
export const OVERTURN_WINDOW_DAYS = 90;

/**
 * GET API.superAdminReviewStats (super admin): `hours` = the last 24 hours, oldest first, each with the decisions
 * staff made in it per queue (from the audit log); `rules` = per reason code, the decisions of the last
 * OVERTURN_WINDOW_DAYS citing it, how many were appealed and how many reversed on appeal.
 */
export const reviewStatsSchema = z.object({
  hours: z.array(
    z.object({
      /** The hour's start (ISO 8601, UTC). */
      hour: z.string(),
      decided: z.record(z.enum(REVIEW_STAT_QUEUES), z.number().int()),
      total: z.number().int(),
    }),
  ),
  rules: z.array(
    z.object({
      code: z.enum(REASON_CODES),
      decisions: z.number().int(),
      appealed: z.number().int(),
      overturned: z.number().int(),
    }),
  ),
});
export type ReviewStats = z.infer<typeof reviewStatsSchema>;

/**
 * Broadcast on the staff presence channel (contract/support-chat.ts STAFF_CHANNEL) after each staff decision, so open
 * review queues refetch (issue 29): `{ subject_type, subject_id }` only.
 */
export const REVIEW_EVENTS = { decided: 'App\\Events\\ReviewDecided' } as const;
