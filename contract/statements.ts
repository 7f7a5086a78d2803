import { z } from 'zod';
import { intParam } from './params.ts';
import { paginationMetaSchema } from './listings.ts';

/**
 * Statements of reasons (EU DSA art. 17) and appeals (art. 20). Every restriction staff impose (rejection,
 * suspension, pause, removal) stores one statement for the affected user, in their language, and mails it; the user
 * may appeal once within six months, and a person decides the appeal.
 */

/**
 * The rules a restriction may rest on: clauses of the terms of use (and the law behind them). Staff tick one or more
 * as reason codes; the first ticked one is the statement's `ground`. The client translates both (`statements.grounds.*`).
 */
export const STATEMENT_GROUNDS = [
  'illegal_content',
  'minor',
  'coercion',
  'identity',
  'spam',
  'sexual_services',
  'photo_rules',
  'incomplete',
  'other',
] as const;
export type StatementGround = (typeof STATEMENT_GROUNDS)[number];
/** Reason codes are the same list (a decision may name several). */
export const REASON_CODES = STATEMENT_GROUNDS;
export type ReasonCode = StatementGround;

/** What was restricted: `statements.decisions.*`. */
export const STATEMENT_DECISIONS = ['rejected', 'suspended', 'paused', 'removed'] as const;
export type StatementDecision = (typeof STATEMENT_DECISIONS)[number];

/** `photo_review`: a photo the automated screening refused and its owner sent to a person (contract/photo-reviews.ts). */
export const STATEMENT_SUBJECTS = ['ad', 'media', 'model_profile', 'publicist_profile', 'user', 'verification', 'photo_review'] as const;
export type StatementSubject = (typeof STATEMENT_SUBJECTS)[number];

export const APPEAL_STATUSES = ['pending', 'upheld', 'reversed'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** How long a decision can be appealed (DSA art. 20: at least six months). */
export const APPEAL_MONTHS = 6;
export const APPEAL_TEXT_MIN = 10;
export const APPEAL_TEXT_MAX = 5000;

export const statementsQuerySchema = z
  .object({
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 50).optional().default(10),
  })
  .strict();

export const appealBodySchema = z.object({ text: z.string().trim().min(APPEAL_TEXT_MIN).max(APPEAL_TEXT_MAX) });
export type AppealBody = z.infer<typeof appealBodySchema>;

export const appealSchema = z.object({
  id: z.number().int(),
  status: z.enum(APPEAL_STATUSES),
  text: z.string(),
  decision_text: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type Appeal = z.infer<typeof appealSchema>;

export const statementSchema = z.object({
  id: z.number().int(),
  subject_type: z.enum(STATEMENT_SUBJECTS),
  subject_id: z.number().int(),
  /** A human label for what was restricted (ad title, profile name), when it still exists. */
  subject_label: z.string().nullable(),
  decision: z.string(),
  reason_codes: z.array(z.string()),
  facts: z.string(),
  ground: z.string(),
  automated: z.boolean(),
  automated_detail: z.record(z.string(), z.unknown()).nullable(),
  language: z.string(),
  appeal_until: z.string(),
  created_at: z.string(),
  /** Whether the recipient may still appeal (no appeal yet and before `appeal_until`). */
  can_appeal: z.boolean(),
  appeal: appealSchema.nullable(),
});
export type Statement = z.infer<typeof statementSchema>;

export const statementListSchema = z.object({ data: z.array(statementSchema), meta: paginationMetaSchema });
export type StatementList = z.infer<typeof statementListSchema>;

/** Where a suspended account lands after signing in: its statements and the way to appeal (language-neutral path). */
export const ACCOUNT_SUSPENDED_PATH = '/account/suspended';
