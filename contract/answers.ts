import { z } from 'zod';

/**
 * The answer envelope the generic handler understands (SPEC §7–8). Success and error answers share it;
 * errors add a stable machine code in `error` and, for forms, per-field messages in `errors`.
 */
export const ERROR_CODES = [
  'validation_failed',
  'not_found',
  'forbidden',
  'unauthenticated',
  'csrf_mismatch',
  'xhr_required',
  'conflict',
  'password_confirmation_required',
  'email_unverified',
  'account_suspended',
  'too_many_requests',
  'payload_too_large',
  'unsupported_media_type',
  'malformed_multipart',
  'idempotency_mismatch',
  'idempotency_in_progress',
  'server_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const answerSchema = z.object({
  channel: z.enum(['notification', 'modal']),
  type: z.enum(['success', 'error', 'info', 'warning']),
  message: z.string(),
  description: z.string().optional(),
  placement: z.enum(['top-right', 'top-left', 'top-center', 'bottom-right', 'bottom-left', 'bottom-center']).optional(),
  okText: z.string().optional(),
  error: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  redirect: z.string().optional(),
  data: z.unknown().optional(),
});
export type Answer = z.infer<typeof answerSchema>;
export type ErrorAnswer = Answer & { error: ErrorCode | (string & {}) };

/**
 * The success envelope around `data`, for routes' declared answers (OpenAPI) and the client's parsing: one shape,
 * so no route builds its own. `successSchema` is the envelope without data (a toast and nothing else).
 */
export const successSchema = z.object({
  channel: z.literal('notification'),
  type: z.literal('success'),
  message: z.string(),
  redirect: z.string().optional(),
});
export const successOf = <T extends z.ZodType>(data: T) => successSchema.extend({ data });
/** A bare `{ data }` answer (reads). */
export const dataOf = <T extends z.ZodType>(data: T) => z.object({ data });

/** Laravel's page metadata (SPEC §7), the same on every paginated list. */
export const paginationMetaSchema = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
});
export type PaginationMeta = z.infer<typeof paginationMetaSchema>;
/** A page of rows with its metadata. */
export const pageOf = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row), meta: paginationMetaSchema });
