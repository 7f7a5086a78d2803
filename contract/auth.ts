import { z } from 'zod';
import { dataOf, successOf, successSchema } from './answers.ts';
import { deviceFavouritesSchema } from './favourites.ts';
import { idField, intParam } from './params.ts';
import { STATUSES } from './statuses.ts';

export * from './roles.ts';
import { PASSWORD_MAX, PASSWORD_MIN, REGISTRABLE_ROLES, ROLES } from './roles.ts';

const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((v) => v.toLowerCase());
const name = z.string().trim().min(1).max(120);
/** Length only (NIST 800-63B): no composition rules. The server also refuses the most common passwords. */
export const passwordSchema = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

function confirmed<T extends { password: string; password_confirmation: string }>(v: T, ctx: z.RefinementCtx) {
  if (v.password !== v.password_confirmation) {
    ctx.addIssue({
      code: 'custom',
      path: ['password_confirmation'],
      message: 'confirmation',
      params: { key: 'validation.password_confirmation' },
    });
  }
}

export const registerSchema = z
  .object({
    name,
    email,
    password: passwordSchema,
    password_confirmation: z.string().max(PASSWORD_MAX),
    role: z.enum(REGISTRABLE_ROLES),
    /** The visitor's device favourites (issue 28): kept by the new account even when the link is opened on another device. */
    favourites: deviceFavouritesSchema.optional(),
  })
  .superRefine(confirmed);
export type RegisterInput = z.input<typeof registerSchema>;

export const publicistRegisterSchema = z
  .object({ name, email, password: passwordSchema, password_confirmation: z.string().max(PASSWORD_MAX) })
  .superRefine(confirmed);
export const createAdminSchema = publicistRegisterSchema;

export const loginSchema = z.object({
  email,
  password: z.string().min(1).max(PASSWORD_MAX),
  remember: z.boolean().optional().default(false),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email });
export const resetPasswordSchema = z
  .object({ token: z.string().min(10).max(200), email, password: passwordSchema, password_confirmation: z.string().max(PASSWORD_MAX) })
  .superRefine(confirmed);
export const confirmPasswordSchema = z.object({ password: z.string().min(1).max(PASSWORD_MAX) });
export const updatePasswordSchema = z
  .object({
    current_password: z.string().min(1).max(PASSWORD_MAX),
    password: passwordSchema,
    password_confirmation: z.string().max(PASSWORD_MAX),
  })
  .superRefine(confirmed);
export const profileInformationSchema = z.object({ name, email });

/** The signed verification link's parameters, as the Verify screen posts them. */
export const verifyEmailSchema = z.object({
  id: idField,
  hash: z.string().regex(/^[a-f0-9]{40}$/),
  expires: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), intParam(1, Number.MAX_SAFE_INTEGER)]),
  signature: z.string().regex(/^[a-f0-9]{64}$/),
});
export type VerifyEmailInput = z.input<typeof verifyEmailSchema>;
export type VerifyEmailLink = z.output<typeof verifyEmailSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(STATUSES),
  email_verified_at: z.string().nullable(),
  locale: z.string(),
  has_profile: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

/* The accounts' answers, as the routes of server/modules/auth send them. */
/** The signed-in user (401 for a visitor)… */
export const currentUserAnswerSchema = dataOf(userSchema);
/** …and the session probe, where a visitor is `null`. */
export const sessionAnswerSchema = dataOf(userSchema.nullable());
/** Registering: the same toast whether or not the address was taken, the description naming the address. */
export const registeredAnswerSchema = successSchema.extend({ description: z.string() });
/** Signing in: a `warning` for a suspended account, which is sent to its restricted view. */
export const loggedInAnswerSchema = successOf(z.object({ user: userSchema })).extend({ type: z.enum(['success', 'warning']) });
/** An account created or changed, with the user as it is now. */
export const userChangedAnswerSchema = successOf(z.object({ user: userSchema }));
/** The verification mail sent again (`info` with no description when the address is verified already). */
export const verificationSentAnswerSchema = successSchema.extend({ type: z.enum(['success', 'info']), description: z.string().optional() });
/** The verification link followed: a modal saying where to go next. */
export const emailVerifiedAnswerSchema = z.object({
  channel: z.literal('modal'),
  type: z.literal('success'),
  message: z.string(),
  description: z.string(),
  okText: z.string(),
  redirect: z.string(),
  verified: z.literal(true),
  user: userSchema,
});
export const passwordConfirmedStatusSchema = z.object({ confirmed: z.boolean() });

/** Minimal profiles created right after verification (the full model form comes with the publish issue). */
export const modelProfileCreateSchema = z.object({ display_name: z.string().trim().min(2).max(60) });
export const publicistProfileCreateSchema = z.object({ display_name: z.string().trim().min(2).max(120) });
