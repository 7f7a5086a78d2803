/**
 * Forbidden-words matching, pure and synchronous: compile the lists once (compileForbiddenWords), then check any
 * text (findForbiddenWords). Every match is reported with its range in the caller's original string, so a form
 * can highlight exactly what the user typed, however it was disguised.
 *
 * How evasions are defeated (see README.md beside this file for the list format):
 * - the text is folded to a "skeleton": NFKD, combining marks dropped (accents, strike-through overlays), lower
 *   case, invisible/format characters dropped (zero-width space, joiners, soft hyphen, BOM, Hangul fillers),
 *   look-alike Cyrillic/Greek letters mapped to Latin, ß → ss; each skeleton unit remembers the original range
 *   it came from;
 * - runs of one repeated character are cut to three ("meeeenor" → "meeenor"); term letters then accept one or
 *   more repeats, so a doubled letter in a term must stay doubled ("teen" never matches "ten");
 * - term letters accept the usual digit/symbol stand-ins (4/@ a, 3 e, 1 i/l, 0 o, 5/$ s, 7 t); digits written in
 *   a term stay literal, so "16 años" never matches "26 años";
 * - words of a multi-word term may be separated by any run of spaces/punctuation/emoji, or by nothing;
 * - terms match whole words only (no letter or digit right before or after), unless the term says otherwise
 *   with a leading/trailing `*`; that is what keeps "menorca", "teenage" and "26 años" clean;
 * - letters spelt out one by one ("m e n o r", "m.e.n.o.r", "m-e-n-o-r") are read in a second view where the
 *   separators between them become a junction mark that terms may step over and that also counts as a word
 *   boundary (a spelt-out run has no visible word boundaries: "m e n o r y m e n o r" holds two words).
 *
 * Speed: one giant alternation of every term is slow in V8 (hundreds of ms on 10,000 characters). Terms are
 * bucketed by their first character, each bucket is one trie-shaped expression (shared beginnings written
 * once), and a bucket's sticky expression runs only at word starts whose character can begin one of its terms.
 * Runs of one character are cut in the text and a term's neighbouring classes hardly overlap, so no input makes
 * the expressions backtrack badly.
 */
import type { ForbiddenWordsResult } from '#contract/forbidden-words.ts';

export interface ForbiddenWordsList {
  /** Where the list came from (a language code or a file name), for error messages. */
  source: string;
  /** Terms by category (e.g. sexual_services, minors, coercion). */
  categories: Record<string, string[]>;
  /** Phrases that make an enclosed match harmless ("hermana menor", "16 años de experiencia"). */
  allow?: string[];
}

export interface ForbiddenWordMatch {
  /** The offending text exactly as it appears in the input: input.slice(start, end). */
  word: string;
  /** The list term it matched, after brace expansion (e.g. "16 años"). */
  term: string;
  category: string;
  /** UTF-16 offsets into the original input, end exclusive. */
  start: number;
  end: number;
}

interface TermMeta {
  term: string;
  category: string;
}

/** One piece of a compiled term. */
type Part =
  | { kind: 'letter'; letter: string; min: number }
  | { kind: 'digit'; digit: string }
  | { kind: 'number' }
  | { kind: 'symbol'; symbol: string }
  | { kind: 'gap' }
  | { kind: 'start' }
  | { kind: 'end' };

interface CompiledTerm {
  parts: Part[];
  /** The bucket: first letter, `#` for a digit or number, `@`/`$`; null when it may start anywhere. */
  key: string | null;
  meta: TermMeta;
}

/** One alternation of terms; capture group n (1-based) ↔ terms[n - 1]. */
interface Bucket {
  regex: RegExp;
  terms: TermMeta[];
}

interface Buckets {
  /** Sticky expressions by the first character a term can start with (a letter, `#` for digits, `@`, `$`). */
  byKey: Map<string, Bucket>;
  /** Terms that may start anywhere (leading `*`, or a leading symbol such as `€`): scanned the slow way. */
  anywhere: Bucket | null;
}

class CompiledSet {
  private spelt: Buckets | null = null;
  readonly plain: Buckets;
  constructor(private readonly terms: Map<string | null, CompiledTerm[]>) {
    this.plain = buildBuckets(terms, false);
  }
  get size(): number {
    let n = 0;
    for (const list of this.terms.values()) n += list.length;
    return n;
  }
  /** The expressions for the spelt-out view, built on first need (most texts never need them). */
  forView(spelt: boolean): Buckets {
    if (!spelt) return this.plain;
    this.spelt ??= buildBuckets(this.terms, true);
    return this.spelt;
  }
}

export interface ForbiddenWordsMatcher {
  readonly blocked: CompiledSet | null;
  readonly allowed: CompiledSet | null;
  /** Number of distinct compiled terms (after expansion and de-duplication), for logs. */
  readonly size: number;
}

/** A skeleton of the text: `text[k]` came from `original.slice(starts[k], ends[k])`. */
interface View {
  text: string;
  starts: number[];
  ends: number[];
  /** Whether this is the spelt-out view (it holds junction marks). */
  spelt: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Folding (shared by texts and terms)

/** Look-alikes NFKD leaves alone. Only letters that are drawn like the Latin ones, lower case (we fold first). */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ӏ: 'l',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  // Latin letters without a decomposition
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ł: 'l',
  ŀ: 'l',
  ɡ: 'g',
  // Blank-looking characters that are not format characters: a braille blank reads as a space, the Hangul
  // fillers as nothing.
  '\u2800': ' ',
  '\u3164': '',
  '\u115f': '',
  '\u1160': '',
  '\uffa0': '',
};

const DROP = /[\p{M}\p{Cf}]/u;
const MARK = /\p{M}/u;

const foldCache = new Map<string, string>();
const FOLD_CACHE_MAX = 20_000;

/** One code point → its skeleton (possibly empty, possibly several units). */
function foldCodePoint(ch: string): string {
  const cached = foldCache.get(ch);
  if (cached !== undefined) return cached;
  // Lower-casing may itself produce a decomposable sequence (İ → i + U+0307), hence NFKD on both sides.
  const decomposed = ch.normalize('NFKD').toLowerCase().normalize('NFKD');
  let out = '';
  for (const c of decomposed) {
    if (DROP.test(c)) continue;
    out += LOOKALIKES[c] ?? c;
  }
  if (foldCache.size < FOLD_CACHE_MAX) foldCache.set(ch, out);
  return out;
}

/** Folds a whole string (used for terms, whose original ranges do not matter). */
export function foldText(text: string): string {
  let out = '';
  for (const ch of text) out += ch.charCodeAt(0) < 0x80 ? ch.toLowerCase() : foldCodePoint(ch);
  return out;
}

/** Characters that belong to a word: letters, digits and the two symbols used as letters. */
const WORD_CHAR = /[\p{L}\p{N}@$]/u;
/** Per UTF-16 unit: 0 not yet known, 1 word, 2 not a word (filled lazily; the regex test is the slow part). */
const WORD_UNITS = new Uint8Array(0x10000);

/** Per UTF-16 unit (astral letters count as separators here; they never occur in a term). */
function isWordCode(c: number): boolean {
  let known = WORD_UNITS[c]!;
  if (known === 0) {
    known = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    WORD_UNITS[c] = known;
  }
  return known === 1;
}

function isWordUnit(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  return !Number.isNaN(c) && isWordCode(c);
}

const MAX_RUN = 3;

/**
 * The first view: folded text, with runs of one repeated word character cut to MAX_RUN. The last kept unit of a
 * cut run stretches over the whole run, and a unit stretches over the combining marks that followed it, so a
 * match still covers everything the user typed.
 */
export function skeleton(original: string): View {
  const starts: number[] = [];
  const ends: number[] = [];
  let text = '';
  let runUnit = -1;
  let runLength = 0;
  const push = (unit: number, start: number, end: number) => {
    // Only word characters form runs worth cutting; separators stay as typed (an emoji's halves must both stay).
    if (!isWordCode(unit)) {
      runUnit = -1;
      text += String.fromCharCode(unit);
      starts.push(start);
      ends.push(end);
      return;
    }
    if (unit === runUnit) {
      runLength += 1;
      if (runLength > MAX_RUN) {
        ends[ends.length - 1] = end;
        return;
      }
    } else {
      runUnit = unit;
      runLength = 1;
    }
    text += String.fromCharCode(unit);
    starts.push(start);
    ends.push(end);
  };
  for (let i = 0; i < original.length;) {
    const code = original.charCodeAt(i);
    if (code < 0x80) {
      push(code >= 65 && code <= 90 ? code + 32 : code, i, i + 1);
      i += 1;
      continue;
    }
    const cp = original.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const ch = original.slice(i, i + len);
    const folded = foldCodePoint(ch);
    if (folded === '' && ends.length && MARK.test(ch)) ends[ends.length - 1] = i + len;
    for (let k = 0; k < folded.length; k += 1) push(folded.charCodeAt(k), i, i + len);
    i += len;
  }
  return { text, starts, ends, spelt: false };
}

/**
 * Stands for the separators between spelt-out letters in the second view. A private-use character: never a
 * letter, so it ends a word for the boundary checks, while spelt-view expressions may step over it.
 */
export const JUNCTION = '\ue000';

/** Separators allowed between the letters of a spelt-out word: short, and on one line. */
const MAX_SPELLING_GAP = 3;
/** Two one-letter words in a row are ordinary ("y a"); two lone digits are an age spelt out ("1 6 años"). */
const MIN_SPELT_LETTERS = 3;
const MIN_SPELT_DIGITS = 2;

/**
 * The second view, or null when the text has no spelt-out word: the separators between three or more
 * one-character words in a row (two if they are digits) become one JUNCTION each, so "m e n o r" reads
 * "m·e·n·o·r" and matches "menor".
 */
export function joinSpeltOut(view: View): View | null {
  const { text } = view;
  /** Gaps to turn into junctions: [from, to) in view units. */
  const junctions: [number, number][] = [];
  let runLength = 0;
  let runDigits = true;
  let lastEnd = -1;
  let pendingGaps: [number, number][] = [];
  const closeRun = () => {
    if (runLength >= (runDigits ? MIN_SPELT_DIGITS : MIN_SPELT_LETTERS)) for (const gap of pendingGaps) junctions.push(gap);
    runLength = 0;
    runDigits = true;
    pendingGaps = [];
  };
  for (let i = 0; i < text.length;) {
    if (!isWordUnit(text, i)) {
      i += 1;
      continue;
    }
    let j = i + 1;
    while (j < text.length && isWordUnit(text, j)) j += 1;
    if (j - i === 1) {
      if (runLength > 0 && i - lastEnd <= MAX_SPELLING_GAP && !/[\n\r]/.test(text.slice(lastEnd, i))) {
        pendingGaps.push([lastEnd, i]);
        runLength += 1;
      } else {
        closeRun();
        runLength = 1;
      }
      runDigits &&= text[i]! >= '0' && text[i]! <= '9';
      lastEnd = j;
    } else {
      closeRun();
    }
    i = j;
  }
  closeRun();
  if (!junctions.length) return null;
  let joined = '';
  const starts: number[] = [];
  const ends: number[] = [];
  // Loops rather than push(...array) here and below: a long text would exceed the engine's argument limit.
  const copy = (from: number, to: number) => {
    joined += text.slice(from, to);
    for (let k = from; k < to; k += 1) {
      starts.push(view.starts[k]!);
      ends.push(view.ends[k]!);
    }
  };
  let from = 0;
  for (const [gapStart, gapEnd] of junctions) {
    copy(from, gapStart);
    joined += JUNCTION;
    starts.push(view.starts[gapStart]!);
    ends.push(view.ends[gapEnd - 1]!);
    from = gapEnd;
  }
  copy(from, text.length);
  return { text: joined, starts, ends, spelt: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Terms

const MAX_EXPANSIONS = 2_000;

/**
 * Shell-style brace expansion: "{a,b} x" → ["a x", "b x"], "{14..17} años" → 14…17, nested braces not supported.
 * It lets a list say "menor{,es}" or "{12..17} años" instead of spelling every variant.
 */
export function expandBraces(term: string): string[] {
  const open = term.indexOf('{');
  if (open < 0) {
    if (term.includes('}')) throw new Error(`unopened "}" in "${term}"`);
    return [term];
  }
  const close = term.indexOf('}', open);
  if (close < 0) throw new Error(`unclosed "{" in "${term}"`);
  const body = term.slice(open + 1, close);
  if (body.includes('{')) throw new Error(`nested braces in "${term}"`);
  const range = /^(\d+)\.\.(\d+)$/.exec(body);
  let options: string[];
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (to < from || to - from > 200) throw new Error(`bad range "{${body}}" in "${term}"`);
    options = Array.from({ length: to - from + 1 }, (_, k) => String(from + k));
  } else {
    options = body.split(',');
  }
  const head = term.slice(0, open);
  const out: string[] = [];
  for (const option of options) {
    for (const tail of expandBraces(term.slice(close + 1))) {
      out.push(head + option + tail);
      if (out.length > MAX_EXPANSIONS) throw new Error(`"${term}" expands to more than ${MAX_EXPANSIONS} terms`);
    }
  }
  return out;
}

/** Stand-ins accepted for each letter (digits and symbols people type instead). */
const STAND_INS: Record<string, string> = { a: '4@', e: '3', i: '1', l: '1', o: '0', s: '5$', t: '7' };
/** The other way round: which letters a stand-in can begin. */
const STANDS_FOR = new Map<string, string[]>();
for (const [letter, chars] of Object.entries(STAND_INS)) {
  for (const c of chars) STANDS_FOR.set(c, [...(STANDS_FOR.get(c) ?? []), letter]);
}
/** Bucket key of terms that start with a digit or a number placeholder. */
const DIGIT_KEY = '#';

const WORD_CLASS = '\\p{L}\\p{N}@$';
const J = '\\ue000';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function letterClass(letter: string): string {
  const extra = STAND_INS[letter];
  return extra ? `[${escapeRegExp(letter + extra)}]` : escapeRegExp(letter);
}

/** Extra repeats a letter may have in the spelt view, where runs are not cut ("m e e e e n o r"). */
const SPELT_EXTRA_REPEATS = 4;

/**
 * A piece as expression source. In the spelt view a junction may sit between any two characters of a word, so
 * repeats become "X(?:·?X){…}" and (in renderParts) adjacent pieces get an optional junction between them.
 * There the repeats are bounded: a junction is also a gap, and an unbounded "X(?:·?X)*" before a gap would
 * backtrack quadratically over a long spelt-out run ("s s s s …"). Numbers do not cross junctions, for the same
 * reason (spelt-out prices are not worth it; spelt-out ages are literal digits and still match).
 */
function partSource(part: Part, spelt: boolean): string {
  switch (part.kind) {
    case 'letter': {
      const c = letterClass(part.letter);
      if (!spelt) return part.min === 1 ? `${c}+` : `${c}{${part.min},}`;
      return `${c}(?:${J}?${c}){${part.min - 1},${part.min - 1 + SPELT_EXTRA_REPEATS}}`;
    }
    case 'digit':
      return escapeRegExp(part.digit);
    case 'number':
      return '\\d+(?:[.,]\\d+)?';
    case 'symbol':
      return escapeRegExp(part.symbol);
    case 'gap':
      // Any run of non-word characters (junctions included), or none.
      return `[^${WORD_CLASS}]*`;
    case 'start':
      return `(?<![${WORD_CLASS}])`;
    case 'end':
      return `(?![${WORD_CLASS}])`;
  }
}

/** The pieces of a term as trie keys: in the spelt view, word pieces in a row get an optional junction between. */
function renderParts(parts: Part[], spelt: boolean): string[] {
  const wordy = (p: Part | undefined) => p !== undefined && (p.kind === 'letter' || p.kind === 'digit' || p.kind === 'number');
  return parts.map((part, k) => {
    const source = partSource(part, spelt);
    return spelt && wordy(part) && wordy(parts[k - 1]) ? `${J}?${source}` : source;
  });
}

/**
 * One expanded term → its pieces and bucket, or null when the term has no letter or digit (an alternative with
 * nothing to match would match everywhere). Terms in a bucket get no start boundary: only word starts are tried.
 */
export function compileTerm(rawTerm: string, meta: TermMeta = { term: rawTerm, category: '' }): CompiledTerm | null {
  let term = foldText(rawTerm.trim());
  const openStart = term.startsWith('*');
  if (openStart) term = term.slice(1);
  const openEnd = term.endsWith('*');
  if (openEnd) term = term.slice(0, -1);
  const chars = [...term];
  const parts: Part[] = [];
  let key: string | null | undefined;
  let meaningful = false;
  let gap = false;
  const add = (part: Part, firstKey: string | null) => {
    if (gap && parts.length) parts.push({ kind: 'gap' });
    gap = false;
    if (key === undefined) key = firstKey;
    parts.push(part);
  };
  for (let k = 0; k < chars.length;) {
    const c = chars[k]!;
    if (c === '#') {
      add({ kind: 'number' }, DIGIT_KEY);
      meaningful = true;
      k += 1;
    } else if (/\p{L}/u.test(c)) {
      let n = 1;
      while (chars[k + n] === c) n += 1;
      add({ kind: 'letter', letter: c, min: Math.min(n, MAX_RUN) }, c);
      meaningful = true;
      k += n;
    } else if (/\p{N}/u.test(c)) {
      add({ kind: 'digit', digit: c }, DIGIT_KEY);
      meaningful = true;
      k += 1;
    } else if (/[\p{S}@]/u.test(c)) {
      // Currency and other symbols ("# €", "r$ #") are part of the term; the gaps around them stay optional.
      gap = true;
      add({ kind: 'symbol', symbol: c }, c === '@' || c === '$' ? c : null);
      gap = true;
      k += 1;
    } else {
      // Spaces and punctuation in a term separate its words.
      gap = true;
      k += 1;
    }
  }
  if (!meaningful) return null;
  const bucket = openStart ? null : (key ?? null);
  if (bucket === null && !openStart) parts.unshift({ kind: 'start' });
  if (!openEnd) parts.push({ kind: 'end' });
  return { parts, key: bucket, meta };
}

interface Entry {
  term: string;
  category: string;
  source: string;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  /** The term that ends here, if any. */
  leaf: TermMeta | null;
  /** Length of the longest piece sequence below, to try longer terms first. */
  depth: number;
}

const newNode = (): TrieNode => ({ children: new Map(), leaf: null, depth: 0 });

/**
 * Terms of a bucket as one expression with shared beginnings factored out ("sin(?:condon|papeles|…)"): hundreds
 * of separate alternatives are slow in V8, a trie is not. Each term ends in an empty capture group, so the
 * group that took part names the term. Longer continuations come first, so "menor de edad" wins over "menor".
 */
function trieBucket(terms: CompiledTerm[], spelt: boolean, flags: string): Bucket {
  const root = newNode();
  for (const { parts, meta } of terms) {
    const keys = renderParts(parts, spelt);
    let node = root;
    keys.forEach((part, k) => {
      node.depth = Math.max(node.depth, keys.length - k);
      let child = node.children.get(part);
      if (!child) {
        child = newNode();
        node.children.set(part, child);
      }
      node = child;
    });
    node.leaf ??= meta;
  }
  const leaves: TermMeta[] = [];
  const emit = (node: TrieNode): string => {
    const alternatives: string[] = [];
    const children = [...node.children].sort((a, b) => b[1].depth - a[1].depth);
    for (const [part, child] of children) alternatives.push(part + emit(child));
    if (node.leaf) {
      // Recorded after the children: capture groups are numbered in the order they appear in the source.
      leaves.push(node.leaf);
      alternatives.push('()');
    }
    return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
  };
  const source = emit(root);
  return { regex: new RegExp(source, flags), terms: leaves };
}

function buildBuckets(terms: Map<string | null, CompiledTerm[]>, spelt: boolean): Buckets {
  const byKey = new Map<string, Bucket>();
  let anywhere: Bucket | null = null;
  for (const [key, list] of terms) {
    if (key === null) anywhere = trieBucket(list, spelt, 'gu');
    else byKey.set(key, trieBucket(list, spelt, 'uy'));
  }
  return { byKey, anywhere };
}

function compileSet(entries: Entry[]): CompiledSet | null {
  const byKey = new Map<string | null, CompiledTerm[]>();
  const seen = new Set<string>();
  for (const entry of entries) {
    let expanded: string[];
    try {
      expanded = expandBraces(entry.term);
    } catch (err) {
      throw new Error(`${entry.source}: ${(err as Error).message}`, { cause: err });
    }
    for (const term of expanded) {
      const meta = { term: term.trim().replace(/\s+/g, ' '), category: entry.category };
      const compiled = compileTerm(term, meta);
      if (compiled === null) throw new Error(`${entry.source}: "${entry.term}" has no letter or digit to match`);
      // The same skeleton from several lists (es "16 años" and pt "16 anos") is checked once.
      const id = renderParts(compiled.parts, false).join('\u0000');
      if (seen.has(id)) continue;
      seen.add(id);
      const list = byKey.get(compiled.key) ?? [];
      list.push(compiled);
      byKey.set(compiled.key, list);
    }
  }
  return seen.size ? new CompiledSet(byKey) : null;
}

/** Compiles lists once, at start-up. Throws with the list's source named when a term cannot be compiled. */
export function compileForbiddenWords(lists: ForbiddenWordsList[]): ForbiddenWordsMatcher {
  const blocked: Entry[] = [];
  const allowed: Entry[] = [];
  for (const { source, categories, allow } of lists) {
    for (const [category, terms] of Object.entries(categories)) {
      for (const term of terms) blocked.push({ term, category, source });
    }
    for (const term of allow ?? []) allowed.push({ term, category: 'allow', source });
  }
  const blockedSet = compileSet(blocked);
  return { blocked: blockedSet, allowed: compileSet(allowed), size: blockedSet?.size ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------------
// Matching

interface RawMatch {
  start: number;
  end: number;
  meta: TermMeta;
}

function groupOf(m: RegExpExecArray): number {
  let group = 1;
  while (m[group] === undefined) group += 1;
  return group - 1;
}

/** Every match of a set in a view: at most one per start position (the longest term that matches there). */
function scan(set: CompiledSet, view: View): RawMatch[] {
  const { text } = view;
  const { byKey, anywhere } = set.forView(view.spelt);
  const out: RawMatch[] = [];
  for (let p = 0; p < text.length; p += 1) {
    if (!isWordUnit(text, p) || (p > 0 && isWordUnit(text, p - 1))) continue;
    const c = text[p]!;
    const keys = [c, ...(STANDS_FOR.get(c) ?? []), ...(c >= '0' && c <= '9' ? [DIGIT_KEY] : [])];
    for (const key of keys) {
      const bucket = byKey.get(key);
      if (!bucket) continue;
      bucket.regex.lastIndex = p;
      const m = bucket.regex.exec(text);
      if (m) out.push({ start: p, end: p + m[0].length, meta: bucket.terms[groupOf(m)]! });
    }
  }
  if (anywhere) {
    const regex = anywhere.regex;
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      out.push({ start: m.index, end: m.index + m[0].length, meta: anywhere.terms[groupOf(m)]! });
      // Step one code point, never into the middle of a surrogate pair (a /u regex would step back and loop).
      regex.lastIndex = m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
    }
  }
  return out;
}

const byStart = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start - b.start || b.end - a.end;

/** Whether each match (sorted by start) lies inside one of `covers` (sorted by start): one pass, no pairs. */
function insideAny(matches: RawMatch[], covers: RawMatch[]): boolean[] {
  const inside: boolean[] = [];
  let c = 0;
  let reach = -1;
  for (const m of matches) {
    while (c < covers.length && covers[c]!.start <= m.start) reach = Math.max(reach, covers[c++]!.end);
    inside.push(reach >= m.end);
  }
  return inside;
}

function matchView(matcher: ForbiddenWordsMatcher, view: View, original: string): ForbiddenWordMatch[] {
  if (!matcher.blocked) return [];
  const found = scan(matcher.blocked, view).sort(byStart);
  if (!found.length) return [];
  const allowed = matcher.allowed ? insideAny(found, scan(matcher.allowed, view).sort(byStart)) : [];
  const out: ForbiddenWordMatch[] = [];
  found.forEach((m, k) => {
    if (allowed[k]) return;
    const start = view.starts[m.start]!;
    const end = view.ends[m.end - 1]!;
    out.push({ word: original.slice(start, end), term: m.meta.term, category: m.meta.category, start, end });
  });
  return out;
}

/**
 * All forbidden terms in `text`, in reading order, as ranges of the original string. A match that lies inside
 * another one ("menor" inside "menor de edad") is left out, so ranges can be highlighted without nesting.
 */
export function findForbiddenWords(text: string, matcher: ForbiddenWordsMatcher): ForbiddenWordMatch[] {
  if (!matcher.blocked || text.length === 0) return [];
  const view = skeleton(text);
  const matches = matchView(matcher, view, text);
  const joined = joinSpeltOut(view);
  if (joined) for (const m of matchView(matcher, joined, text)) matches.push(m);
  matches.sort(byStart);
  // Sorted by start, a match lies inside an earlier one exactly when an earlier one reaches at least as far.
  const out: ForbiddenWordMatch[] = [];
  let reach = -1;
  for (const m of matches) {
    if (m.end <= reach) continue;
    out.push(m);
    reach = m.end;
  }
  return out;
}

/** The distinct offending words of a list of matches, in reading order (what a form lists or highlights). */
export function distinctWords(matches: ForbiddenWordMatch[]): string[] {
  return [...new Set(matches.map((m) => m.word))];
}

/** The check's answer (POST API.checkForbiddenWords): whether `text` passes, the words it hit, and where. */
export function checkText(text: string, matcher: ForbiddenWordsMatcher): ForbiddenWordsResult {
  const matches = findForbiddenWords(text, matcher);
  return { ok: matches.length === 0, words: distinctWords(matches), matches };
}
