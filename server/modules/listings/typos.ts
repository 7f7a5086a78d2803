/**
 * Typo tolerance as Meilisearch defines it: a query word of fewer than 5 letters must be exact, one of 5 to 8 may
 * carry one typo, one of 9 or more two. A typo is an insertion, a deletion, a substitution or the swap of two
 * neighbouring letters ("luica" → "lucia"); like Meilisearch, a wrong first letter costs two, since people rarely
 * miss the first letter and a word that differs there is usually another word ("ovideo" is Oviedo, not "video").
 */

export function typoBudget(word: string): number {
  const n = [...word].length;
  return n >= 9 ? 2 : n >= 5 ? 1 : 0;
}

/**
 * Damerau–Levenshtein distance in its optimal-string-alignment form (a swapped pair counts once; no substring is
 * edited twice), which is what "a transposition counts as one typo" means for single words. By code points, so a
 * letter outside the BMP is one letter. Stops early once every path exceeds `max` and then answers `max + 1`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  // Three rows: the one before the previous is needed for transpositions.
  let prev2: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[t.length]!;
}

/** Typos between what was typed and a known word, counting a wrong first letter twice. */
export function typos(typed: string, known: string, max = Infinity): number {
  const first = [...typed][0] === [...known][0] ? 0 : 1;
  if (first > max) return max + 1;
  return Math.min(max + 1, editDistance(typed, known, max - first) + first);
}

export interface Candidate {
  word: string;
  /** How many listed ads use it. */
  ads: number;
}

export interface Correction {
  word: string;
  typos: number;
  ads: number;
}

/** How many alternatives a misspelt word may bring into the query. */
export const MAX_ALTERNATIVES = 3;

/**
 * The known words a typed word may have meant, within its typo budget: fewest typos first, then the most used.
 * Empty when the word is too short to correct or nothing is close enough.
 */
export function corrections(typed: string, candidates: readonly Candidate[]): Correction[] {
  const budget = typoBudget(typed);
  if (budget === 0) return [];
  return candidates
    .filter((c) => c.word !== typed)
    .map((c) => ({ word: c.word, ads: c.ads, typos: typos(typed, c.word, budget) }))
    .filter((c) => c.typos <= budget)
    .sort((x, y) => x.typos - y.typos || y.ads - x.ads || (x.word < y.word ? -1 : 1))
    .slice(0, MAX_ALTERNATIVES);
}
