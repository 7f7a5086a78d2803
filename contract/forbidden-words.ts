import { z } from 'zod';

/**
 * POST /api/check-forbidden-words (API.checkForbiddenWords): a form asks whether a text would be refused before
 * saving it, and which words to highlight. Saving routes run the same check on the server and refuse with 422
 * (validation.forbidden_words).
 */

/** Longest text the check accepts (profile and ad descriptions are shorter). */
export const FORBIDDEN_WORDS_TEXT_MAX = 10_000;

export const checkForbiddenWordsSchema = z.object({
  text: z.string().max(FORBIDDEN_WORDS_TEXT_MAX),
});
export type CheckForbiddenWords = z.infer<typeof checkForbiddenWordsSchema>;

export const forbiddenWordMatchSchema = z.object({
  /** The offending text as the user wrote it: text.slice(start, end). */
  word: z.string(),
  /** The list term it matched (e.g. "16 años"), for moderators. */
  term: z.string(),
  /** sexual_services | minors | coercion (or an operator's own category). */
  category: z.string(),
  /** UTF-16 offsets into `text` (JavaScript string indices), end exclusive. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
});
export type ForbiddenWordMatchDto = z.infer<typeof forbiddenWordMatchSchema>;

export const forbiddenWordsResultSchema = z.object({
  ok: z.boolean(),
  /** Distinct offending words in reading order, as written. */
  words: z.array(z.string()),
  matches: z.array(forbiddenWordMatchSchema),
});
export type ForbiddenWordsResult = z.infer<typeof forbiddenWordsResultSchema>;
