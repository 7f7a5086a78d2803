/**
 * Accounts (SPEC §7 plus the Laravel Fortify/Sanctum paths old clients use): register, verify e-mail, log in
 * and out, current user, forgot/reset password, confirm password, change password and profile information,
 * delete an account, create admins. Every answer is the envelope; every input is validated by contract/auth.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmPasswordSchema,
  createAdminSchema,
  dashboardFor,
  forgotPasswordSchema,
  loginSchema,
  PROFILE_CREATE_ROUTES,
  profileInformationSchema,
  publicistRegisterSchema,
  registerSchema,
  resetPasswordSchema,
  updatePasswordSchema,
  verifyEmailSchema,
  type Role,
} from '#contract/auth.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { ACCOUNT_SUSPENDED_PATH } from '#contract/statements.ts';
import { API } from '#contract/routes.ts';
import type { Answer } from '#contract/answers.ts';
import { passwordResetTokens, sessions, users } from '../../db/schema.ts';
import { forbidden, notFound, passwordConfirmationRequired, validationFailed } from '../../errors.ts';
import {
  endOtherSessions,
  endSession,
  hashToken,
  passwordRecentlyConfirmed,
  requireRole,
  requireUser,
  startSession,
} from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { eraseAccount, removeErasedFiles } from '../data-rights/erasure.ts';
import { changePassword, changeProfileInformation } from './account-changes.ts';
import { consume } from './auth.limits.ts';
import { afterPasswordReset, beginLogin, emailClientKey } from './login-throttle.ts';
import { sendAlreadyRegisteredMail, sendPasswordChangedMail, sendPasswordResetMail, sendVerificationMail } from './auth.mails.ts';
import { dummyPasswordHash, hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { checkVerificationLink, emailHash } from './signed-links.ts';
import { consumeResetTokens, findUserByEmail, findUserById, issueResetToken, toUserDto, type UserRow } from './users.repository.ts';

/** A 422 with one field's message, as a form shows it under that field. */
function fieldError(field: string, key: string) {
  return (req: FastifyRequest) => validationFailed({ [field]: [req.t(key)] });
}

function refuseCommon(req: FastifyRequest, password: string) {
  if (isCommonPassword(password)) throw fieldError('password', 'validation.password_common')(req);
}

function ok(req: FastifyRequest, key: string, extra: Partial<Answer> & Record<string, unknown> = {}) {
  return { channel: 'notification' as const, type: 'success' as const, message: req.t(key), ...extra };
}

/** Queuing a mail (a row in the jobs table) that fails must not undo what the user did: log it and carry on. */
async function sendQuietly(app: FastifyInstance, req: FastifyRequest, send: () => Promise<void>) {
  try {
    await send();
  } catch (err) {
    req.log.error({ err }, 'mail delivery failed');
  }
}

async function register(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  input: { name: string; email: string; password: string; role: Role },
) {
  await consume(app.authLimits.register, req.ip, reply);
  refuseCommon(req, input.password);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(app.db, input.email);
  if (existing) {
    await sendQuietly(app, req, () => sendAlreadyRegisteredMail(app, existing));
  } else {
    // The account and its verification mail (a queued job) commit together.
    await app.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({ name: input.name, email: input.email, passwordHash, role: input.role, locale: req.lang, status: 'unverified' })
        .onConflictDoNothing()
        .returning();
      if (created) await sendVerificationMail(app, created, tx);
    });
  }
  // Same answer whether or not the address was taken.
  return reply
    .status(201)
    .send(ok(req, 'accountApi.registered', { description: req.t('accountApi.registeredDescription', { email: input.email }) }));
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(API.userCreate, { schema: { body: registerSchema } }, (req, reply) => register(app, req, reply, req.body));
  app.post(API.register, { schema: { body: registerSchema } }, (req, reply) => register(app, req, reply, req.body));
  app.post(API.publicistCreate, { schema: { body: publicistRegisterSchema } }, (req, reply) =>
    register(app, req, reply, { ...req.body, role: 'publicist' }),
  );

  app.post(API.adminCreate, { schema: { body: createAdminSchema }, config: { auth: { roles: ['super_admin'] } } }, async (req, reply) => {
    const actor = requireRole(req, 'super_admin');
    refuseCommon(req, req.body.password);
    if (await findUserByEmail(app.db, req.body.email)) throw fieldError('email', 'validation.email_taken')(req);
    const passwordHash = await hashPassword(req.body.password);
    const admin = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          name: req.body.name,
          email: req.body.email,
          passwordHash,
          role: 'admin',
          status: 'active',
          locale: req.lang,
          emailVerifiedAt: new Date(),
        })
        .returning();
      await recordAudit(tx, {
        actor,
        action: 'user.create_admin',
        subjectType: 'user',
        subjectId: row!.id,
        after: { name: row!.name, email: row!.email, role: row!.role },
        req,
      });
      return row;
    });
    return reply.status(201).send(ok(req, 'accountApi.adminCreated', { data: { user: await toUserDto(app.db, admin!) } }));
  });

  app.post(API.login, { schema: { body: loginSchema } }, async (req, reply) => {
    const { email, password, remember } = req.body;
    const attempt = await beginLogin(app, req, reply, email);
    const user = await findUserByEmail(app.db, email);
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
    if (!user || !valid) {
      await attempt.failed();
      throw fieldError('email', 'accountApi.failed')(req);
    }
    await attempt.succeeded();
    await startSession(app.db, req, reply, user.id, remember);
    // A suspended account signs in to its restricted view only (plugins/session.ts): it can read and appeal its statements.
    if (user.status === 'suspended') {
      return ok(req, 'accountApi.loggedInSuspended', {
        type: 'warning' as const,
        data: { user: await toUserDto(app.db, user) },
        redirect: ACCOUNT_SUSPENDED_PATH,
      });
    }
    return ok(req, 'accountApi.loggedIn', { data: { user: await toUserDto(app.db, user) }, redirect: dashboardFor(user.role) });
  });

  app.post(API.logout, async (req, reply) => {
    await endSession(app.db, req, reply);
    return ok(req, 'accountApi.loggedOut', { redirect: '/' });
  });

  app.get(API.user, async (req) => ({ data: await toUserDto(app.db, requireUser(req)) }));

  // The PWA's session probe: a visitor is an answer (null), not a 401 the browser logs as an error on every page.
  app.get(API.session, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { data: req.user ? await toUserDto(app.db, req.user) : null };
  });

  // The payload is empty by contract (SPEC §7); whatever is sent is ignored.
  app.post(API.sendVerification, { config: { auth: true } }, async (req, reply) => {
    const user = requireUser(req);
    if (user.emailVerifiedAt) return { ...ok(req, 'accountApi.alreadyVerified'), type: 'info' as const };
    await consume(app.authLimits.mailPerIp, req.ip, reply);
    await consume(app.authLimits.mailPerAddress, user.email.toLowerCase(), reply);
    await sendVerificationMail(app, user);
    return ok(req, 'accountApi.verificationSent', { description: req.t('accountApi.verificationSentDescription', { email: user.email }) });
  });

  app.post(API.verifyEmail, { schema: { body: verifyEmailSchema } }, async (req, reply) => {
    const check = checkVerificationLink(app.config.appKey, req.body);
    if (check !== 'ok') throw forbidden(`accountApi.${check}`);
    const user = await findUserById(app.db, req.body.id);
    if (!user || emailHash(user.email) !== req.body.hash) throw forbidden('accountApi.invalid_signature');
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
    const redirect = profileRoute && loggedIn ? profileRoute : loggedIn ? dashboardFor(verified.role) : '/login';
    return {
      channel: 'modal' as const,
      type: 'success' as const,
      message: req.t('notices.emailVerifiedTitle'),
      description: req.t(alreadyVerified ? 'accountApi.alreadyVerified' : 'notices.emailVerifiedText'),
      okText: req.t(profileRoute && loggedIn ? 'notices.createProfile' : loggedIn ? 'accountApi.goToDashboard' : 'accountApi.goToLogin'),
      redirect,
      verified: true,
      user: dto,
    };
  });

  app.post(API.forgotPassword, { schema: { body: forgotPasswordSchema } }, async (req, reply) => {
    // Limited before the lookup, so a known and an unknown address answer alike.
    await consume(app.authLimits.mailPerIp, req.ip, reply);
    await consume(app.authLimits.mailPerAddress, req.body.email, reply);
    await consume(app.authLimits.mailPerAddressHourly, req.body.email, reply);
    const user = await findUserByEmail(app.db, req.body.email);
    if (user) {
      await app.db.transaction(async (tx) => sendPasswordResetMail(app, user, await issueResetToken(tx, user.id), tx));
    }
    return ok(req, 'accountApi.resetLinkSent');
  });

  app.post(API.resetPassword, { schema: { body: resetPasswordSchema } }, async (req, reply) => {
    await consume(app.authLimits.login, emailClientKey(req.body.email, req.ip), reply);
    const user = await findUserByEmail(app.db, req.body.email);
    const invalid = fieldError('email', 'accountApi.resetInvalid');
    if (!user) throw invalid(req);
    const [token] = await app.db
      .select()
      .from(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(req.body.token)),
          eq(passwordResetTokens.userId, user.id),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      );
    if (!token) throw invalid(req);
    refuseCommon(req, req.body.password);
    const passwordHash = await hashPassword(req.body.password);
    await app.db.transaction(async (tx) => {
      if (!(await consumeResetTokens(tx, user.id, token.id))) throw invalid(req);
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
      await sendPasswordChangedMail(app, user, tx);
    });
    await endOtherSessions(app.db, user.id, undefined);
    await afterPasswordReset(app, req, reply, user.email);
    return ok(req, 'accountApi.passwordReset', { redirect: '/login' });
  });

  app.post(API.confirmPassword, { config: { auth: true }, schema: { body: confirmPasswordSchema } }, async (req, reply) => {
    const user = requireUser(req);
    await consume(app.authLimits.confirmPassword, String(user.id), reply);
    if (!(await verifyPassword(user.passwordHash, req.body.password))) throw fieldError('password', 'accountApi.wrongPassword')(req);
    await app.db.update(sessions).set({ passwordConfirmedAt: new Date() }).where(eq(sessions.idHash, req.session!.idHash));
    return reply.status(201).send(ok(req, 'accountApi.passwordConfirmed'));
  });

  app.get(API.confirmedPasswordStatus, { config: { auth: true } }, async (req) => {
    requireUser(req);
    return { confirmed: passwordRecentlyConfirmed(req) };
  });

  app.put(API.userPassword, { config: { auth: true }, schema: { body: updatePasswordSchema } }, async (req, reply) => {
    const user = requireUser(req);
    await consume(app.authLimits.confirmPassword, String(user.id), reply);
    if (!(await verifyPassword(user.passwordHash, req.body.current_password)))
      throw fieldError('current_password', 'accountApi.wrongPassword')(req);
    refuseCommon(req, req.body.password);
    await changePassword(app, user, await hashPassword(req.body.password), req.session?.idHash);
    await startSession(app.db, req, reply, user.id, req.session?.remember ?? false);
    return ok(req, 'notices.updated');
  });

  app.put(API.userProfileInformation, { config: { auth: true }, schema: { body: profileInformationSchema } }, async (req) => {
    const user = requireUser(req);
    if (req.body.email !== user.email.toLowerCase()) {
      const taken = await findUserByEmail(app.db, req.body.email);
      if (taken && taken.id !== user.id) throw fieldError('email', 'validation.email_taken')(req);
    }
    const { user: updated, emailChanged } = await changeProfileInformation(app, user, req.body);
    return ok(req, emailChanged ? 'accountApi.emailChanged' : 'notices.profileUpdated', {
      data: { user: await toUserDto(app.db, updated) },
    });
  });

  app.delete(API.accountDelete(':id'), { config: { auth: true }, schema: { params: idParamsSchema } }, async (req, reply) => {
    const actor = requireUser(req);
    const target = await findUserById(app.db, req.params.id);
    if (actor.id === req.params.id) {
      if (!passwordRecentlyConfirmed(req)) throw passwordConfirmationRequired();
      // Erasure (GDPR art. 17): every personal row and file, not only the account row (modules/data-rights).
      const erased = await app.db.transaction((tx) => eraseAccount(tx, actor.id));
      await removeErasedFiles(app.storage, erased, req.log);
      await app.broadcaster.terminateUserConnections(String(actor.id));
      await endSession(app.db, req, reply);
      return ok(req, 'accountApi.accountDeleted', { redirect: '/' });
    }
    const staff = actor.role === 'admin' || actor.role === 'super_admin';
    if (!staff) throw forbidden();
    if (!target) throw notFound();
    // Admins remove members; only a super admin removes an admin; nobody removes a super admin here.
    if (target.role === 'super_admin' || (target.role === 'admin' && actor.role !== 'super_admin')) throw forbidden();
    const erased = await app.db.transaction(async (tx) => {
      const result = await eraseAccount(tx, target.id);
      // The entry outlives the account: it says which account went and what it was, not who the person was.
      await recordAudit(tx, {
        actor,
        action: 'user.delete',
        subjectType: 'user',
        subjectId: target.id,
        before: { role: target.role, status: target.status },
        req,
      });
      return result;
    });
    await removeErasedFiles(app.storage, erased, req.log);
    await app.broadcaster.terminateUserConnections(String(target.id));
    return ok(req, 'accountApi.accountDeleted');
  });
};
