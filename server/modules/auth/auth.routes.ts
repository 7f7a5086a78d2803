/**
 * Accounts (SPEC §7 plus the Laravel Fortify/Sanctum paths old clients use): register, verify e-mail, log in
 * and out, current user, forgot/reset password, confirm password, change password and profile information,
 * create admins. Every answer is the envelope; every input is validated by contract/auth; the services are in
 * accounts.ts. Deleting an account is erasure (GDPR art. 17): modules/data-rights.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successSchema } from '#contract/answers.ts';
import {
  confirmPasswordSchema,
  createAdminSchema,
  currentUserAnswerSchema,
  dashboardFor,
  emailVerifiedAnswerSchema,
  forgotPasswordSchema,
  loggedInAnswerSchema,
  loginSchema,
  passwordConfirmedStatusSchema,
  profileInformationSchema,
  publicistRegisterSchema,
  registeredAnswerSchema,
  registerSchema,
  resetPasswordSchema,
  sessionAnswerSchema,
  updatePasswordSchema,
  userChangedAnswerSchema,
  verificationSentAnswerSchema,
  verifyEmailSchema,
} from '#contract/auth.ts';
import { API } from '#contract/routes.ts';
import { ACCOUNT_SUSPENDED_PATH } from '#contract/statements.ts';
import { ok } from '../../answers.ts';
import { endSession, passwordRecentlyConfirmed, requireRole, requireUser } from '../../plugins/session.ts';
import {
  confirmPassword,
  createAdmin,
  logIn,
  registerAccount,
  resendVerification,
  resetPassword,
  sendPasswordReset,
  updatePassword,
  updateProfileInformation,
  verifyEmail,
} from './accounts.ts';
import { consume } from './auth.limits.ts';
import { emailClientKey } from './login-throttle.ts';
import { toUserDto } from './users.repository.ts';

const SIGNED_IN = { auth: true as const };

async function register(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, input: Parameters<typeof registerAccount>[1]) {
  await consume(app.authLimits.register, req.ip, reply);
  await registerAccount(app, input, { language: req.lang, t: req.t, log: req.log });
  // Same answer whether or not the address was taken.
  return reply
    .status(201)
    .send({ ...ok(req, 'accountApi.registered'), description: req.t('accountApi.registeredDescription', { email: input.email }) });
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const registered = { 201: registeredAnswerSchema };
  app.post(API.userCreate, { schema: { body: registerSchema, response: registered } }, (req, reply) => register(app, req, reply, req.body));
  app.post(API.register, { schema: { body: registerSchema, response: registered } }, (req, reply) => register(app, req, reply, req.body));
  app.post(API.publicistCreate, { schema: { body: publicistRegisterSchema, response: registered } }, (req, reply) =>
    register(app, req, reply, { ...req.body, role: 'publicist' }),
  );

  app.post(
    API.adminCreate,
    { schema: { body: createAdminSchema, response: { 201: userChangedAnswerSchema } }, config: { auth: { roles: ['super_admin'] } } },
    async (req, reply) => {
      const actor = requireRole(req, 'super_admin');
      const user = await createAdmin(app, actor, req.body, { language: req.lang, t: req.t, ip: req.ip });
      return reply.status(201).send(ok(req, 'accountApi.adminCreated', { user }));
    },
  );

  app.post(API.login, { schema: { body: loginSchema, response: { 200: loggedInAnswerSchema } } }, async (req, reply) => {
    const { user, dto } = await logIn(app, req, reply, req.body);
    // A suspended account signs in to its restricted view only (plugins/session.ts): it can read and appeal its statements.
    if (user.status === 'suspended')
      return { ...ok(req, 'accountApi.loggedInSuspended', { user: dto }, { redirect: ACCOUNT_SUSPENDED_PATH }), type: 'warning' as const };
    return ok(req, 'accountApi.loggedIn', { user: dto }, { redirect: dashboardFor(user.role) });
  });

  app.post(API.logout, { schema: { response: { 200: successSchema } } }, async (req, reply) => {
    await endSession(app.db, req, reply);
    return ok(req, 'accountApi.loggedOut', undefined, { redirect: '/' });
  });

  app.get(API.user, { schema: { response: { 200: currentUserAnswerSchema } } }, async (req) => ({
    data: await toUserDto(app.db, requireUser(req)),
  }));

  // The PWA's session probe: a visitor is an answer (null), not a 401 the browser logs as an error on every page.
  app.get(API.session, { schema: { response: { 200: sessionAnswerSchema } } }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { data: req.user ? await toUserDto(app.db, req.user) : null };
  });

  // The payload is empty by contract (SPEC §7); whatever is sent is ignored.
  app.post(API.sendVerification, { schema: { response: { 200: verificationSentAnswerSchema } }, config: SIGNED_IN }, async (req, reply) => {
    const user = requireUser(req);
    const outcome = await resendVerification(app, user, async () => {
      await consume(app.authLimits.mailPerIp, req.ip, reply);
      await consume(app.authLimits.mailPerAddress, user.email.toLowerCase(), reply);
    });
    if (outcome === 'alreadyVerified') return { ...ok(req, 'accountApi.alreadyVerified'), type: 'info' as const };
    return {
      ...ok(req, 'accountApi.verificationSent'),
      description: req.t('accountApi.verificationSentDescription', { email: user.email }),
    };
  });

  app.post(API.verifyEmail, { schema: { body: verifyEmailSchema, response: { 200: emailVerifiedAnswerSchema } } }, async (req, reply) => {
    const { user, alreadyVerified, redirect, next } = await verifyEmail(app, req, reply, req.body);
    const okText = { createProfile: 'notices.createProfile', dashboard: 'accountApi.goToDashboard', login: 'accountApi.goToLogin' }[next];
    return {
      channel: 'modal' as const,
      type: 'success' as const,
      message: req.t('notices.emailVerifiedTitle'),
      description: req.t(alreadyVerified ? 'accountApi.alreadyVerified' : 'notices.emailVerifiedText'),
      okText: req.t(okText),
      redirect,
      verified: true as const,
      user,
    };
  });

  app.post(API.forgotPassword, { schema: { body: forgotPasswordSchema, response: { 200: successSchema } } }, async (req, reply) => {
    // Limited before the lookup, so a known and an unknown address answer alike.
    await consume(app.authLimits.mailPerIp, req.ip, reply);
    await consume(app.authLimits.mailPerAddress, req.body.email, reply);
    await consume(app.authLimits.mailPerAddressHourly, req.body.email, reply);
    await sendPasswordReset(app, req.body.email);
    return ok(req, 'accountApi.resetLinkSent');
  });

  app.post(API.resetPassword, { schema: { body: resetPasswordSchema, response: { 200: successSchema } } }, async (req, reply) => {
    await consume(app.authLimits.login, emailClientKey(req.body.email, req.ip), reply);
    await resetPassword(app, req, reply, req.body);
    return ok(req, 'accountApi.passwordReset', undefined, { redirect: '/login' });
  });

  app.post(
    API.confirmPassword,
    { config: SIGNED_IN, schema: { body: confirmPasswordSchema, response: { 201: successSchema } } },
    async (req, reply) => {
      const user = requireUser(req);
      await consume(app.authLimits.confirmPassword, String(user.id), reply);
      await confirmPassword(app, user, req.session!.idHash, req.body.password, req.t);
      return reply.status(201).send(ok(req, 'accountApi.passwordConfirmed'));
    },
  );

  app.get(API.confirmedPasswordStatus, { config: SIGNED_IN, schema: { response: { 200: passwordConfirmedStatusSchema } } }, async (req) => {
    requireUser(req);
    return { confirmed: passwordRecentlyConfirmed(req) };
  });

  app.put(
    API.userPassword,
    { config: SIGNED_IN, schema: { body: updatePasswordSchema, response: { 200: successSchema } } },
    async (req, reply) => {
      const user = requireUser(req);
      await consume(app.authLimits.confirmPassword, String(user.id), reply);
      await updatePassword(app, req, reply, user, req.body);
      return ok(req, 'notices.updated');
    },
  );

  app.put(
    API.userProfileInformation,
    { config: SIGNED_IN, schema: { body: profileInformationSchema, response: { 200: userChangedAnswerSchema } } },
    async (req) => {
      const { user, emailChanged } = await updateProfileInformation(app, requireUser(req), req.body, req.t);
      return ok(req, emailChanged ? 'accountApi.emailChanged' : 'notices.profileUpdated', { user });
    },
  );
};
