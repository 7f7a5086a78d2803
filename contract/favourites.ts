import { z } from 'zod';
import { successOf } from './answers.ts';
import { idField, idParam } from './params.ts';
import { modelCardSchema } from './listings.ts';

/**
 * Favourites (issue 28). A visitor keeps them on the device (IndexedDB) and they are merged into the account when
 * she signs in or registers; a signed-in user's are stored on the server (GET /api/favourites, PUT and DELETE
 * /api/favourites/{adId}, both idempotent, replayed by the outbox when made offline). The model never learns who
 * saved her ad: she sees only the count in her numbers.
 */

import { FAVOURITE_STATES_MAX_IDS, MAX_FAVOURITES } from './favourite-limits.ts';

export { FAVOURITE_STATES_MAX_IDS, MAX_FAVOURITES };

/**
 * What became of a saved ad: `available` while the listing shows it; `paused` (switched off by its owner or the
 * profile paused), `suspended` (restricted by staff) or `removed` (deleted, rejected, or the account is gone)
 * otherwise. Only an available favourite carries the card and its photo: a taken-down ad's photo is never shown.
 */
export const FAVOURITE_STATES = ['available', 'paused', 'suspended', 'removed'] as const;
export type FavouriteState = (typeof FAVOURITE_STATES)[number];

export const favouriteSchema = z.object({
  ad_id: z.number().int(),
  /** When it was saved (ISO 8601). */
  saved_at: z.string(),
  state: z.enum(FAVOURITE_STATES),
  /** The listing's card while `available`; null otherwise. */
  card: modelCardSchema.nullable(),
});
export type Favourite = z.infer<typeof favouriteSchema>;

/** GET /api/favourites: the signed-in user's favourites, newest first. */
export const favouriteListSchema = z.object({ data: z.array(favouriteSchema) });
export type FavouriteList = z.infer<typeof favouriteListSchema>;

export const favouriteParamsSchema = z.object({ adId: idParam }).strict();

/** PUT /api/favourites/{adId}: the toast and the saved item (the same answer when it was saved already). */
export const favouriteSavedAnswerSchema = successOf(favouriteSchema);
/** POST /api/favourites/merge: the toast and the account's whole list after the merge, newest first. */
export const favouritesMergedAnswerSchema = successOf(z.array(favouriteSchema));

/** A device favourite as a visitor keeps it, and as registration and the merge send it. */
export const deviceFavouriteSchema = z.object({ ad_id: idField, saved_at: z.iso.datetime({ offset: true }).optional() }).strict();
export type DeviceFavourite = z.input<typeof deviceFavouriteSchema>;
export const deviceFavouritesSchema = z.array(deviceFavouriteSchema).max(MAX_FAVOURITES);

/**
 * POST /api/favourites/merge: the device's favourites (a visitor's, kept in IndexedDB) added to the signed-in account,
 * each once; ads that no longer exist are skipped. Answers the merged list.
 */
export const favouritesMergeSchema = z
  .object({
    favourites: deviceFavouritesSchema,
  })
  .strict();
export type FavouritesMerge = z.input<typeof favouritesMergeSchema>;

/**
 * GET /api/favourites/states?ids=1,2,3 (public): the same items for ads named by id, for a visitor's device
 * favourites and the recently viewed row (no account, nothing stored on the server). Up to 100 ids.
 */
export const favouriteStatesQuerySchema = z
  .object({
    ids: z
      .string()
      .regex(/^\d{1,10}(,\d{1,10}){0,99}$/)
      .transform((s) => [...new Set(s.split(',').map(Number))]),
  })
  .strict();
export const favouriteStatesSchema = z.object({ data: z.array(favouriteSchema.omit({ saved_at: true })) });
export type FavouriteStates = z.infer<typeof favouriteStatesSchema>;
