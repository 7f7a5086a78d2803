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
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const { key, params } = issueToMessage(issue);
    (out[issuePath(issue)] ??= []).push(req.t(key, params ?? {}));
  }
  return out;
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
      const status = err.validationContext === 'body' ? 422 : 400;
      return sendError(req, reply, status, 'validation_failed', { errors: fieldErrors(req, issues) });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = STATUS_CODES[status] ?? 'validation_failed';
      return sendError(req, reply, status, code);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, 'server_error');
  });
});
