/**
 * The account calls of the auth screens (SPEC §7). Bodies are the contract's schema outputs and answers the types of
 * the schemas the server's routes declare, so the screens read only what the server is bound to send.
 */
import type { z } from 'zod';
import { API } from '#contract/routes.ts';
import type { successSchema } from '#contract/answers.ts';
import type {
  emailVerifiedAnswerSchema,
  forgotPasswordSchema,
  loggedInAnswerSchema,
  loginSchema,
  registeredAnswerSchema,
  registerSchema,
  resetPasswordSchema,
  verifyEmailSchema,
} from '#contract/auth.ts';
import { apiRequest } from '#src/lib/api-client.ts';

/** The login answer: the envelope plus the user (in `data.user`); a suspended account gets a `warning`. */
export type LoginAnswer = z.infer<typeof loggedInAnswerSchema>;

/** The verification answer: the modal envelope, where to go next, and the user now signed in. */
export type VerifyAnswer = z.infer<typeof emailVerifiedAnswerSchema>;

type Success = z.infer<typeof successSchema>;

const post = <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'POST', body });

export const registerUser = (body: z.output<typeof registerSchema>) => post<z.infer<typeof registeredAnswerSchema>>(API.userCreate, body);
export const login = (body: z.output<typeof loginSchema>) => post<LoginAnswer>(API.login, body);
export const verifyEmail = (body: z.output<typeof verifyEmailSchema>) => post<VerifyAnswer>(API.verifyEmail, body);
export const forgotPassword = (body: z.output<typeof forgotPasswordSchema>) => post<Success>(API.forgotPassword, body);
export const resetPassword = (body: z.output<typeof resetPasswordSchema>) => post<Success>(API.resetPassword, body);
