/**
 * Profile/Model Verify. The model asks for a code (POST /api/profile/model/verification/code), photographs
 * themself holding it (asking again renews the open code; VERIFY_CODES_PER_HOUR at most), and sends the
 * selfie with the code (POST /api/profile/model/verification, multipart: `photo` + `code`; no JSON body schema to
 * declare, verification.ts reads and checks the parts). GET /api/profile/model/verification is the state. The work is
 * in verification.ts.
 */
import { API } from '#contract/routes.ts';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { verificationCodeAnswerSchema, verificationStateSchema, verificationSubmittedSchema } from '#contract/profiles.ts';
import { ok } from '../../answers.ts';
import { requireVerified } from '../../plugins/session.ts';
import { createCodeLimiter } from './verification-codes.ts';
import { requestVerificationCode, submitVerification, verificationState } from './verification.ts';

export const verificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const codeLimiter = createCodeLimiter(app.config.verificationCodesPerHour, app.limiter);
  await app.register(fastifyMultipart, {
    limits: { fileSize: app.config.uploadMaxBytes, files: 1, fields: 2, fieldSize: 64, parts: 3 },
  });

  app.get(
    API.modelVerification,
    { schema: { response: { 200: verificationStateSchema } }, config: { auth: { roles: ['model'] } } },
    async (req) => ({ data: await verificationState(db, requireVerified(req)) }),
  );

  app.post(
    API.modelVerificationCode,
    { schema: { response: { 201: verificationCodeAnswerSchema } }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => {
      const data = await requestVerificationCode(db, requireVerified(req), codeLimiter, reply);
      return reply.status(201).send({ data });
    },
  );

  app.post(
    API.modelVerification,
    { schema: { response: { 201: verificationSubmittedSchema } }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => reply.status(201).send(ok(req, 'verification.submitted', await submitVerification(req, requireVerified(req)))),
  );
};
