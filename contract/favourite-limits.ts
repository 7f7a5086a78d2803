/**
 * The favourites' limits (issue 28), apart from their schemas (favourites.ts re-exports them): the browser's store
 * reads them without bringing zod into its bundle.
 */

/** Most favourites one account keeps; a PUT past it answers 422 (and the device store refuses the same). */
export const MAX_FAVOURITES = 500;

/** Most ids one GET /api/favourites/states names. */
export const FAVOURITE_STATES_MAX_IDS = 100;
