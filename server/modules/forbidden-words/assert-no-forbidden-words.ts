/**
 * The server-side guard saving routes call before storing user text (profiles, ads, messages): a flagged field
 * is refused with 422 `validation_failed`, one translated message per field naming the words, and the matches
 * in `data.forbiddenWords` so the form can highlight them.
 */
import type { FastifyRequest } from 'fastify';
import type { Language } from '#contract/languages.ts';
import { validationFailed } from '../../errors.ts';
import { distinctWords, findForbiddenWords, type ForbiddenWordMatch, type ForbiddenWordsMatcher } from './forbidden-words.ts';

/** Field name (as the form names it, e.g. `description` or `ads.0.title`) → text; empty values are skipped. */
export type TextFields = Record<string, string | null | undefined>;

/** The matches of every flagged field; fields with nothing forbidden are left out. */
export function forbiddenWordsByField(matcher: ForbiddenWordsMatcher, fields: TextFields): Record<string, ForbiddenWordMatch[]> {
  const out: Record<string, ForbiddenWordMatch[]> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (!value) continue;
    const matches = findForbiddenWords(value, matcher);
    if (matches.length) out[field] = matches;
  }
  return out;
}

/** "a", "b" and "c" in the request's language. */
function listWords(lang: Language, words: string[]): string {
  const quoted = words.map((w) => `"${w}"`);
  try {
    return new Intl.ListFormat(lang.replace('_', '-'), { type: 'conjunction' }).format(quoted);
  } catch {
    return quoted.join(', ');
  }
}

/** Throws a 422 naming the forbidden words of each flagged field, in the request's language. */
export function assertNoForbiddenWords(req: FastifyRequest, fields: TextFields): void {
  const flagged = forbiddenWordsByField(req.server.forbiddenWords, fields);
  const names = Object.keys(flagged);
  if (!names.length) return;
  const errors: Record<string, string[]> = {};
  for (const name of names) {
    errors[name] = [req.t('validation.forbidden_words', { words: listWords(req.lang, distinctWords(flagged[name]!)) })];
  }
  throw validationFailed(errors, 'forbiddenWords.refused', { forbiddenWords: flagged });
}
