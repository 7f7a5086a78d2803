import crypto from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { User } from '#contract/auth.ts';
import type { Db } from '../../db/client.ts';
import { modelProfiles, passwordResetTokens, publicistProfiles, users } from '../../db/schema.ts';
import { hashToken } from '../../plugins/session.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function hasProfile(db: Db, user: UserRow): Promise<boolean> {
  if (user.role === 'model')
    return (await db.select({ id: modelProfiles.id }).from(modelProfiles).where(eq(modelProfiles.userId, user.id))).length > 0;
  if (user.role === 'publicist')
    return (await db.select({ id: publicistProfiles.id }).from(publicistProfiles).where(eq(publicistProfiles.userId, user.id))).length > 0;
  return true;
}

export async function toUserDto(db: Db, user: UserRow): Promise<User> {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
    locale: user.locale,
    has_profile: await hasProfile(db, user),
    created_at: user.createdAt.toISOString(),
  };
}

const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * A new password-reset token (only its hash is stored). Links already sent stay valid: a stranger asking for a
 * reset must not cancel the owner's pending one. Spent and expired rows of the user are dropped on the way.
 */
export async function issueResetToken(db: Db, userId: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .delete(passwordResetTokens)
    .where(
      and(eq(passwordResetTokens.userId, userId), or(isNotNull(passwordResetTokens.usedAt), lt(passwordResetTokens.expiresAt, new Date()))),
    );
  await db.insert(passwordResetTokens).values({ userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + RESET_TTL_MS) });
  return token;
}

/**
 * Uses the reset token `tokenId` and with it every other outstanding link of the user (one reset ends them
 * all). False when the token was used meanwhile: run inside the reset's transaction, a concurrent second use
 * finds nothing to update.
 */
export async function consumeResetTokens(tx: Db, userId: number, tokenId: number): Promise<boolean> {
  const used = await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.id, tokenId), isNull(passwordResetTokens.usedAt)))
    .returning({ id: passwordResetTokens.id });
  if (!used.length) return false;
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  return true;
}
