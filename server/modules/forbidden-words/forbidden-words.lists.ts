/**
 * Reads the forbidden-words lists: every lists/*.json beside this file (one per language), plus an optional
 * operator file named by FORBIDDEN_WORDS_FILE in the same format. A malformed file stops start-up with its
 * name and the problem, rather than silently checking nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ForbiddenWordsList } from './forbidden-words.ts';

const term = z.string().trim().min(1).max(200);

export const listFileSchema = z.strictObject({
  /** Informative only: every list is checked against every text, whatever its language (users mix them). */
  language: z.string().min(2).max(10).optional(),
  categories: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'category names are snake_case'), z.array(term)),
  allow: z.array(term).optional(),
});

export const BUILT_IN_LISTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lists');

export function readListFile(file: string): ForbiddenWordsList {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`forbidden-words list ${file}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = listFileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(file)'}: ${i.message}`);
    throw new Error(`forbidden-words list ${file} is not valid:\n${lines.join('\n')}`);
  }
  return { source: path.basename(file), categories: parsed.data.categories, allow: parsed.data.allow ?? [] };
}

/** The built-in lists (sorted by file name, so the order is stable) and the operator's extra file, if any. */
export function loadForbiddenWordLists(extraFile?: string, dir: string = BUILT_IN_LISTS_DIR): ForbiddenWordsList[] {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(dir, name));
  if (extraFile) files.push(path.resolve(extraFile));
  return files.map(readListFile);
}
