/**
 * Photos of an ad (issue 5, SPEC §5 and §7): upload, gallery, delete, cover. Shared by the PWA's uploader and the
 * server's media routes.
 *
 * POST /api/upload/images — multipart/form-data:
 *   - `ad_id`: the ad the photos belong to (send it BEFORE the files: the server checks ownership before reading them);
 *   - `images` (repeatable; `images[]` is accepted too): the files, at most UPLOAD_MAX_FILES per request.
 * The server decides each file's type from its bytes (never the name or the Content-Type), re-encodes it to WebP
 * variants without metadata, and screens it (SPEC §5). Each file is accepted or refused on its own:
 *   - 201, type 'success': every file accepted; `message` = "Anuncio pendiente de revisión!" (translated);
 *   - 201, type 'warning': some accepted, some refused (same message, `description` counts the refused ones);
 *   - 422, type 'error', error 'validation_failed': none accepted; `errors.images` holds one message per refused
 *     file and `data` the same { media: [], refused } as above.
 * After at least one accepted photo the ad goes back to review (status 'pending').
 *
 * POST /api/media/delete { media_id } → 200 "Foto eliminada!"; if the cover goes, the next photo becomes the cover.
 * PUT /api/change-cover-picture/{id} (a media id) → 200; the ad then has exactly this one cover.
 * Both answer the ad's photos after the change in `data.media` (cover first).
 * Only the ad's model, or staff, may change its photos: 401 anonymous, 403 someone else, 404 unknown ids.
 */
import { z } from 'zod';
import { refusalReviewSchema } from './photo-reviews.ts';
import { idField } from './params.ts';
import { imageSchema } from './listings.ts';

/** Multipart field names of the upload. */
export const UPLOAD_FIELDS = { files: 'images', filesAlt: 'images[]', adId: 'ad_id' } as const;

/** Files per upload request; more are refused with `too_many_files`. */
export const UPLOAD_MAX_FILES = 20;
/** Photos an ad may hold in total; files past it are refused with `too_many_files`. */
export const AD_MAX_PHOTOS = 30;
/** Server defaults (UPLOAD_MAX_BYTES, UPLOAD_MAX_PIXELS may change them; the server's limit is what counts). */
export const UPLOAD_MAX_BYTES_DEFAULT = 15 * 1024 * 1024;
export const UPLOAD_MAX_PIXELS_DEFAULT = 40_000_000;
/**
 * What the server accepts, decided from the bytes. For the file picker's `accept` attribute. HEIC/HEIF with HEVC (the
 * iPhone's default) is not among them: sharp's prebuilt libheif decodes AV1 (AVIF) only, so such files are refused
 * as `unsupported_type`. Leaving image/heic out of `accept` makes iOS convert its photos to JPEG when picked.
 */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
/** Widths of the stored WebP variants (never upscaled: a small photo keeps only the widths it reaches, or its own). */
export const IMAGE_VARIANT_WIDTHS = [320, 800, 1600] as const;

/**
 * Why a file was refused:
 * - too_large: over the size limit (UPLOAD_MAX_BYTES);
 * - too_many_pixels: width × height over the pixel limit (pixel-flood protection);
 * - not_an_image: the bytes are no image at all (whatever the name says);
 * - unsupported_type: an image, but not JPEG, PNG, WebP or AVIF (e.g. GIF, SVG, TIFF, HEIC with HEVC);
 * - corrupt: an image that cannot be decoded completely (truncated, damaged);
 * - unsuitable: screened and found unsuitable (SPEC §5 thresholds);
 * - moderation_failed: the screening itself failed (SPEC §5: that makes the photo unsuitable too);
 * - too_many_files: past the per-request or per-ad limit;
 * - failed: the server could not store it (nothing was kept; trying again may work).
 */
export const REFUSAL_REASONS = [
  'too_large',
  'too_many_pixels',
  'not_an_image',
  'unsupported_type',
  'corrupt',
  'unsuitable',
  'moderation_failed',
  'too_many_files',
  'failed',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** An accepted file: the stored photo, plus which of the request's files it came from. */
export const uploadedImageSchema = imageSchema.extend({
  /** The file name as sent (for display only; never used to store anything). */
  file: z.string(),
  /** 0-based position of the file among the request's files. */
  index: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

export const refusedFileSchema = z.object({
  file: z.string(),
  index: z.number().int(),
  reason: z.enum(REFUSAL_REASONS),
  /** Translated into the request's language. */
  message: z.string(),
  /** For `unsuitable`: the rule, that the decision was automated, and the token a review request names. */
  review: refusalReviewSchema.optional(),
});
export type RefusedFile = z.infer<typeof refusedFileSchema>;

export const uploadResultSchema = z.object({
  /** The validated list (SPEC §5): photos accepted and stored, in the order they were sent. */
  media: z.array(uploadedImageSchema),
  /** The error list (SPEC §5): refused files with their reasons. */
  refused: z.array(refusedFileSchema),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** 201 answer of POST /api/upload/images (also the `data` of its 422 answer when nothing was accepted). */
export const uploadAnswerSchema = z.object({
  channel: z.literal('notification'),
  type: z.enum(['success', 'warning']),
  message: z.string(),
  description: z.string().optional(),
  data: uploadResultSchema,
});
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

const mediaId = idField;

export const deleteMediaBodySchema = z.object({ media_id: mediaId }).strict();
export type DeleteMediaBody = z.input<typeof deleteMediaBodySchema>;

export const changeCoverParamsSchema = z.object({ id: mediaId });

/** The ad's photos after a delete or a cover change, cover first. */
export const galleryAfterChangeSchema = z.object({ ad_id: z.number().int(), media: z.array(imageSchema) });

/** 200 answer of POST /api/media/delete and PUT /api/change-cover-picture/{id}. */
export const mediaChangeAnswerSchema = z.object({
  channel: z.literal('notification'),
  type: z.literal('success'),
  message: z.string(),
  data: galleryAfterChangeSchema,
});
export type MediaChangeAnswer = z.infer<typeof mediaChangeAnswerSchema>;

/** GET /api/getImagesByAd/{ad}: the ad's photos, cover first, then in upload order. */
export const galleryAnswerSchema = z.object({ data: z.array(imageSchema) });
