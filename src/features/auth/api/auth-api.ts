/** The account calls of the auth screens (SPEC §7). Bodies are the contract's schema outputs. */
import type { z } from 'zod';
import { API } from '#contract/routes.ts';
import type { Answer } from '#contract/answers.ts';
import type { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema, User, verifyEmailSchema } from '#contract/auth.ts';
import { apiRequest } from '#src/lib/api-client.ts';

/** The login answer: the envelope plus the user (in `data.user`) and the dashboard in `redirect`. */
export type LoginAnswer = Answer & { data?: { user?: User } };

/**
 * The verification answer: a modal envelope plus `verified` and `user` (with at least the role). The notes
 * put them at the top level; `data` is read too in case the server nests them.
 */
export type VerifyAnswer = Answer & {
  verified?: boolean;
  user?: Partial<User>;
  data?: { verified?: boolean; user?: Partial<User> };
};

const post = <T = Answer>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body });

export const registerUser = (body: z.output<typeof registerSchema>) => post(API.userCreate, body);
export const login = (body: z.output<typeof loginSchema>) => post<LoginAnswer>(API.login, body);
export const verifyEmail = (body: z.output<typeof verifyEmailSchema>) => post<VerifyAnswer>(API.verifyEmail, body);
export const forgotPassword = (body: z.output<typeof forgotPasswordSchema>) => post(API.forgotPassword, body);
export const resetPassword = (body: z.output<typeof resetPasswordSchema>) => post(API.resetPassword, body);
