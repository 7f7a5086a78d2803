import { z } from 'zod';
import { modelsQuerySchema } from './listings.ts';
import { idField, idParam } from './params.ts';
import { SECTION_SLUGS } from './section-slugs.ts';

/**
 * Saved searches with alerts (issue 28): a listing query (search text, city, section) kept under a name. When an ad
 * becomes visible (approved, reinstated, a model verified, consent given) it is matched on the server with the
 * listing's own rules (visibility, section, city, typo-tolerant text), so an alert never names an ad the listing would
 * not show. Each search alerts at most once a day, bundling its new ads: `instant` as an in-app notification of kind
 * `saved_search` (and a push), `daily` in one digest e-mail a day (with a one-click unsubscribe link, no sign-in
 * needed), `off` never. A paused search never alerts.
 */

export const SAVED_SEARCH_ALERTS = ['instant', 'daily', 'off'] as const;
export type SavedSearchAlerts = (typeof SAVED_SEARCH_ALERTS)[number];

/** Most saved searches one account keeps. */
export const MAX_SAVED_SEARCHES = 50;
export const SAVED_SEARCH_NAME_MAX = 60;

export const savedSearchSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  search: z.string(),
  /** The city's id, as the listing's `city` filter; null for anywhere. */
  city: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The section's slug, as the listing's `section` filter; null for every section. */
  section: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }).nullable(),
  alerts: z.enum(SAVED_SEARCH_ALERTS),
  paused: z.boolean(),
  /** Ads matched and not yet announced. */
  pending: z.number().int(),
  last_alert_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

export const savedSearchListSchema = z.object({ data: z.array(savedSearchSchema) });
export type SavedSearchList = z.infer<typeof savedSearchListSchema>;

const filters = modelsQuerySchema.pick({ search: true, city: true, section: true }).shape;

/** POST /api/saved-searches. */
export const savedSearchCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(SAVED_SEARCH_NAME_MAX),
    search: filters.search,
    /** The city's id (a number, or its decimal string as the listing's URL has it). */
    city: idField.optional(),
    /** The section's slug as the listing's URL has it, or its id. */
    section: z.union([z.enum(SECTION_SLUGS), idField]).optional(),
    alerts: z.enum(SAVED_SEARCH_ALERTS).default('instant'),
  })
  .strict();
export type SavedSearchCreate = z.input<typeof savedSearchCreateSchema>;

/** PUT /api/saved-searches/{id}: rename, change the alerts, pause or resume (any subset). */
export const savedSearchUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(SAVED_SEARCH_NAME_MAX).optional(),
    alerts: z.enum(SAVED_SEARCH_ALERTS).optional(),
    paused: z.boolean().optional(),
  })
  .strict();
export type SavedSearchUpdate = z.input<typeof savedSearchUpdateSchema>;

/** POST /api/saved-searches/unsubscribe: the e-mail's link, signed; no session needed. Turns the search's alerts off. */
export const savedSearchUnsubscribeSchema = z
  .object({ id: z.union([z.number().int().min(1), z.string().regex(/^\d{1,10}$/)]), token: z.string().min(16).max(200) })
  .strict();

/**
 * POST /api/saved-searches/unsubscribe/one-click?id=3,4&token=…: the digest's `List-Unsubscribe` (RFC 8058), posted by
 * the mail client with the form body `List-Unsubscribe=One-Click`. `id` names the searches of that e-mail; the token
 * signs them (for one search it is that search's own unsubscribe token).
 */
export const savedSearchOneClickQuerySchema = z
  .object({ id: z.string().regex(/^\d{1,10}(,\d{1,10}){0,49}$/), token: z.string().min(16).max(200) })
  .strict();
export const savedSearchOneClickBodySchema = z.object({ 'List-Unsubscribe': z.literal('One-Click') }).strict();
/** The one-click answer: the searches whose alerts are now off. */
export const savedSearchOneClickAnswerSchema = z.object({ ids: z.array(z.number().int()) });

export const savedSearchParamsSchema = z.object({ id: idParam }).strict();

/** The unsubscribe answer: the search, named, with its alerts now off. */
export const savedSearchUnsubscribedSchema = z.object({ id: z.number().int(), name: z.string(), alerts: z.enum(SAVED_SEARCH_ALERTS) });

// The listing links of saved searches, without zod: the home's filter bar reads `new=` on the first load.
export { NEW_ADS_MAX, NEW_ADS_PARAM, parseNewAds, savedSearchListingPath, savedSearchUnsubscribePath } from './saved-search-links.ts';
