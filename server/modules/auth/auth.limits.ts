/**
 * Brute-force and abuse limits of the account routes (rate-limiter-flexible). Every limiter of the module is created
 * here through the app's limiter factory (plugins/limits.ts: shared through Redis when REDIS_URL is set, in memory
 * otherwise) and only used through the RateLimiterAbstract API (consume, get, penalty, block, delete).
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { type AppError, tooManyRequests } from '../../errors.ts';
import { memoryLimiter, type LimiterFactory } from '../../plugins/limits.ts';

/**
 * Sign-in throttling (OWASP Authentication and Credential Stuffing cheat sheets): a quick per e-mail + IP limit
 * as Laravel Fortify has, plus failure counters per account (guesses spread over many IPs) and per IP (one IP
 * spraying many accounts). Every lock ends on its own after `lockSeconds`; a known device passes the account
 * and IP locks (login-throttle.ts), so an attacker cannot keep the owner out.
 */
export interface LoginThrottleOptions {
  /** Sign-in tries a minute per e-mail and IP, whatever their outcome; a success resets it. */
  perEmailIp: number;
  /** Failed sign-ins on one account (any IP) within `windowSeconds` before the account is locked. */
  accountFailures: number;
  /** Failed sign-ins from one IP (any accounts) within `windowSeconds` before the IP is locked. */
  ipFailures: number;
  /** Failed sign-ins through one known-device cookie within `windowSeconds` before it stops passing locks. */
  deviceFailures: number;
  windowSeconds: number;
  /** How long a lock lasts once reached. */
  lockSeconds: number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleOptions = {
  perEmailIp: 5,
  accountFailures: 10,
  ipFailures: 30,
  deviceFailures: 10,
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
};

export interface AuthLimitOptions {
  registerPerHour: number;
  login?: Partial<LoginThrottleOptions>;
}

export function createAuthLimits({ registerPerHour, login: loginOverrides }: AuthLimitOptions, make: LimiterFactory = memoryLimiter) {
  const login = { ...LOGIN_THROTTLE_DEFAULTS, ...loginOverrides };
  const failures = (keyPrefix: string, points: number) => make({ keyPrefix, points, duration: login.windowSeconds });
  return {
    loginOptions: login,
    /** Sign-in and reset tries per e-mail and IP. */
    login: make({ keyPrefix: 'login', points: login.perEmailIp, duration: 60 }),
    /** Failed sign-ins per account (normalised e-mail, whether or not it exists: the answers stay alike). */
    loginFailuresPerAccount: failures('login-account', login.accountFailures),
    /** Failed sign-ins per IP, across accounts. */
    loginFailuresPerIp: failures('login-ip', login.ipFailures),
    /** Failed sign-ins per known-device cookie (OWASP "device cookie lockout"). */
    loginFailuresPerDevice: failures('login-device', login.deviceFailures),
    /** One forgot-password or resend a minute per e-mail address… */
    mailPerAddress: make({ keyPrefix: 'mail-address', points: 1, duration: 60 }),
    /** …at most 5 an hour, so an address cannot be mail-bombed a minute at a time… */
    mailPerAddressHourly: make({ keyPrefix: 'mail-address-hour', points: 5, duration: 60 * 60 }),
    /** …and a broader limit per IP, so one client cannot spray many addresses. */
    mailPerIp: make({ keyPrefix: 'mail-ip', points: 10, duration: 60 * 10 }),
    register: make({ keyPrefix: 'register', points: registerPerHour, duration: 60 * 60 }),
    confirmPassword: make({ keyPrefix: 'confirm', points: 5, duration: 60 }),
  };
}
export type AuthLimits = ReturnType<typeof createAuthLimits>;

declare module 'fastify' {
  interface FastifyInstance {
    authLimits: AuthLimits;
  }
}

/** The app's one set of auth limiters, decorated at the root so tests and a later shared store reach them. */
export const authLimitsPlugin = fp(
  async (app) => {
    app.decorate('authLimits', createAuthLimits({ registerPerHour: app.config.registerLimitPerHour }, app.limiter));
  },
  { name: 'auth-limits' },
);

/** The 429 with Retry-After and a message saying how many minutes to wait. */
export function tooManyAttempts(reply: FastifyReply, msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  reply.header('retry-after', seconds);
  return tooManyRequests('accountApi.tooManyAttempts', seconds, { count: Math.ceil(seconds / 60) });
}

/** Consumes one point or answers 429 with Retry-After. */
export async function consume(limiter: RateLimiterAbstract, key: string, reply: FastifyReply): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooManyAttempts(reply, err.msBeforeNext);
    throw err;
  }
}

/** Milliseconds left of the key's lock, 0 when it is not locked. Reading does not count. */
export async function lockedFor(limiter: RateLimiterAbstract, key: string): Promise<number> {
  const res = await limiter.get(key);
  return res && res.remainingPoints <= 0 ? Math.max(res.msBeforeNext, 1) : 0;
}

/** Counts one failure; the one that uses up the window's allowance locks the key for `lockSeconds` from now. */
export async function countFailure(limiter: RateLimiterAbstract, key: string, lockSeconds: number): Promise<void> {
  const res = await limiter.penalty(key);
  if (res.remainingPoints <= 0) await limiter.block(key, lockSeconds);
}
