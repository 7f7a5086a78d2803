/**
 * The model's side of consent, public (no account): GET/POST /api/consent/{token} shows the request and takes
 * "I agree" / "I do not agree" (single-use); GET/POST /api/consent/withdraw/{token} withdraws a given consent, which
 * unlists the model's ads at once (ads trigger); POST /api/consent/code exchanges the mailed code for a link's token.
 * Expired or used links answer 409 with a translated message. The work is in consent.ts.
 */
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  consentAnswerSchema,
  consentCodeAnswerSchema,
  consentCodeSchema,
  consentDecisionSchema,
  consentRequestSchema,
  consentTokenParamsSchema,
} from '#contract/publicists.ts';
import { ok } from '../../answers.ts';
import { consentRequestOf, consentToWithdraw, decideConsent, exchangeConsentCode, withdrawConsent } from './consent.ts';

export const consentRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // Public, guessable only by brute force over 256 bits; still limited so a flood costs little.
  const limit = { rateLimit: { max: 30, timeWindow: 60_000 } };

  app.post(
    API.consentCode,
    {
      schema: { body: consentCodeSchema, response: { 200: consentCodeAnswerSchema } },
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
    },
    async (req) => ({ data: await exchangeConsentCode(req, req.body) }),
  );

  app.get(
    API.consentRequest(':token'),
    { schema: { params: consentTokenParamsSchema, response: { 200: consentRequestSchema } }, config: limit },
    async (req, reply) => {
      const data = await consentRequestOf(db, req.lang, req.params.token);
      reply.header('cache-control', 'private, no-store');
      return { data };
    },
  );

  app.post(
    API.consentRequest(':token'),
    { schema: { params: consentTokenParamsSchema, body: consentDecisionSchema, response: { 200: consentAnswerSchema } }, config: limit },
    async (req) => {
      const agree = req.body.decision === 'agree';
      const data = await decideConsent(app, req.lang, req.params.token, agree);
      return ok(req, agree ? 'consent.notices.given' : 'consent.notices.declined', data);
    },
  );

  app.get(
    API.consentWithdraw(':token'),
    { schema: { params: consentTokenParamsSchema, response: { 200: consentRequestSchema } }, config: limit },
    async (req, reply) => {
      const data = await consentToWithdraw(db, req.lang, req.params.token);
      reply.header('cache-control', 'private, no-store');
      return { data };
    },
  );

  app.post(
    API.consentWithdraw(':token'),
    { schema: { params: consentTokenParamsSchema, response: { 200: consentAnswerSchema } }, config: limit },
    async (req) => ok(req, 'consent.notices.withdrawn', await withdrawConsent(app, req.lang, req.params.token)),
  );
};
