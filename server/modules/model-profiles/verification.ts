/**
 * The work behind verification.routes.ts (Profile/Model Verify): the model's verification state, a code to hold up in
 * the selfie (verification-codes.ts), and the selfie itself. The selfie arrives as multipart (`photo` + `code`): the
 * code is checked against the model's open request before the photo is decoded, the photo is re-encoded (metadata
 * stripped) into private storage — never under a public path — and the request waits in the staff queue with the
 * profile `pending` (SPEC §4). A write that fails removes the stored file.
 */
import crypto from 'node:crypto';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { VerificationCode, VerificationState } from '#contract/profiles.ts';
import type { Db } from '../../db/client.ts';
import { modelProfiles, verificationRequests } from '../../db/schema.ts';
import { conflict, unsupportedMediaType, validationFailed } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { processImage } from '../media/image-pipeline.ts';
import { recordSelfieHashes } from '../media/photo-hashes.ts';
import { profileOfUser, type ProfileRow } from './model-profiles.repository.ts';
import { issueVerificationCode } from './verification-codes.ts';

/** The signed-in model's profile; 409 `profiles.missing` before they made one. */
async function ownProfile(db: Db, user: SessionUser): Promise<ProfileRow> {
  const profile = await profileOfUser(db, user.id);
  if (!profile) throw conflict(undefined, 'profiles.missing');
  return profile;
}

/** The profile's status and its latest verification request (null: never asked). */
export async function verificationState(db: Db, user: SessionUser): Promise<VerificationState> {
  const profile = await ownProfile(db, user);
  const [last] = await db
    .select()
    .from(verificationRequests)
    .where(eq(verificationRequests.modelProfileId, profile.id))
    .orderBy(desc(verificationRequests.createdAt), desc(verificationRequests.id))
    .limit(1);
  return {
    profile_status: profile.status,
    request: last
      ? {
          status: last.status,
          submitted_at: last.submittedAt?.toISOString() ?? null,
          decided_at: last.decidedAt?.toISOString() ?? null,
          reasons: last.reasons ?? null,
        }
      : null,
  };
}

/** A code for the selfie (VERIFY_CODES_PER_HOUR per account: 429 with Retry-After past it). */
export async function requestVerificationCode(
  db: Db,
  user: SessionUser,
  limiter: RateLimiterAbstract,
  reply: Pick<FastifyReply, 'header'>,
): Promise<VerificationCode> {
  const profile = await ownProfile(db, user);
  return issueVerificationCode(db, profile, { limiter, userId: user.id, reply });
}

/** The multipart body's two fields; any other file is read to its end and dropped. */
async function readSelfie(req: FastifyRequest): Promise<{ code?: string; photo?: Buffer; truncated: boolean }> {
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
  return { code, photo, truncated };
}

/** Takes the selfie with its code: the request becomes `pending` and so does the profile. */
export async function submitVerification(req: FastifyRequest, user: SessionUser): Promise<{ status: 'pending' }> {
  if (!req.isMultipart()) throw unsupportedMediaType();
  const app = req.server;
  const db = app.db;
  const profile = await ownProfile(db, user);
  const { code, photo, truncated } = await readSelfie(req);
  const refuse = (field: 'code' | 'photo', key: string) => validationFailed({ [field]: [req.t(key)] });
  if (!code) throw refuse('code', 'validation.required');
  // Only the code's own alphabet ever reaches the query (a NUL or a megabyte of text does not).
  if (!/^[A-Z0-9]{1,16}$/.test(code)) throw refuse('code', 'verification.codeInvalid');
  if (!photo) throw refuse('photo', 'validation.required');

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
  if (!request) throw refuse('code', 'verification.codeInvalid');
  if (truncated) throw refuse('photo', 'verification.photoTooLarge');

  const result = await processImage(photo, { maxBytes: app.config.uploadMaxBytes, maxPixels: app.config.uploadMaxPixels, widths: [1600] });
  if (!result.ok) throw refuse('photo', `media.refused.${result.reason}`);
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
      if (!updated) throw refuse('code', 'verification.codeInvalid');
      await tx
        .update(modelProfiles)
        .set({ status: 'pending', version: profile.version + 1, updatedAt: new Date() })
        .where(eq(modelProfiles.id, profile.id));
    });
  } catch (err) {
    await app.storage.remove(key).catch(() => {});
    throw err;
  }
  // Issue 29: the selfie's perceptual hash joins the others (a photo of another account matching it is flagged).
  await recordSelfieHashes(app, variant.data, request.id, profile.id);
  return { status: 'pending' };
}
