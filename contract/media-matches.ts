import { z } from 'zod';

/**
 * Trust & safety (issue 29): every stored photo and verification selfie has a perceptual hash, computed on the server
 * from the received image (the photo as visitors see it; originals never leave the phone). An upload whose hash is
 * close to a photo of another account (one the uploader does not manage), or to one on the removed list (hashes only,
 * never images, with the ground of removal), is flagged: the upload still succeeds (no tipping off) but the ad cannot
 * be listed until staff decide; a match with the removed list is refused for review with a statement naming the
 * automated detection (DSA art. 17(3)(c)).
 */

/** One match of a photo (GET /api/admin/media/{mediaId}/matches) or a selfie (the verification queue), the closest first. */
export const mediaMatchSchema = z.object({
  /** The matching stored photo; null for an entry of the removed list (no image is kept). */
  media_id: z.number().int().nullable(),
  ad_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  /** The matching verification selfie of another account (its image_url is the staff-only selfie route); else null. */
  verification_id: z.number().int().nullable().optional(),
  /** Hamming distance between the two hashes (0 = the same picture). */
  distance: z.number().int(),
  /** True for an entry of the removed list. */
  removed: z.boolean(),
  /** What the reviewer needs beside it: the other side's photo URL (staff-only), account, phone and city. */
  image_url: z.string().nullable().optional(),
  account_name: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  /** The removed list's ground (a rule code) for `removed` entries. */
  ground: z.string().nullable().optional(),
});
export type MediaMatch = z.infer<typeof mediaMatchSchema>;

export const mediaMatchListSchema = z.object({ data: z.array(mediaMatchSchema) });
export type MediaMatchList = z.infer<typeof mediaMatchListSchema>;
