import { z } from 'zod';
import { intParam } from './params.ts';
import { SECTION_SLUGS } from './sections.ts';
import { STATUSES } from './statuses.ts';

export const PER_PAGE_DEFAULT = 24;
export const PER_PAGE_MAX = 48;
/** Deep pages cost the database and help nobody: past this, narrow the search. */
export const PAGE_MAX = 1000;
export const SEARCH_MAX = 100;

/**
 * GET /api/models query. Listing URLs carry the same names (SPEC §2: city, section, status, search, page).
 * `section` is the stable slug (or, for old links, the numeric id); `status` is accepted for URL compatibility
 * but a public listing only ever shows verified (active) profiles.
 */
export const modelsQuerySchema = z
  .object({
    search: z.string().trim().max(SEARCH_MAX).optional(),
    city: intParam(1, 2_147_483_647).optional(),
    section: z.union([z.enum(SECTION_SLUGS), intParam(1, 1000)]).optional(),
    status: z.enum(STATUSES).optional(),
    /** `1`: search the words exactly as typed, without typo correction (the "search for «luica» instead" link). */
    literal: z.literal('1').optional(),
    page: intParam(1, PAGE_MAX).optional().default(1),
    per_page: intParam(1, PER_PAGE_MAX).optional().default(PER_PAGE_DEFAULT),
  })
  .strict();
export type ModelsQuery = z.input<typeof modelsQuerySchema>;

export const imageSchema = z.object({
  media_id: z.number().int(),
  uid: z.string(),
  url: z.string(),
  srcset: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  is_cover: z.boolean(),
});
export type Image = z.infer<typeof imageSchema>;

export const modelCardSchema = z.object({
  id: z.number().int(),
  /** null for a publicist's model without an account of its own. */
  user_id: z.number().int().nullable(),
  name: z.string(),
  title: z.string(),
  excerpt: z.string(),
  age: z.number().int().nullable(),
  city: z.object({ id: z.number().int(), name: z.string() }),
  section: z.object({ id: z.number().int(), slug: z.enum(SECTION_SLUGS), name: z.string(), color: z.string() }),
  status: z.enum(STATUSES),
  verified: z.boolean(),
  cover: imageSchema.nullable(),
  published_at: z.string(),
});
export type ModelCard = z.infer<typeof modelCardSchema>;

import { paginationMetaSchema } from './answers.ts';
export { paginationMetaSchema, type PaginationMeta } from './answers.ts';

/**
 * A word of the search that matched nothing and was read as a known word within its typo budget (Meilisearch's:
 * one typo from 5 letters, two from 9). `from` is the word as typed, `to` as the ads write it (accents kept).
 */
export const searchCorrectionSchema = z.object({ from: z.string(), to: z.string() });
export type SearchCorrection = z.infer<typeof searchCorrectionSchema>;

export const modelListSchema = z.object({
  data: z.array(modelCardSchema),
  meta: paginationMetaSchema.extend({
    /** Present only when the search was corrected: the words replaced, and the search as it was run. */
    corrections: z.array(searchCorrectionSchema).optional(),
    corrected_search: z.string().optional(),
  }),
});
export type ModelList = z.infer<typeof modelListSchema>;

/** GET /api/models/map: the listing's filters but the city (and the page), counted per city. */
export const modelsMapQuerySchema = modelsQuerySchema.pick({ search: true, section: true, literal: true }).strict();
export type ModelsMapQuery = z.input<typeof modelsMapQuerySchema>;

export const cityCountSchema = z.object({
  city: z.object({ id: z.number().int(), name: z.string(), state: z.string() }),
  /** The municipality's centre as the reference data has it (never an ad's own place). */
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
});
export type CityCount = z.infer<typeof cityCountSchema>;

export const modelsMapSchema = z.object({
  data: z.array(cityCountSchema),
  meta: z.object({
    /** The sum of the counts: the listing's total for the same filters. */
    total: z.number().int(),
    /** Present only when the search was corrected, as in the listing. */
    corrections: z.array(searchCorrectionSchema).optional(),
  }),
});
export type ModelsMap = z.infer<typeof modelsMapSchema>;

export const modelDetailSchema = z.object({
  data: modelCardSchema.extend({
    /** With the city's centre, rounded to 2 decimals (about 1 km): the model page's area map, never the ad's own place. */
    city: modelCardSchema.shape.city.extend({ latitude: z.number().nullable(), longitude: z.number().nullable() }),
    description: z.string(),
    phone: z.string().nullable(),
    whatsapp: z.boolean(),
    state: z.string(),
  }),
});
export type ModelDetail = z.infer<typeof modelDetailSchema>['data'];

export const publicityAdSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  advertiser: z.string(),
  image_url: z.string().nullable(),
  target_url: z.string(),
});
export type PublicityAd = z.infer<typeof publicityAdSchema>;
