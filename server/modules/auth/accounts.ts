/**
 * The account services behind auth.routes.ts: registering, creating admins, signing in, verifying the address,
 * resetting, confirming and changing the password, changing the profile information. What writes the session cookie
 * or the login throttle's device cookie takes the request and the reply; the rest takes plain values and a translator
 * for the per-field messages a form shows.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dashboardFor, PROFILE_CREATE_ROUTES, type Role, type User, type VerifyEmailLink } from '#contract/auth.ts';
import type { DeviceFavourite } from '#contract/favourites.ts';
import { passwordResetTokens, sessions, users } from '../../db/schema.ts';
import type { Translates } from '../../answers.ts';
import { fieldError, forbidden } from '../../errors.ts';
import { mergeFavouritesInto } from '../../lib/favourites-merge.ts';
import { endOtherSessions, hashToken, startSession, type SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { changePassword, changeProfileInformation } from './account-changes.ts';
import { sendAlreadyRegisteredMail, sendPasswordChangedMail, sendPasswordResetMail, sendVerificationMail } from './auth.mails.ts';
import { afterPasswordReset, beginLogin } from './login-throttle.ts';
import { dummyPasswordHash, hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { checkVerificationLink, emailHash } from './signed-links.ts';
import { consumeResetTokens, findUserByEmail, findUserById, issueResetToken, toUserDto, type UserRow } from './users.repository.ts';

type T = Translates['t'];

function refuseCommon(t: T, password: string) {
  if (isCommonPassword(password)) throw fieldError('password', t('validation.password_common'));
}

/** Queuing a mail (a row in the jobs table) that fails must not undo what the user did: log it and carry on. */
async function sendQuietly(log: FastifyBaseLogger, send: () => Promise<void>) {
  try {
    await send();
  } catch (err) {
    log.error({ err }, 'mail delivery failed');
  }
}

/**
 * A new account, unverified until its link is followed. An address already taken gets a mail saying so instead, and
 * the caller answers alike either way (nobody learns which addresses have accounts).
 */
export async function registerAccount(
  app: FastifyInstance,
  input: { name: string; email: string; password: string; role: Role; favourites?: DeviceFavourite[] | undefined },
  ctx: { language: string; t: T; log: FastifyBaseLogger },
): Promise<void> {
  refuseCommon(ctx.t, input.password);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(app.db, input.email);
  if (existing) {
    await sendQuietly(ctx.log, () => sendAlreadyRegisteredMail(app, existing));
    return;
  }
  // The account and its verification mail (a queued job) commit together.
  await app.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({ name: input.name, email: input.email, passwordHash, role: input.role, locale: ctx.language, status: 'unverified' })
      .onConflictDoNothing()
      .returning();
    if (!created) return;
    // The visitor's device favourites (issue 28) belong to the account from the start: verifying on another device,
    // which never held them, loses nothing.
    if (input.favourites?.length) await mergeFavouritesInto(tx, created.id, input.favourites);
    await sendVerificationMail(app, created, tx);
  });
}

/** A super admin creates an admin, verified and active at once; audited in the same transaction. */
export async function createAdmin(
  app: FastifyInstance,
  actor: SessionUser,
  input: { name: string; email: string; password: string },
  ctx: { language: string; t: T; ip: string },
): Promise<User> {
  refuseCommon(ctx.t, input.password);
  if (await findUserByEmail(app.db, input.email)) throw fieldError('email', ctx.t('validation.email_taken'));
  const passwordHash = await hashPassword(input.password);
  const admin = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        name: input.name,
        email: input.email,
        passwordHash,
        role: 'admin',
        status: 'active',
        locale: ctx.language,
        emailVerifiedAt: new Date(),
      })
      .returning();
    await recordAudit(tx, {
      actor,
      action: 'user.create_admin',
      subjectType: 'user',
      subjectId: row!.id,
      after: { name: row!.name, email: row!.email, role: row!.role },
      req: { ip: ctx.ip },
    });
    return row!;
  });
  return toUserDto(app.db, admin);
}

/**
 * Signs in (throttled per address and network, login-throttle.ts) and starts the session. A wrong password and an
 * unknown address fail alike, after the same hashing work.
 */
export async function logIn(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; password: string; remember: boolean },
): Promise<{ user: UserRow; dto: User }> {
  const attempt = await beginLogin(app, req, reply, input.email);
  const user = await findUserByEmail(app.db, input.email);
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !valid) {
    await attempt.failed();
    throw fieldError('email', req.t('accountApi.failed'));
  }
  await attempt.succeeded();
  await startSession(app.db, req, reply, user.id, input.remember);
  return { user, dto: await toUserDto(app.db, user) };
}

/** Where the verification modal sends the user next, and the button that says so. */
export type AfterVerification = { redirect: string; next: 'createProfile' | 'dashboard' | 'login' };

/**
 * Follows a signed verification link: the address is verified (an unverified account becomes active) and, the first
 * time, the user is signed in, like a single-use magic link. A link followed again only says where to go.
 */
export async function verifyEmail(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  link: VerifyEmailLink,
): Promise<{ user: User; alreadyVerified: boolean } & AfterVerification> {
  const check = checkVerificationLink(app.config.appKey, link);
  if (check !== 'ok') throw forbidden(`accountApi.${check}`);
  const user = await findUserById(app.db, link.id);
  if (!user || emailHash(user.email) !== link.hash) throw forbidden('accountApi.invalid_signature');
  const alreadyVerified = !!user.emailVerifiedAt;
  let verified: UserRow = user;
  if (!alreadyVerified) {
    const [row] = await app.db
      .update(users)
      .set({ emailVerifiedAt: new Date(), status: user.status === 'unverified' ? 'active' : user.status, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    verified = row!;
    // The signed link proves the address: it logs the user in once, like a single-use magic link.
    await startSession(app.db, req, reply, user.id, false);
  }
  const dto = await toUserDto(app.db, verified);
  const profileRoute = dto.has_profile ? undefined : PROFILE_CREATE_ROUTES[verified.role];
  const loggedIn = !alreadyVerified || req.user?.id === user.id;
  const after: AfterVerification =
    profileRoute && loggedIn
      ? { redirect: profileRoute, next: 'createProfile' }
      : loggedIn
        ? { redirect: dashboardFor(verified.role), next: 'dashboard' }
        : { redirect: '/login', next: 'login' };
  return { user: dto, alreadyVerified, ...after };
}

/** Sends the verification link again, unless the address is verified already (then nothing is sent or counted). */
export async function resendVerification(
  app: FastifyInstance,
  user: SessionUser,
  throttle: () => Promise<void>,
): Promise<'alreadyVerified' | 'sent'> {
  if (user.emailVerifiedAt) return 'alreadyVerified';
  await throttle();
  await sendVerificationMail(app, user);
  return 'sent';
}

/** Mails a reset link when the address has an account (the caller answers alike when it has none). */
export async function sendPasswordReset(app: FastifyInstance, email: string): Promise<void> {
  const user = await findUserByEmail(app.db, email);
  if (user) await app.db.transaction(async (tx) => sendPasswordResetMail(app, user, await issueResetToken(tx, user.id), tx));
}

/**
 * Sets a new password with a reset token: the token is spent, the owner is told by mail, every other session ends
 * and this browser becomes a known device (the throttle forgets the guesses against the old password).
 */
export async function resetPassword(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; token: string; password: string },
): Promise<void> {
  const user = await findUserByEmail(app.db, input.email);
  const invalid = () => fieldError('email', req.t('accountApi.resetInvalid'));
  if (!user) throw invalid();
  const [token] = await app.db
    .select()
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(input.token)),
        eq(passwordResetTokens.userId, user.id),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    );
  if (!token) throw invalid();
  refuseCommon(req.t, input.password);
  const passwordHash = await hashPassword(input.password);
  await app.db.transaction(async (tx) => {
    if (!(await consumeResetTokens(tx, user.id, token.id))) throw invalid();
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await sendPasswordChangedMail(app, user, tx);
  });
  await endOtherSessions(app.db, user.id, undefined);
  await afterPasswordReset(app, req, reply, user.email);
}

/** The password typed again: the session may do sensitive things for a while (plugins/session.ts). */
export async function confirmPassword(app: FastifyInstance, user: UserRow, sessionIdHash: string, password: string, t: T): Promise<void> {
  if (!(await verifyPassword(user.passwordHash, password))) throw fieldError('password', t('accountApi.wrongPassword'));
  await app.db.update(sessions).set({ passwordConfirmedAt: new Date() }).where(eq(sessions.idHash, sessionIdHash));
}

/** A new password, the current one given: the other sessions end and this one starts afresh. */
export async function updatePassword(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  input: { current_password: string; password: string },
): Promise<void> {
  if (!(await verifyPassword(user.passwordHash, input.current_password)))
    throw fieldError('current_password', req.t('accountApi.wrongPassword'));
  refuseCommon(req.t, input.password);
  await changePassword(app, user, await hashPassword(input.password), req.session?.idHash);
  await startSession(app.db, req, reply, user.id, req.session?.remember ?? false);
}

/** The name and address; a new address must be free and is verified again (account-changes.ts). */
export async function updateProfileInformation(
  app: FastifyInstance,
  user: UserRow,
  input: { name: string; email: string },
  t: T,
): Promise<{ user: User; emailChanged: boolean }> {
  if (input.email !== user.email.toLowerCase()) {
    const taken = await findUserByEmail(app.db, input.email);
    if (taken && taken.id !== user.id) throw fieldError('email', t('validation.email_taken'));
  }
  const { user: updated, emailChanged } = await changeProfileInformation(app, user, input);
  return { user: await toUserDto(app.db, updated), emailChanged };
}
