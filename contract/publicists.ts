import { isValidPhoneNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { z } from 'zod';
import { intParam } from './params.ts';
import { dataOf, pageOf, successOf, successSchema } from './answers.ts';
import { adStepSchema, adSummarySchema, locationStepSchema, normalisePhone, personalStepSchema } from './profiles.ts';
import { STATUSES } from './statuses.ts';

/**
 * Publicists (agencies) and the models under their responsibility (issue 6). The publicist's profile carries the
 * trader details of EU DSA art. 30; a model created by a publicist is listed only after the model consents through a
 * one-time link sent to their contact (e-mail or phone).
 */

const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .transform((v) => v as CountryCode);

const phoneIssue = { code: 'custom' as const, path: ['phone'], params: { key: 'profiles.validation.phone' } };

/** Publicist profile: the agency's public name plus who is legally behind it. */
export const publicistProfileInputSchema = z
  .object({
    display_name: z.string().trim().min(2).max(120),
    legal_name: z.string().trim().min(2).max(160),
    tax_id: z
      .string()
      .trim()
      .min(4)
      .max(32)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 .\-/]*$/),
    address: z.string().trim().min(8).max(300),
    phone_country: countryCode,
    phone: z.string().trim().min(4).max(32),
    email: z.string().trim().toLowerCase().email().max(254),
  })
  .superRefine((v, ctx) => {
    if (!isValidPhoneNumber(v.phone, v.phone_country)) ctx.addIssue(phoneIssue);
  })
  .transform((v) => ({ ...v, tax_id: v.tax_id.toUpperCase(), phone: normalisePhone(v.phone, v.phone_country) }));
export type PublicistProfileInput = z.input<typeof publicistProfileInputSchema>;
export type PublicistProfileValues = z.output<typeof publicistProfileInputSchema>;

export const publicistProfileUpdateSchema = publicistProfileInputSchema.and(z.object({ version: z.number().int().positive() }));

export const PUBLICIST_PROFILE_FIELDS = ['display_name', 'legal_name', 'tax_id', 'address', 'phone_country', 'phone', 'email'] as const;

export const publicistProfileSchema = z.object({
  id: z.number().int(),
  display_name: z.string(),
  legal_name: z.string().nullable(),
  tax_id: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  phone_country: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(STATUSES),
  reasons: z.object({ codes: z.array(z.string()), text: z.string().optional() }).nullable(),
  version: z.number().int(),
  models: z.number().int(),
  user: z.object({ id: z.number().int() }),
});
export type PublicistProfile = z.infer<typeof publicistProfileSchema>;
/** GET /api/profile/publicist: the signed-in publicist's profile. */
export const publicistProfileReadSchema = dataOf(publicistProfileSchema);
/** Saving the trader details answers the profile as it now is. */
export const publicistProfileAnswerSchema = successOf(publicistProfileSchema);

/** The model's consent to be listed by the publicist. */
export const CONSENT_STATUSES = ['not_required', 'pending', 'given', 'withdrawn'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];
/** How long a consent link stays valid. */
export const CONSENT_TTL_DAYS = 7;
/** A publicist may re-send a model's consent request at most once per this many minutes. */
export const CONSENT_RESEND_MINUTES = 10;
/** Consent messages one model's contact may be sent in 24 hours, whatever triggered them (create, contact change, re-send). */
export const CONSENT_MESSAGES_PER_DAY = 5;
/**
 * Models an agency may add before staff approve it: every model sends a consent request to a contact the agency
 * typed, so an unvetted account must not be a way to message strangers in bulk.
 */
export const UNAPPROVED_AGENCY_MODEL_LIMIT = 10;

/**
 * A model under the publicist's responsibility with their ad. The consent request goes to the model's e-mail, which
 * is therefore required (issue 24 point 14: a phone-only request was never delivered, there is no SMS sending); the
 * phone is optional, the ad's contact number, and a phone without a country is refused.
 */
const modelFields = z.object({
  ...personalStepSchema.shape,
  ...locationStepSchema.shape,
  ...adStepSchema.shape,
  contact_email: z.union([z.literal(''), z.string().trim().toLowerCase().email().max(254)]).optional(),
  phone_country: z.union([z.literal(''), countryCode]).optional(),
  phone: z.string().trim().max(32).optional(),
  whatsapp: z.boolean().default(false),
});

function checkContact(
  v: { contact_email?: string | undefined; phone?: string | undefined; phone_country?: string | undefined },
  ctx: z.RefinementCtx,
) {
  const email = v.contact_email || '';
  const phone = v.phone || '';
  // A phone alone cannot carry the consent request: the message says so, whether or not a phone was given.
  if (!email) ctx.addIssue({ code: 'custom', path: ['contact_email'], params: { key: 'publicist.validation.contact' } });
  if (phone && (!v.phone_country || !isValidPhoneNumber(phone, v.phone_country as CountryCode))) ctx.addIssue(phoneIssue);
}

function normaliseContact<T extends { contact_email?: string | undefined; phone?: string | undefined; phone_country?: string | undefined }>(
  v: T,
) {
  const phone = v.phone ? normalisePhone(v.phone, v.phone_country as CountryCode) : null;
  return { ...v, contact_email: v.contact_email || null, phone, phone_country: phone ? (v.phone_country as string) : null };
}

export const publicistModelSchema = modelFields.superRefine(checkContact).transform(normaliseContact);
export type PublicistModelInput = z.input<typeof publicistModelSchema>;
export type PublicistModelValues = z.output<typeof publicistModelSchema>;

export const publicistModelUpdateSchema = modelFields
  .extend({ version: z.number().int().positive() })
  .superRefine(checkContact)
  .transform(normaliseContact);
export type PublicistModelUpdateInput = z.input<typeof publicistModelUpdateSchema>;

/** Several at once: all-or-nothing, errors named `models.{i}.{field}`. */
export const MAX_MODELS_PER_REQUEST = 10;
export const publicistModelsBulkSchema = z.object({ models: z.array(publicistModelSchema).min(1).max(MAX_MODELS_PER_REQUEST) });
export type PublicistModelsBulkInput = z.input<typeof publicistModelsBulkSchema>;

export const PUBLICIST_MODEL_FIELDS = [
  'display_name',
  'birth_date',
  'contact_email',
  'phone_country',
  'phone',
  'whatsapp',
  'country_id',
  'state_id',
  'city_id',
  'section',
  'title',
  'description',
] as const;

export const MODEL_SORTS = ['name', 'created', 'status'] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];

export const publicistModelsQuerySchema = z.object({
  search: z.string().trim().max(60).optional(),
  sort: z.enum(MODEL_SORTS).default('created'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  page: intParam(1, 10_000).default(1),
  per_page: intParam(1, 50).default(10),
});
export type PublicistModelsQuery = z.output<typeof publicistModelsQuerySchema>;

export const publicistModelSchemaOut = z.object({
  id: z.number().int(),
  display_name: z.string(),
  birth_date: z.string().nullable(),
  contact_email: z.string().nullable(),
  phone: z.string().nullable(),
  phone_country: z.string().nullable(),
  whatsapp: z.boolean(),
  country_id: z.number().int().nullable(),
  status: z.enum(STATUSES),
  reasons: z.object({ codes: z.array(z.string()), text: z.string().optional() }).nullable(),
  consent_status: z.enum(CONSENT_STATUSES),
  /** When the last consent request went out (null: never). */
  consent_requested_at: z.string().nullable(),
  version: z.number().int(),
  created_at: z.string(),
  ad: adSummarySchema.nullable(),
});
export type PublicistModel = z.infer<typeof publicistModelSchemaOut>;

export const publicistModelListSchema = pageOf(publicistModelSchemaOut);
export type PublicistModelList = z.infer<typeof publicistModelListSchema>;
/** GET /api/publicist/model/{id}: one managed model. */
export const publicistModelReadSchema = dataOf(publicistModelSchemaOut);
/** Creating (201), saving, switching its ad, deleting its ad or re-sending its consent request: the model as it now is. */
export const publicistModelAnswerSchema = successOf(publicistModelSchemaOut);
/** POST /api/publicist/models/create: the models created, all of them. */
export const publicistModelsAnswerSchema = successOf(z.array(publicistModelSchemaOut));
/** Deleting a model answers a toast and nothing else. */
export const publicistModelDeletedSchema = successSchema;

/** GET /api/consent/{token}: what the model is asked to agree to (no account needed). */
export const consentRequestSchema = z.object({
  data: z.object({
    state: z.enum(['pending', 'given', 'withdrawn', 'expired', 'used']),
    publicist: z.object({ display_name: z.string(), legal_name: z.string().nullable() }),
    model: z.object({ display_name: z.string() }),
    ad: z.object({ title: z.string(), description: z.string(), city: z.string(), section: z.string() }).nullable(),
    expires_at: z.string(),
  }),
});
export type ConsentRequest = z.infer<typeof consentRequestSchema>['data'];
/** The model's answer (agree, decline) or withdrawal: the request as it now is. */
export const consentAnswerSchema = successOf(consentRequestSchema.shape.data);

export const consentDecisionSchema = z.object({ decision: z.enum(['agree', 'decline']) });
export type ConsentDecision = z.infer<typeof consentDecisionSchema>['decision'];

/** Digits in the consent code (sent with the link, for a model who cannot or will not open links). */
export const CONSENT_CODE_LENGTH = 6;
/** Wrong codes tried against a contact's open requests before their codes stop working (the links still do). */
export const CONSENT_CODE_ATTEMPTS = 5;

/**
 * POST /api/consent/code: the contact the request went to (e-mail, or a phone: without a leading + it is read as
 * Spanish) and the code; answers a one-time token for the same pages as the link. Contacts are compared in the form
 * they are stored in: e-mail lower-cased, phone E.164.
 */
export const consentCodeSchema = z.object({
  // Checked on its own (not after the whole object parses), so a wrong contact and a wrong code show together, each
  // with its own message.
  contact: z
    .string()
    .trim()
    .max(254)
    .transform((v, ctx) => {
      if (v.includes('@')) {
        const email = z.email().safeParse(v.toLowerCase());
        if (email.success) return email.data;
      } else if (v) {
        const phone = parsePhoneNumberFromString(v, 'ES');
        if (phone?.isValid()) return phone.number;
      }
      ctx.addIssue({ code: 'custom', params: { key: 'consent.validation.contact' } });
      return z.NEVER;
    }),
  code: z
    .string()
    .max(32)
    .transform((v) => v.replace(/\s+/g, ''))
    .refine((v) => new RegExp(`^\\d{${CONSENT_CODE_LENGTH}}$`).test(v), { params: { key: 'consent.validation.code' } }),
});
export type ConsentCodeInput = z.input<typeof consentCodeSchema>;
export const consentCodeAnswerSchema = dataOf(z.object({ token: z.string() }));

/** Consent tokens are 43-character base64url strings; anything else is a plain 404. */
export const consentTokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });
