import { z } from 'zod';
import { intParam } from './params.ts';

/**
 * Advertisers' numbers (issue 28): per ad and per ISO week, how many times it appeared in results, was opened, was
 * saved as a favourite, and how many calls and messages it received. First-party and aggregate: counted on the server
 * from the listing and the model page it serves, the favourites table, and the contact taps a visitor's browser
 * reports only after cookie consent. A model sees her ads'; a publicist her models' ads'.
 */

export const AD_STATS_WEEKS_DEFAULT = 8;
export const AD_STATS_WEEKS_MAX = 26;

export const adWeekStatsSchema = z.object({
  /** Monday of the ISO week (YYYY-MM-DD). */
  week: z.string(),
  impressions: z.number().int(),
  opens: z.number().int(),
  favourites: z.number().int(),
  calls: z.number().int(),
  messages: z.number().int(),
});
export type AdWeekStats = z.infer<typeof adWeekStatsSchema>;

export const adStatsSchema = z.object({
  ad_id: z.number().int(),
  title: z.string(),
  model_name: z.string(),
  /** Favourites standing now (the count, never who). */
  favourites_total: z.number().int(),
  /** Newest week first, every week of the range present (zeros included). */
  weeks: z.array(adWeekStatsSchema),
  /** The sums over the weeks of the range. */
  totals: adWeekStatsSchema.omit({ week: true }),
});
export type AdStats = z.infer<typeof adStatsSchema>;

export const adStatsListSchema = z.object({ data: z.array(adStatsSchema) });
export type AdStatsList = z.infer<typeof adStatsListSchema>;

/** GET /api/ad-stats?weeks=8: the signed-in model's or publicist's ads. */
export const adStatsQuerySchema = z.object({ weeks: intParam(1, AD_STATS_WEEKS_MAX).optional().default(AD_STATS_WEEKS_DEFAULT) }).strict();
