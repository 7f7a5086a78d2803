import { describe, expect, it } from 'vitest';
import { corrections, editDistance, typoBudget, typos } from './typos.ts';

describe('editDistance (Damerau–Levenshtein, optimal string alignment)', () => {
  it.each([
    ['lucia', 'lucia', 0],
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    // A swapped pair of neighbours is one edit (plain Levenshtein says two).
    ['luica', 'lucia', 1],
    ['gihon', 'gijon', 1],
    ['aviels', 'aviles', 1],
    ['ab', 'ba', 1],
    // Insertion, deletion, substitution.
    ['guijon', 'gijon', 1],
    ['gijn', 'gijon', 1],
    ['oviado', 'oviedo', 1],
    ['kitten', 'sitting', 3],
    ['pleyao', 'pelayo', 2],
    // Optimal string alignment: "ca" → "abc" is 3 (no edit of a swapped pair), true Damerau would say 2.
    ['ca', 'abc', 3],
  ])('%s → %s: %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('counts letters, not UTF-16 units', () => {
    expect(editDistance('😀a', 'a😀')).toBe(1);
    expect(editDistance('😀', '😃')).toBe(1);
  });

  it('stops early past the bound, answering bound + 1', () => {
    expect(editDistance('abcdefgh', 'zyxwvuts', 1)).toBe(2);
    expect(editDistance('abc', 'abcdef', 2)).toBe(3);
    expect(editDistance('luica', 'lucia', 1)).toBe(1);
  });
});

describe('typos (Meilisearch rules)', () => {
  it('allows no typo below 5 letters, one from 5, two from 9', () => {
    expect(['lea', 'luca', 'lucia', 'pelayo', 'covadong', 'covadonga', 'videollamada'].map(typoBudget)).toEqual([0, 0, 1, 1, 1, 2, 2]);
    // By letters, not bytes or UTF-16 units.
    expect(typoBudget('ñoño')).toBe(0);
  });

  it('counts a wrong first letter twice', () => {
    expect(typos('ovideo', 'oviedo')).toBe(1);
    expect(typos('ovideo', 'video')).toBe(2);
    expect(typos('mucia', 'lucia')).toBe(2);
    expect(typos('ulcia', 'lucia')).toBe(2);
    expect(typos('mucia', 'lucia', 1)).toBe(2);
  });
});

describe('corrections', () => {
  const vocabulary = [
    { word: 'lucia', ads: 9 },
    { word: 'lucas', ads: 30 },
    { word: 'luisa', ads: 2 },
    { word: 'video', ads: 500 },
    { word: 'oviedo', ads: 40 },
    { word: 'marceliano', ads: 1 },
    { word: 'marcelino', ads: 50 },
  ];

  it('keeps the words within the budget, fewest typos first, then the most used', () => {
    expect(corrections('luica', vocabulary).map((c) => c.word)).toEqual(['lucia', 'luisa']);
    expect(corrections('ovideo', vocabulary)).toEqual([{ word: 'oviedo', typos: 1, ads: 40 }]);
    expect(corrections('marcelianx', vocabulary).map((c) => [c.word, c.typos])).toEqual([
      ['marceliano', 1],
      ['marcelino', 2],
    ]);
  });

  it('corrects nothing below 5 letters, and never into the word itself', () => {
    expect(corrections('luca', [{ word: 'lucas', ads: 1 }])).toEqual([]);
    expect(corrections('lucia', vocabulary).map((c) => c.word)).not.toContain('lucia');
    expect(corrections('zzqxw', vocabulary)).toEqual([]);
  });

  it('keeps at most three alternatives', () => {
    const many = ['lucio', 'lucia', 'lucie', 'lucis', 'lucix'].map((word, i) => ({ word, ads: i }));
    expect(corrections('lucid', many)).toHaveLength(3);
  });
});
