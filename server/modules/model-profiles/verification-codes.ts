/**
 * Verification codes (Profile/Model Verify). A profile has at most one open request (`awaiting_photo`): asking
 * again gives that request a fresh code and expiry instead of adding a row, so tapping "new code" cannot grow the
 * table, and only the last code shown works. How often a model may ask is limited per account
 * (VERIFY_CODES_PER_HOUR).
 */
import crypto from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { VERIFICATION_CODE_TTL_MINUTES, type VerificationCode } from '#contract/profiles.ts';
import type { Db } from '../../db/client.ts';
import { modelProfiles, verificationRequests } from '../../db/schema.ts';
import { conflict, forbidden, tooManyRequests } from '../../errors.ts';
import { memoryLimiter, type LimiterFactory } from '../../plugins/limits.ts';
import type { ProfileRow } from './model-profiles.repository.ts';

/** No 0/O or 1/I/L: the code is read off a phone screen in a photo. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 6;

function newCode(): string {
  let code = '';
  for (const byte of crypto.randomBytes(CODE_LENGTH)) code += ALPHABET[byte % ALPHABET.length];
  return code;
}

export function createCodeLimiter(perHour: number, make: LimiterFactory = memoryLimiter): RateLimiterAbstract {
  return make({ keyPrefix: 'verification-code', points: perHour, duration: 60 * 60 });
}

/** Takes one of the account's codes for the hour, or answers 429 with Retry-After and a message saying why. */
async function takeCodePoint(limiter: RateLimiterAbstract, userId: number, reply: Pick<FastifyReply, 'header'>): Promise<void> {
  try {
    await limiter.consume(String(userId));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    reply.header('retry-after', Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    throw tooManyRequests('verification.codeTooSoon');
  }
}

export async function issueVerificationCode(
  db: Db,
  profile: ProfileRow,
  limits: { limiter: RateLimiterAbstract; userId: number; reply: Pick<FastifyReply, 'header'> },
): Promise<VerificationCode> {
  if (profile.status === 'active') throw conflict(undefined, 'verification.alreadyVerified');
  if (profile.status === 'suspended') throw forbidden();
  await takeCodePoint(limits.limiter, limits.userId, limits.reply);
  const code = newCode();
  const expiresAt = new Date(Date.now() + VERIFICATION_CODE_TTL_MINUTES * 60_000);
  await db.transaction(async (tx) => {
    // The profile's row lock: two requests at once still leave one open request.
    await tx.select({ id: modelProfiles.id }).from(modelProfiles).where(eq(modelProfiles.id, profile.id)).for('update');
    const [open] = await tx
      .select({ id: verificationRequests.id })
      .from(verificationRequests)
      .where(and(eq(verificationRequests.modelProfileId, profile.id), eq(verificationRequests.status, 'awaiting_photo')))
      .orderBy(desc(verificationRequests.id))
      .limit(1);
    if (open) {
      // createdAt moves too: the state view reads the newest request by it.
      await tx.update(verificationRequests).set({ code, expiresAt, createdAt: new Date() }).where(eq(verificationRequests.id, open.id));
    } else {
      await tx.insert(verificationRequests).values({ modelProfileId: profile.id, code, expiresAt });
    }
  });
  return { code, expires_at: expiresAt.toISOString() };
}
