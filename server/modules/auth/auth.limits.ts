/**
 * Brute-force and abuse limits of the account routes (rate-limiter-flexible, in memory per process; a
 * multi-node deployment swaps in its Redis or Postgres store with the same API).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors.ts';

export function createAuthLimits(registerPerHour: number) {
  return {
    /** 5 login attempts a minute per e-mail and IP. */
    login: new RateLimiterMemory({ keyPrefix: 'login', points: 5, duration: 60 }),
    /** One forgot-password or resend a minute per e-mail address… */
    mailPerAddress: new RateLimiterMemory({ keyPrefix: 'mail-address', points: 1, duration: 60 }),
    /** …and a broader limit per IP, so one client cannot spray many addresses. */
    mailPerIp: new RateLimiterMemory({ keyPrefix: 'mail-ip', points: 10, duration: 60 * 10 }),
    register: new RateLimiterMemory({ keyPrefix: 'register', points: registerPerHour, duration: 60 * 60 }),
    confirmPassword: new RateLimiterMemory({ keyPrefix: 'confirm', points: 5, duration: 60 }),
  };
}
export type AuthLimits = ReturnType<typeof createAuthLimits>;

/** Consumes one point or answers 429 with Retry-After. */
export async function consume(limiter: RateLimiterMemory, key: string, reply: FastifyReply): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      reply.header('retry-after', Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      throw new AppError(429, 'too_many_requests');
    }
    throw err;
  }
}
