/**
 * Sessions: a random 256-bit token in the HttpOnly, SameSite=Lax cookie `vitrina_session` (Secure behind
 * HTTPS); only its SHA-256 is stored. Sessions slide: 2 hours idle, or 30 days with "remember me". Login
 * rotates the token (and the CSRF token); logout ends it; a password change ends the user's other sessions.
 */
import crypto from 'node:crypto';
import { API_PREFIX, BROADCASTING_PREFIX, SANCTUM_PREFIX } from '#contract/routes.ts';
import { and, eq, gt, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '#contract/auth.ts';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { accountSuspended, emailUnverified, forbidden, unauthenticated } from '../errors.ts';
import { SESSION_COOKIE } from './cookies.ts';
import { issueCsrfToken } from './security.ts';
import { suspendedMayCall } from './suspended-access.ts';

export { SESSION_COOKIE };
const IDLE_MS = 2 * 60 * 60 * 1000;
const REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
/** How long a password confirmation lasts (Fortify's default: 3 hours). */
export const PASSWORD_CONFIRMATION_MS = 3 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

interface SessionState {
  idHash: string;
  remember: boolean;
  passwordConfirmedAt: Date | null;
}

/** Declared on a route (`config: { auth: … }`) and checked before its input is validated. */
export type AuthRule = true | { roles?: Role[]; verified?: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    session: SessionState | null;
  }
  interface FastifyContextConfig {
    auth?: AuthRule;
  }
}

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

function cookieOptions(secure: boolean, maxAgeMs?: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, ...(maxAgeMs ? { maxAge: Math.floor(maxAgeMs / 1000) } : {}) };
}

export async function startSession(db: Db, req: FastifyRequest, reply: FastifyReply, userId: number, remember: boolean): Promise<void> {
  if (req.session) await db.delete(sessions).where(eq(sessions.idHash, req.session.idHash));
  const token = crypto.randomBytes(32).toString('base64url');
  const idHash = hashToken(token);
  const ttl = remember ? REMEMBER_MS : IDLE_MS;
  await db.insert(sessions).values({
    idHash,
    userId,
    remember,
    ip: req.ip?.slice(0, 64) ?? null,
    userAgent: req.headers['user-agent']?.slice(0, 255) ?? null,
    expiresAt: new Date(Date.now() + ttl),
  });
  const secure = req.server.config.secureCookies;
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(secure, remember ? REMEMBER_MS : undefined));
  issueCsrfToken(req, reply, token);
  req.session = { idHash, remember, passwordConfirmedAt: null };
}

export async function endSession(db: Db, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.session) await db.delete(sessions).where(eq(sessions.idHash, req.session.idHash));
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  issueCsrfToken(req, reply, undefined);
  req.session = null;
  req.user = null;
}

export async function endOtherSessions(db: Db, userId: number, keepIdHash: string | undefined): Promise<void> {
  await db
    .delete(sessions)
    .where(keepIdHash ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)) : eq(sessions.userId, userId));
}

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthenticated();
  return req.user;
}

export function requireRole(req: FastifyRequest, ...roles: Role[]): SessionUser {
  const user = requireUser(req);
  if (!roles.includes(user.role)) throw forbidden();
  return user;
}

/** Publishing and profile creation need a verified e-mail address. */
export function requireVerified(req: FastifyRequest): SessionUser {
  const user = requireUser(req);
  if (!user.emailVerifiedAt) throw emailUnverified();
  return user;
}

export function passwordRecentlyConfirmed(req: FastifyRequest): boolean {
  const at = req.session?.passwordConfirmedAt;
  return !!at && Date.now() - at.getTime() < PASSWORD_CONFIRMATION_MS;
}

/**
 * Loads the session's user into `req.user` (and slides the session). Runs by itself for /api, /broadcasting and
 * /sanctum; other routes that care who is asking (private photos under /media) call it themselves, so a request for
 * a public file costs no session lookup.
 */
/**
 * Who a page request's session names, read only: no cookie is cleared or issued and the session is not slid, so a page
 * answer never sets a cookie (first-screen.test.ts). For counting only (spa.ts: an owner's own page load is not an open).
 */
export async function peekSessionUser(app: FastifyInstance, req: FastifyRequest): Promise<FastifyRequest['user']> {
  const token = req.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return null;
  const [row] = await app.db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, hashToken(token)), gt(sessions.expiresAt, new Date())));
  return row?.user ?? null;
}

export async function authenticate(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.session) return;
  const token = req.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return;
  const idHash = hashToken(token);
  const now = new Date();
  const [row] = await app.db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)));
  if (!row) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    // The browser's CSRF token was bound to the session that just ended: left as it is, the next write (the sign-in
    // that follows) would be refused with 419 first and retried, a red console line on every return after expiry.
    issueCsrfToken(req, reply, undefined);
    return;
  }
  req.user = row.user;
  req.session = { idHash, remember: row.session.remember, passwordConfirmedAt: row.session.passwordConfirmedAt };
  if (now.getTime() - row.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const ttl = row.session.remember ? REMEMBER_MS : IDLE_MS;
    await app.db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + ttl) })
      .where(eq(sessions.idHash, idHash));
  }
}

export default fp(async (app) => {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  // Who may call a route is decided before what they sent is looked at: a visitor gets 401, not a 422.
  app.addHook('preValidation', async (req) => {
    const rule = req.routeOptions.config.auth;
    if (!rule) return;
    const user = requireUser(req);
    if (rule === true) return;
    if (rule.roles && !rule.roles.includes(user.role)) throw forbidden();
    if (rule.verified) requireVerified(req);
  });
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url;
    if (!url.startsWith(API_PREFIX) && !url.startsWith(BROADCASTING_PREFIX) && !url.startsWith(SANCTUM_PREFIX)) return;
    await authenticate(app, req, reply);
    // A suspended account is signed in to its restricted view: statements, appeal, its data, support, public reads.
    if (req.user?.status === 'suspended' && !suspendedMayCall(req.method, req.routeOptions.url, !req.routeOptions.config.auth)) {
      throw accountSuspended('accountApi.suspendedRestricted');
    }
  });
});
