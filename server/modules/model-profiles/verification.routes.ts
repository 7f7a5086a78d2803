/**
 * Profile/Model Verify. The model asks for a code (POST /api/profile/model/verification/code), photographs
 * themself holding it (asking again renews the open code; VERIFY_CODES_PER_HOUR at most), and sends the
 * selfie with the code (POST /api/profile/model/verification, multipart:
 * `photo` + `code`). The selfie is re-encoded (metadata stripped) into private storage — never under a public
 * path — and the request waits in the staff queue; the profile's status becomes `pending` (SPEC §4).
 */
import crypto from 'node:crypto';
import { API } from '#contract/routes.ts';
import fastifyMultipart from '@fastify/multipart';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { verificationCodeAnswerSchema, verificationStateSchema } from '#contract/profiles.ts';
import { modelProfiles, verificationRequests } from '../../db/schema.ts';
import { conflict, unsupportedMediaType, validationFailed } from '../../errors.ts';
import { requireVerified } from '../../plugins/session.ts';
import { processImage } from '../media/image-pipeline.ts';
import { profileOfUser } from './model-profiles.repository.ts';
import { createCodeLimiter, issueVerificationCode } from './verification-codes.ts';

export const verificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const codeLimiter = createCodeLimiter(app.config.verificationCodesPerHour, app.limiter);
  await app.register(fastifyMultipart, {
    limits: { fileSize: app.config.uploadMaxBytes, files: 1, fields: 2, fieldSize: 64, parts: 3 },
  });

  const ownProfile = async (userId: number) => {
    const profile = await profileOfUser(db, userId);
    if (!profile) throw conflict(undefined, 'profiles.missing');
    return profile;
  };

  app.get(
    API.modelVerification,
    { schema: { response: { 200: verificationStateSchema } }, config: { auth: { roles: ['model'] } } },
    async (req) => {
      const user = requireVerified(req);
      const profile = await ownProfile(user.id);
      const [last] = await db
        .select()
        .from(verificationRequests)
        .where(eq(verificationRequests.modelProfileId, profile.id))
        .orderBy(desc(verificationRequests.createdAt), desc(verificationRequests.id))
        .limit(1);
      return {
        data: {
          profile_status: profile.status,
          request: last
            ? {
                status: last.status,
                submitted_at: last.submittedAt?.toISOString() ?? null,
                decided_at: last.decidedAt?.toISOString() ?? null,
                reasons: last.reasons ?? null,
              }
            : null,
        },
      };
    },
  );

  app.post(
    API.modelVerificationCode,
    { schema: { response: { 201: verificationCodeAnswerSchema } }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => {
      const user = requireVerified(req);
      const profile = await ownProfile(user.id);
      const data = await issueVerificationCode(db, profile, { limiter: codeLimiter, userId: user.id, reply });
      return reply.status(201).send({ data });
    },
  );

  app.post(API.modelVerification, { config: { auth: { roles: ['model'], verified: true } } }, async (req, reply) => {
    const user = requireVerified(req);
    if (!req.isMultipart()) throw unsupportedMediaType();
    const profile = await ownProfile(user.id);
    let code: string | undefined;
    let photo: Buffer | undefined;
    let truncated = false;
    for await (const part of req.parts()) {
      if (part.type === 'field' && part.fieldname === 'code' && typeof part.value === 'string') code = part.value.trim().toUpperCase();
      else if (part.type === 'file' && part.fieldname === 'photo') {
        photo = await part.toBuffer();
        truncated = part.file.truncated;
      } else if (part.type === 'file') {
        await part.toBuffer();
      }
    }
    const fieldError = (field: string, key: string) => validationFailed({ [field]: [req.t(key)] });
    if (!code) throw fieldError('code', 'validation.required');
    // Only the code's own alphabet ever reaches the query (a NUL or a megabyte of text does not).
    if (!/^[A-Z0-9]{1,16}$/.test(code)) throw fieldError('code', 'verification.codeInvalid');
    if (!photo) throw fieldError('photo', 'validation.required');

    const [request] = await db
      .select()
      .from(verificationRequests)
      .where(
        and(
          eq(verificationRequests.modelProfileId, profile.id),
          eq(verificationRequests.code, code),
          eq(verificationRequests.status, 'awaiting_photo'),
          gt(verificationRequests.expiresAt, new Date()),
        ),
      );
    if (!request) throw fieldError('code', 'verification.codeInvalid');
    if (truncated) throw fieldError('photo', 'verification.photoTooLarge');

    const result = await processImage(photo, {
      maxBytes: app.config.uploadMaxBytes,
      maxPixels: app.config.uploadMaxPixels,
      widths: [1600],
    });
    if (!result.ok) throw fieldError('photo', `media.refused.${result.reason}`);
    const variant = result.image.variants.at(-1)!;
    // Private: /media serves only ads/… and promo/… keys; staff see selfies through the review queue only.
    const key = `verification/${profile.id}/${crypto.randomUUID()}.webp`;
    await app.storage.put(key, variant.data);
    try {
      await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(verificationRequests)
          .set({ status: 'pending', photoKey: key, submittedAt: new Date() })
          .where(and(eq(verificationRequests.id, request.id), eq(verificationRequests.status, 'awaiting_photo')))
          .returning({ id: verificationRequests.id });
        if (!updated) throw fieldError('code', 'verification.codeInvalid');
        await tx
          .update(modelProfiles)
          .set({ status: 'pending', version: profile.version + 1, updatedAt: new Date() })
          .where(eq(modelProfiles.id, profile.id));
      });
    } catch (err) {
      await app.storage.remove(key).catch(() => {});
      throw err;
    }
    return reply.status(201).send({
      channel: 'notification',
      type: 'success',
      message: req.t('verification.submitted'),
      data: { status: 'pending' },
    });
  });
};
