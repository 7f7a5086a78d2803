/**
 * Domain errors. Services throw these; the one error handler (plugins/errors.ts) turns them into the answer
 * envelope with a stable `error` code and a message translated into the request's language.
 *
 * Build them with the named factories below, never with `new AppError(...)` by hand: each factory fixes the
 * status and the code together, so a 409 can never carry `not_found` and a caller cannot misplace one of the
 * optional arguments (the constructor's positional list is an implementation detail of this file).
 */
import type { ErrorCode } from '#contract/answers.ts';

export interface AppErrorOptions {
  /** The locale key of the message; defaults to `errors.{code}`. */
  messageKey?: string;
  /** Per-field messages for forms (already translated, or locale keys the handler translates). */
  fieldErrors?: Record<string, string[]>;
  /** Extra machine-readable detail sent in the envelope's `data`. */
  data?: unknown;
  /** Interpolation values for the message (e.g. how long to wait). */
  messageParams?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly messageKey: string;
  readonly fieldErrors?: Record<string, string[]>;
  readonly data?: unknown;
  readonly messageParams?: Record<string, unknown>;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    options: AppErrorOptions = {},
  ) {
    super(code);
    this.messageKey = options.messageKey ?? `errors.${code}`;
    this.fieldErrors = options.fieldErrors;
    this.data = options.data;
    this.messageParams = options.messageParams;
  }
}

/** 404: the row does not exist, or the caller may not know that it does. */
export const notFound = (messageKey?: string) => new AppError(404, 'not_found', { messageKey });
/** 403: signed in, but this row or action is not theirs. */
export const forbidden = (messageKey?: string) => new AppError(403, 'forbidden', { messageKey });
/** 401: no session. */
export const unauthenticated = () => new AppError(401, 'unauthenticated');
/** 409: the row changed meanwhile, or the action no longer applies (`data` carries what the client needs to recover). */
export const conflict = (data?: unknown, messageKey?: string, messageParams?: Record<string, unknown>) =>
  new AppError(409, 'conflict', { messageKey, data, messageParams });
/** 422: the input is well-formed but refused; `fieldErrors` names the fields, as a form shows them. */
export const validationFailed = (fieldErrors?: Record<string, string[]>, messageKey = 'errors.validation_failed', data?: unknown) =>
  new AppError(422, 'validation_failed', { messageKey, fieldErrors, data });
/** 422 on one field, the commonest case. */
export const fieldError = (field: string, message: string) => validationFailed({ [field]: [message] });
/** 429: slow down; `retryAfterS` is sent as `data.retry_after` and interpolated into the message. */
export const tooManyRequests = (messageKey?: string, retryAfterS?: number, messageParams?: Record<string, unknown>) =>
  new AppError(429, 'too_many_requests', {
    messageKey,
    data: retryAfterS === undefined ? undefined : { retry_after: Math.max(1, Math.ceil(retryAfterS)) },
    messageParams,
  });
/** 403: the e-mail address is not verified yet. */
export const emailUnverified = () => new AppError(403, 'email_unverified');
/** 403: the account is suspended; only the appeal paths stay open. */
export const accountSuspended = (messageKey?: string) => new AppError(403, 'account_suspended', { messageKey });
/** 423: a sensitive action needs the password typed again. */
export const passwordConfirmationRequired = () => new AppError(423, 'password_confirmation_required');
/** 415: the upload is not an image type we accept. */
export const unsupportedMediaType = (messageKey?: string) => new AppError(415, 'unsupported_media_type', { messageKey });
/** 413: the body or an upload is too large. */
export const payloadTooLarge = (messageKey?: string, messageParams?: Record<string, unknown>) =>
  new AppError(413, 'payload_too_large', { messageKey, messageParams });
/** 400: a multipart body that could not be read. */
export const malformedMultipart = (messageKey?: string) => new AppError(400, 'malformed_multipart', { messageKey });
/** 409 / 422 of the Idempotency-Key protocol (plugins/idempotency.ts). */
export const idempotencyInProgress = () => new AppError(409, 'idempotency_in_progress');
export const idempotencyMismatch = () => new AppError(422, 'idempotency_mismatch');
/** 503: a part the request needs (database, storage, mail) is not available; the client may retry. */
export const serviceUnavailable = (messageKey?: string) => new AppError(503, 'service_unavailable', { messageKey });
