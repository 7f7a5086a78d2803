/**
 * The one error handler: maps domain errors, schema validation failures and Fastify's own 4xx errors to the
 * answer envelope (SPEC §7–8) in the request's language. 5xx answers never reveal internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Answer, ErrorCode } from '#contract/answers.ts';
import { issueToMessage, issuePath } from '#contract/validation-messages.ts';
import { AppError } from '../errors.ts';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  419: 'csrf_mismatch',
  422: 'validation_failed',
  429: 'too_many_requests',
};

export function errorAnswer(req: FastifyRequest, code: string, extra: Partial<Answer> = {}): Answer {
  return { channel: 'notification', type: 'error', message: req.t(`errors.${code}`), error: code, ...extra };
}

export function sendError(req: FastifyRequest, reply: FastifyReply, status: number, code: ErrorCode, extra: Partial<Answer> = {}) {
  return reply.status(status).send(errorAnswer(req, code, extra));
}

export function fieldErrors(req: FastifyRequest, issues: z.core.$ZodIssue[]): Record<string, string[]> {
  // No prototype: a field the client named `__proto__` (a query key, a JSON key) is an entry like any other, not
  // Object.prototype (whose missing `push` made the error handler itself throw: a 500).
  const out = Object.create(null) as Record<string, string[]>;
  for (const issue of issues) {
    const { key, params } = issueToMessage(issue);
    (out[issuePath(issue)] ??= []).push(req.t(key, params ?? {}));
  }
  return out;
}

/**
 * A multipart body busboy could not read (no or wrong boundary, a boundary longer than its 256-byte search limit,
 * garbage, a body cut short): busboy throws or emits plain errors, which would otherwise be 500s. They come out of
 * `req.parts()` or a part's file stream, wherever the route happens to be reading.
 */
const MULTIPART_FAILURES =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of (multipart data|form)|\w+ terminated early due to unexpected end of multipart data|Malformed part header|The needle )/;
function isMalformedMultipart(req: FastifyRequest, err: FastifyError): boolean {
  if (err.statusCode !== undefined && err.statusCode !== 500) return false;
  if (!/^multipart\//i.test(req.headers['content-type'] ?? '')) return false;
  return MULTIPART_FAILURES.test(err.message) || err.code === 'FST_MP_PREMATURE_CLOSE';
}

export default fp(async (app) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).send({
        ...errorAnswer(req, err.code),
        message: req.t(err.messageKey, err.messageParams ?? {}),
        ...(err.fieldErrors ? { errors: err.fieldErrors } : {}),
        ...(err.data !== undefined ? { data: err.data } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // A malformed path id names nothing that exists: 404, like an unknown id.
      if (err.validationContext === 'params') return sendError(req, reply, 404, 'not_found');
      const issues = err.validation.map(
        (v) =>
          ({
            ...v.params,
            code: v.keyword,
            path: v.instancePath.split('/').filter(Boolean),
            message: v.message ?? '',
          }) as unknown as z.core.$ZodIssue,
      );
      // Laravel's answer to any invalid input the client chose, body or query string alike.
      const status = err.validationContext === 'headers' ? 400 : 422;
      return sendError(req, reply, status, 'validation_failed', { errors: fieldErrors(req, issues) });
    }
    if (isMalformedMultipart(req, err)) return sendError(req, reply, 400, 'malformed_multipart');
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = STATUS_CODES[status] ?? 'validation_failed';
      return sendError(req, reply, status, code);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, 'server_error');
  });
});
