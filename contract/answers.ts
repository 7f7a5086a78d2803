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
