/**
 * Domain errors. Services throw these; the one error handler (plugins/errors.ts) turns them into the answer
 * envelope with a stable `error` code and a message translated into the request's language.
 */
import type { ErrorCode } from '#contract/answers.ts';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: string = `errors.${code}`,
    readonly fieldErrors?: Record<string, string[]>,
    readonly data?: unknown,
    /** Interpolation values for the message (e.g. how long to wait). */
    readonly messageParams?: Record<string, unknown>,
  ) {
    super(code);
  }
}

export const notFound = (messageKey?: string) => new AppError(404, 'not_found', messageKey);
export const forbidden = (messageKey?: string) => new AppError(403, 'forbidden', messageKey);
export const unauthenticated = () => new AppError(401, 'unauthenticated');
export const conflict = (data?: unknown, messageKey?: string) => new AppError(409, 'conflict', messageKey, undefined, data);
