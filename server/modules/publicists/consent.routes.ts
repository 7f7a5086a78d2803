/**
 * The model's side of consent, public (no account): GET/POST /api/consent/{token} shows the request and takes
 * "I agree" / "I do not agree" (single-use); GET/POST /api/consent/withdraw/{token} withdraws a given consent, which
 * unlists the model's ads at once (ads trigger). Expired or used links answer 410-like states with a translated message.
 */
import crypto from 'node:crypto';
import { API } from '#contract/routes.ts';
import { and, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONSENT_CODE_ATTEMPTS,
  consentCodeAnswerSchema,
  consentCodeSchema,
  consentDecisionSchema,
  consentRequestSchema,
  consentTokenParamsSchema,
  type ConsentRequest,
} from '#contract/publicists.ts';
import { cities, modelConsents, modelProfiles, publicistProfiles, sections } from '../../db/schema.ts';
import { notFound, validationFailed } from '../../errors.ts';
import { hashToken } from '../../plugins/session.ts';
import { firstAdOf } from '../model-profiles/model-profiles.repository.ts';
import { notifyConsent } from '../notifications/events.ts';
import { answerConsent, gone, newToken, stateOf, type ConsentRow } from './consent.ts';

async function describe(app: FastifyInstance, req: FastifyRequest, row: ConsentRow, kind: 'give' | 'withdraw'): Promise<ConsentRequest> {
  const db = app.db;
  const [model] = await db.select().from(modelProfiles).where(eq(modelProfiles.id, row.modelProfileId));
  const [publicist] = await db.select().from(publicistProfiles).where(eq(publicistProfiles.id, row.publicistId));
  const ad = model ? await firstAdOf(db, model.id) : undefined;
  let adInfo: ConsentRequest['ad'] = null;
  if (ad) {
    const [place] = await db
      .select({ city: cities.name, names: sections.names })
      .from(cities)
      .innerJoin(sections, eq(sections.id, ad.sectionId))
      .where(eq(cities.id, ad.cityId));
    adInfo = {
      title: ad.title,
      description: ad.description,
      city: place?.city ?? '',
      section:
        (place?.names as Record<string, string> | undefined)?.[req.lang] ?? (place?.names as Record<string, string> | undefined)?.es ?? '',
    };
  }
  return {
    state: stateOf(row, kind),
    publicist: { display_name: publicist?.displayName ?? '', legal_name: publicist?.legalName ?? null },
    model: { display_name: model?.displayName ?? '' },
    ad: adInfo,
    expires_at: row.expiresAt.toISOString(),
  };
}

export const consentRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // The mailed link's token, or the one handed out for a correct code.
  const byToken = async (token: string) => {
    const hash = hashToken(token);
    return (
      await db
        .select()
        .from(modelConsents)
        .where(or(eq(modelConsents.tokenHash, hash), eq(modelConsents.codeTokenHash, hash)))
    )[0];
  };
  const byWithdrawToken = async (token: string) =>
    (
      await db
        .select()
        .from(modelConsents)
        .where(eq(modelConsents.withdrawTokenHash, hashToken(token)))
    )[0];
  // Public, guessable only by brute force over 256 bits; still limited so a flood costs little.
  const limit = { rateLimit: { max: 30, timeWindow: 60_000 } };

  /**
   * The code sent with the link, for a model who cannot or will not open links: contact + code → a one-time token for
   * the same page. Unknown contact and wrong code answer alike (no telling which contacts have requests); wrong codes
   * count against every open request of the contact and burn their codes at CONSENT_CODE_ATTEMPTS, so guessing a
   * six-digit code is hopeless even from many addresses. A correct code is burnt too: the token stands in for it.
   */
  app.post(
    API.consentCode,
    {
      schema: { body: consentCodeSchema, response: { 200: consentCodeAnswerSchema } },
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
    },
    async (req) => {
      const { contact, code } = req.body;
      const open = await db
        .select({ id: modelConsents.id, modelProfileId: modelConsents.modelProfileId, codeHash: modelConsents.codeHash })
        .from(modelConsents)
        .where(
          and(
            eq(modelConsents.contact, contact),
            eq(modelConsents.status, 'pending'),
            gt(modelConsents.expiresAt, new Date()),
            isNotNull(modelConsents.codeHash),
          ),
        );
      const match = open.find((row) =>
        crypto.timingSafeEqual(Buffer.from(hashToken(`${row.modelProfileId}:${code}`)), Buffer.from(row.codeHash!)),
      );
      if (!match) {
        if (open.length) {
          await db
            .update(modelConsents)
            .set({
              codeAttempts: sql`${modelConsents.codeAttempts} + 1`,
              codeHash: sql`CASE WHEN ${modelConsents.codeAttempts} + 1 >= ${CONSENT_CODE_ATTEMPTS} THEN NULL ELSE ${modelConsents.codeHash} END`,
            })
            .where(
              inArray(
                modelConsents.id,
                open.map((row) => row.id),
              ),
            );
        }
        throw validationFailed({ code: [req.t('consent.errors.code')] });
      }
      const token = newToken();
      await db
        .update(modelConsents)
        .set({ codeHash: null, codeTokenHash: hashToken(token) })
        .where(eq(modelConsents.id, match.id));
      return { data: { token } };
    },
  );

  app.get(
    API.consentRequest(':token'),
    { schema: { params: consentTokenParamsSchema, response: { 200: consentRequestSchema } }, config: limit },
    async (req, reply) => {
      const row = await byToken(req.params.token);
      if (!row) throw notFound('consent.errors.unknown');
      reply.header('cache-control', 'private, no-store');
      return { data: await describe(app, req, row, 'give') };
    },
  );

  app.post(
    API.consentRequest(':token'),
    { schema: { params: consentTokenParamsSchema, body: consentDecisionSchema }, config: limit },
    async (req) => {
      const found = await byToken(req.params.token);
      if (!found) throw notFound('consent.errors.unknown');
      const agree = req.body.decision === 'agree';
      const row = await answerConsent(app, found.id, agree, req.lang);
      const info = await describe(app, req, { ...row, status: agree ? 'given' : 'withdrawn' }, 'give');
      return {
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t(agree ? 'consent.notices.given' : 'consent.notices.declined'),
        data: info,
      };
    },
  );

  app.get(
    API.consentWithdraw(':token'),
    { schema: { params: consentTokenParamsSchema, response: { 200: consentRequestSchema } }, config: limit },
    async (req, reply) => {
      const row = await byWithdrawToken(req.params.token);
      if (!row) throw notFound('consent.errors.unknown');
      reply.header('cache-control', 'private, no-store');
      return { data: await describe(app, req, row, 'withdraw') };
    },
  );

  app.post(API.consentWithdraw(':token'), { schema: { params: consentTokenParamsSchema }, config: limit }, async (req) => {
    const found = await byWithdrawToken(req.params.token);
    if (!found) throw notFound('consent.errors.unknown');
    const { row, notice } = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(modelConsents).where(eq(modelConsents.id, found.id)).for('update');
      const state = stateOf(locked!, 'withdraw');
      if (state !== 'given') throw gone(state);
      const now = new Date();
      await tx.update(modelConsents).set({ status: 'withdrawn', withdrawnAt: now }).where(eq(modelConsents.id, locked!.id));
      const [model] = await tx.select().from(modelProfiles).where(eq(modelProfiles.id, locked!.modelProfileId)).for('update');
      // Only the consent in force: a later request (new contact) is not withdrawn by an old link.
      if (model && model.consentStatus === 'given') {
        await tx.update(modelProfiles).set({ consentStatus: 'withdrawn', updatedAt: now }).where(eq(modelProfiles.id, model.id));
      }
      // Stored with the withdrawal, broadcast after the commit.
      const notice = await notifyConsent(
        app,
        { publicistId: locked!.publicistId, modelProfileId: locked!.modelProfileId, given: false },
        tx,
      );
      return { row: locked!, notice };
    });
    await notice.publish();
    return {
      channel: 'notification' as const,
      type: 'success' as const,
      message: req.t('consent.notices.withdrawn'),
      data: await describe(app, req, { ...row, status: 'withdrawn' }, 'withdraw'),
    };
  });
};
