import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { successOf } from './answers.ts';
import { intParam } from './params.ts';
import { paginationMetaSchema } from './listings.ts';

/**
 * Notices (EU DSA art. 16): anyone, with or without an account, may report an ad. Suspected minors and trafficking
 * jump the queue and are flagged for escalation to the authorities (art. 18).
 */
export const REPORT_REASONS = ['illegal_content', 'minor_suspected', 'trafficking_suspected', 'not_the_person', 'spam', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Reasons that go to the top of the queue and are flagged for the authorities. */
export const URGENT_REPORT_REASONS: readonly ReportReason[] = ['minor_suspected', 'trafficking_suspected'];

export const REPORT_DETAILS_MIN = 10;
export const REPORT_DETAILS_MAX = 2000;

const EMAIL = z.email().max(254);
/**
 * A phone number as people type it: digits with spaces, dots, dashes, brackets, an optional leading +. Stored in
 * E.164 when it reads as a real number (without a + it is read as Spanish), as typed otherwise.
 */
const PHONE = z
  .string()
  .regex(/^\+?[0-9 ().-]{6,24}$/)
  .refine((v) => v.replace(/\D/g, '').length >= 6)
  .transform((v) => {
    const phone = parsePhoneNumberFromString(v, 'ES');
    return phone?.isValid() ? phone.number : v;
  });

export const reportCreateSchema = z
  .object({
    ad_id: z.number().int().positive().max(2_147_483_647),
    reason: z.enum(REPORT_REASONS),
    details: z.string().trim().min(REPORT_DETAILS_MIN).max(REPORT_DETAILS_MAX),
    contact: z
      .string()
      .trim()
      .max(254)
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(z.union([EMAIL, PHONE]).optional()),
    /** Honeypot: a field people never see; bots fill it. */
    website: z.string().max(200).optional(),
    /** When the form was opened (ms since epoch, from the client): a form sent within 2 s is a bot's. */
    opened_at: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ReportCreateInput = z.input<typeof reportCreateSchema>;
export type ReportCreate = z.output<typeof reportCreateSchema>;

export const REPORT_STATUSES = ['open', 'actioned', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const reportQuerySchema = z
  .object({
    status: z.enum([...REPORT_STATUSES, 'all']).optional(),
    reason: z.enum(REPORT_REASONS).optional(),
    escalate: z.enum(['1', '0']).optional(),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 100).optional().default(20),
  })
  .strict();
export type ReportQuery = z.input<typeof reportQuerySchema>;
export type ReportFilters = z.output<typeof reportQuerySchema>;

export const reportDecisionSchema = z
  .object({
    outcome: z.enum(['actioned', 'dismissed']),
    text: z.string().trim().min(3).max(2000),
  })
  .strict();
export type ReportDecisionInput = z.input<typeof reportDecisionSchema>;

export const reportSchema = z.object({
  id: z.number().int(),
  ad_id: z.number().int().nullable(),
  ad: z.record(z.string(), z.unknown()).nullable(),
  reason: z.enum(REPORT_REASONS),
  details: z.string(),
  contact: z.string().nullable(),
  language: z.string(),
  priority: z.number().int(),
  escalate: z.boolean(),
  status: z.enum(REPORT_STATUSES),
  receipt: z.string(),
  signed_in: z.boolean(),
  decision_text: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportListSchema = z.object({ data: z.array(reportSchema), meta: paginationMetaSchema });
export type ReportList = z.infer<typeof reportListSchema>;

/** POST /api/reports: the receipt, in the toast's description too (a bot's notice gets the same answer, unstored). */
export const reportReceivedSchema = successOf(z.object({ receipt: z.string() })).extend({ description: z.string() });
