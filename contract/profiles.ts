import { isValidPhoneNumber, parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js/min';
import { z } from 'zod';
import { dataOf, successOf, successSchema } from './answers.ts';
import { idParam } from './params.ts';
import { SECTION_SLUGS } from './section-slugs.ts';
import { STATUSES } from './statuses.ts';

/**
 * A model's profile with its ad (Profile/Model Create and Update). The browser validates each step of the
 * multi-step form with the step's schema below; the server validates the whole body with the same rules, so
 * both word a mistake the same way (contract/validation-messages.ts).
 */

export const MIN_AGE = 18;
export const MAX_AGE = 99;

/** Whole years between a YYYY-MM-DD birth date and `today` (UTC calendar dates, no time-zone drift). */
export function ageOn(birthDate: string, today: Date = new Date()): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const month = today.getUTCMonth() + 1;
  if (month < m || (month === m && today.getUTCDate() < d)) age--;
  return age;
}

function isRealDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const birthDate = z
  .string()
  .min(1)
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isRealDate, { params: { key: 'validation.date' } })
  .refine((v) => !isRealDate(v) || ageOn(v) >= MIN_AGE, { params: { key: 'profiles.validation.adult' } })
  .refine((v) => !isRealDate(v) || ageOn(v) <= MAX_AGE, { params: { key: 'validation.date' } });

const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .transform((v) => v as CountryCode);

export const personalStepSchema = z.object({
  display_name: z.string().trim().min(2).max(60),
  birth_date: birthDate,
});

/**
 * The phone is checked against the chosen country's numbering plan (libphonenumber-js) and stored in E.164,
 * so "612 34 56 78" with ES and "+34612345678" are the same number.
 */
export const contactStepSchema = z
  .object({
    phone_country: countryCode,
    phone: z.string().trim().min(4).max(32),
    whatsapp: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (!isValidPhoneNumber(v.phone, v.phone_country)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], params: { key: 'profiles.validation.phone' } });
    }
  })
  .transform((v) => ({ ...v, phone: normalisePhone(v.phone, v.phone_country) }));

/** E.164 form of a number already known to be valid for `country`. */
export function normalisePhone(phone: string, country: CountryCode): string {
  try {
    return parsePhoneNumberWithError(phone, country).number;
  } catch {
    return phone;
  }
}

const id = z.number().int().positive().max(2_147_483_647);

/** Country, province and city come from the reference endpoints; the server checks they belong together. */
export const locationStepSchema = z.object({ country_id: id, state_id: id, city_id: id });

export const adStepSchema = z.object({
  section: z.enum(SECTION_SLUGS),
  title: z.string().trim().min(5).max(80),
  description: z.string().trim().min(30).max(3000),
});

export const modelWithAdSchema = z
  .object({ ...personalStepSchema.shape, ...locationStepSchema.shape, ...adStepSchema.shape })
  .and(contactStepSchema);
export type ModelWithAdInput = z.input<typeof modelWithAdSchema>;
export type ModelWithAd = z.output<typeof modelWithAdSchema>;

/** Updates carry the version they were based on: a stale one answers 409 with the current record. */
export const modelWithAdUpdateSchema = modelWithAdSchema.and(z.object({ version: z.number().int().positive() }));
export type ModelWithAdUpdateInput = z.input<typeof modelWithAdUpdateSchema>;

/** The fields the form edits, in the order the steps show them (also the conflict view's order). */
export const MODEL_WITH_AD_FIELDS = [
  'display_name',
  'birth_date',
  'phone_country',
  'phone',
  'whatsapp',
  'country_id',
  'state_id',
  'city_id',
  'section',
  'title',
  'description',
] as const satisfies readonly (keyof ModelWithAdInput)[];

export const adSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  section: z.enum(SECTION_SLUGS),
  city_id: z.number().int(),
  city: z.string(),
  state_id: z.number().int(),
  state: z.string(),
  is_active: z.boolean(),
  is_listed: z.boolean(),
  status: z.enum(STATUSES),
  version: z.number().int(),
  photos: z.number().int(),
  url: z.string(),
});
export type AdSummary = z.infer<typeof adSummarySchema>;

/** GET /api/profile/model: the signed-in model's profile, its ad (if any) and what the status card needs (null: none yet). */
export const modelProfileSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  birth_date: z.string().nullable(),
  phone_country: z.string().nullable(),
  phone: z.string().nullable(),
  whatsapp: z.boolean(),
  country_id: z.number().int().nullable(),
  status: z.enum(STATUSES),
  reasons: z.object({ codes: z.array(z.string()), text: z.string().optional() }).nullable(),
  version: z.number().int(),
  /** null for a publicist's model without an account of its own. */
  user: z.object({ id: z.number().int() }).nullable(),
  publicist_id: z.number().int().nullable(),
  consent_status: z.enum(['not_required', 'pending', 'given', 'withdrawn']),
  ad: adSummarySchema.nullable(),
});
export type ModelProfile = z.infer<typeof modelProfileSchema>;
/**
 * `data` is null for a model who has no profile yet: a normal state, not an error (a 404 here was logged as a console
 * error on every page the new model opened).
 */
export const modelProfileResponseSchema = z.object({ data: modelProfileSchema.nullable() });

/** Creating (201) or saving (200) the profile with its ad answers the record as it now is. */
export const modelProfileAnswerSchema = successOf(modelProfileSchema);
/** POST /api/profile/create (the minimal profile made after sign-up): its id, and back to /login. */
export const profileCreatedAnswerSchema = successOf(z.object({ id: z.number().int() }));
/** Switching an ad on or off answers the ad. */
export const adAnswerSchema = successOf(adSummarySchema);
/** POST /api/ad/create answers the new ad, its public URL also at the top (the old app read it there). */
export const adCreatedAnswerSchema = adAnswerSchema.extend({ url: z.string() });
/** Deleting an ad answers a toast and nothing else. */
export const adDeletedAnswerSchema = successSchema;

/** PUT /api/profile/model/activate/{id}/{value}: value 1/0 or true/false (the old app sent both). */
export const activateParamsSchema = z.object({
  id: idParam,
  value: z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
});

/** POST /api/ad/create: a further ad for the signed-in model's profile. */
export const adCreateSchema = z.object({ ...locationStepSchema.shape, ...adStepSchema.shape });

/** Profile/Model Verify: how long the code shown on screen stays valid. */
export const VERIFICATION_CODE_TTL_MINUTES = 30;

export const verificationCodeAnswerSchema = dataOf(z.object({ code: z.string(), expires_at: z.string() }));
export type VerificationCode = z.infer<typeof verificationCodeAnswerSchema>['data'];

export const VERIFICATION_STATUSES = ['awaiting_photo', 'pending', 'approved', 'rejected'] as const;
export const verificationStateSchema = z.object({
  data: z.object({
    profile_status: z.enum(STATUSES),
    request: z
      .object({
        status: z.enum(VERIFICATION_STATUSES),
        submitted_at: z.string().nullable(),
        decided_at: z.string().nullable(),
        reasons: z.object({ codes: z.array(z.string()), text: z.string().optional() }).nullable(),
      })
      .nullable(),
  }),
});
export type VerificationState = z.infer<typeof verificationStateSchema>['data'];

/** POST /api/profile/model/verification (multipart `photo` + `code`): the request now waits for staff. */
export const verificationSubmittedSchema = successOf(z.object({ status: z.literal('pending') }));
