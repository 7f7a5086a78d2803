/**
 * Seeded generators of hostile input for the fuzz suite: values, JSON bodies, multipart bodies, query strings,
 * headers and path spellings. Everything comes from one PRNG, so a seed replays the exact same requests.
 */
import { z } from 'zod';

/** mulberry32: small, fast, and the same sequence on every platform for a given seed. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}

/** Numbers at and past the edges of PostgreSQL's integer types, and JavaScript's safe integers. */
export const BIG_NUMBERS: readonly number[] = [
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  9007199254740991,
  -9007199254740991,
  2 ** 63,
  1e23,
  -1,
  0,
  1.5,
];

/** Strings a careful server refuses or stores harmlessly, never a 500. */
export const BAD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\r\n',
  'a\u0000b',
  '\u0000',
  'Pro\u0000be',
  '\u0001\u0002\u0007\u0008\u001b[31m\u007f',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שלום',
  '👩‍👩‍👧‍👦🏳️‍🌈💩',
  '\u200b\u200c\u200d\ufeff',
  'e\u0301'.repeat(300),
  '\uffff\ufffe',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "%' AND 1=(SELECT 1) --",
  '%_\\',
  '$1 $2 ?',
  '../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '__proto__',
  'constructor',
  '0x3',
  '3e0',
  '+3',
  '1.5',
  '-1',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '1e309',
  '2026-99-99',
  '2026-13-45',
  '0000-00-00T99:99:99Z',
  'true',
  'null',
  '%E0%A4%A',
  '%00',
  'a@',
  '@b.c',
  'a'.repeat(5000),
];

/** Path ids that are not a canonical decimal id of an existing row. `{real}` is replaced by an id that does exist. */
export const BAD_IDS: readonly string[] = [
  '0',
  '-1',
  '-{real}',
  '0x{real}',
  '{real}e0',
  '+{real}',
  '{real}.0',
  '{real}.5',
  '0{real}',
  '{real}%20',
  '%20{real}',
  '{real}%00',
  '１',
  '٣',
  '99999999999999999999999',
  '2147483648',
  '9007199254740993',
  '-9223372036854775809',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'abc',
  '%E0%A4%A',
  '%ZZ',
  '%C0%AE',
  '%2e%2e',
  '__proto__',
  "1'--",
  'a'.repeat(199),
];

/** Ids that are canonical but name nothing: they reach the handler, which must answer 404. */
export const MISSING_IDS: readonly string[] = ['2147483647', '999999', '123456789'];

/** Non-canonical spellings of an existing id: they must never answer that record. */
export function isNonCanonicalSpelling(template: string): boolean {
  return template.includes('{real}') && template !== '{real}';
}

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat('\u007f', '\u0085', '\u2028', '\u2029');

export function badString(r: Rng): string {
  switch (r.int(6)) {
    case 0: {
      // A huge string: most fields cap their length, some columns are unbounded text.
      const unit = r.pick(['a', 'é', '😀', '\u0000', ' ', '%']);
      return unit.repeat(r.pick([256, 1025, 20_000, 100_000]));
    }
    case 1: {
      // Random code units, lone surrogates included.
      let s = '';
      const n = 1 + r.int(40);
      for (let i = 0; i < n; i++) s += String.fromCharCode(r.int(0x10000));
      return s;
    }
    case 2:
      return `${r.pick(['Nombre', 'test', 'x'])}${r.pick(CONTROL)}${r.pick(['válido', 'name', ''])}`;
    default:
      return r.pick(BAD_STRINGS);
  }
}

/** Any JSON value of a type a field probably does not expect. */
export function badValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 8 : 11)) {
    case 0:
      return null;
    case 1:
      return r.pick([true, false]);
    case 2:
      return r.pick([0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 1, 1e23, 2147483648, 5e-324]);
    case 3:
    case 4:
    case 5:
      return badString(r);
    case 6:
      return r.int(1_000_000);
    case 7:
      return r.pick([[], {}, [null], [''], { $ne: null }, JSON.parse('{"__proto__":{"admin":true}}') as unknown]);
    case 8:
      return Array.from({ length: r.int(4) }, () => badValue(r, depth + 1));
    case 9:
      return Object.fromEntries(Array.from({ length: r.int(4) }, () => [badString(r).slice(0, 40), badValue(r, depth + 1)]));
    default:
      return deepNesting(r);
  }
}

/** Arrays or objects nested deep (as a value: shallow enough for the test's own JSON.stringify). */
export function deepNesting(r: Rng): unknown {
  const depth = r.pick([64, 500]);
  let v: unknown = r.pick([1, 'x', null]);
  const asArray = r.chance(0.5);
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** JSON text nested deeper than any recursive parser, validator or serializer survives. */
export function deepJson(r: Rng): string {
  const depth = r.pick([1000, 10_000, 100_000]);
  const key = r.pick(['a', 'name', 'email', 'ad_id']);
  return r.chance(0.5) ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

// ---- zod-aware bodies: the contract's own field names, with plausible values and at least one bad one -----------

type AnyZod = z.ZodType;
interface Def {
  type: string;
  innerType?: AnyZod;
  in?: AnyZod;
  out?: AnyZod;
  shape?: Record<string, AnyZod>;
  element?: AnyZod;
  options?: AnyZod[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  format?: string;
  checks?: Array<{ _zod: { def: { check: string; minimum?: number; value?: number; format?: string } } }>;
}
const defOf = (s: AnyZod): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every object schema exported by the contract modules given. */
export function objectSchemasOf(modules: ReadonlyArray<Record<string, unknown>>): Array<z.ZodObject> {
  const out: z.ZodObject[] = [];
  for (const mod of modules) for (const value of Object.values(mod)) if (value instanceof z.ZodObject) out.push(value);
  return out;
}

/** Values that pass the usual checks of a field by its name (a strong password, a phone, a date of birth, …). */
const KEY_HINTS: Record<string, string> = {
  password: 'Vitrina-fuzz-secret-2026!',
  password_confirmation: 'Vitrina-fuzz-secret-2026!',
  current_password: 'Vitrina-fuzz-secret-2026!',
  phone: '612345678',
  whatsapp: '612345678',
  phone_country: 'ES',
  birth_date: '1990-05-17',
  locale: 'es',
  language: 'es',
  path: '/es',
  code: '123456',
  tax_id: 'B12345678',
};

/** A value a schema would probably accept (a best effort: only a starting point that is then spoiled). */
export function plausible(schema: AnyZod, r: Rng, depth = 0, key = ''): unknown {
  const def = defOf(schema);
  if (def.type === 'string' && KEY_HINTS[key]) return KEY_HINTS[key];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return plausible(def.innerType!, r, depth, key);
    case 'pipe':
      return plausible(def.in!, r, depth, key);
    case 'string': {
      const fmt = def.format ?? def.checks?.map((c) => c._zod.def.format).find(Boolean);
      if (fmt === 'email') return `fuzz-${r.int(1e6)}@vitrina.test`;
      if (fmt === 'url') return 'https://example.test/';
      if (fmt === 'uuid') return '00000000-0000-4000-8000-000000000000';
      const min = Math.max(0, ...(def.checks ?? []).map((c) => c._zod.def.minimum ?? 0));
      return 'Texto de prueba correcto'.padEnd(Math.min(min, 200), '.');
    }
    case 'number':
    case 'int':
      return 1;
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'date':
      return '2026-01-01';
    case 'enum':
      return r.pick(Object.values(def.entries ?? { a: 'a' }));
    case 'literal':
      return def.values?.[0] ?? null;
    case 'array':
      return depth > 3 ? [] : [plausible(def.element!, r, depth + 1)];
    case 'object':
      if (depth > 3) return {};
      return Object.fromEntries(
        Object.entries(def.shape ?? {})
          // Optional fields mostly left out: a honeypot or an optional timestamp filled in would end the request early.
          .filter(([, v]) => defOf(v).type !== 'optional' || r.chance(0.3))
          .map(([k, v]) => [k, plausible(v, r, depth + 1, k)]),
      );
    case 'union':
      return plausible(r.pick(def.options ?? [z.string()]), r, depth);
    default:
      return 'x';
  }
}

/**
 * A body shaped like one of the contract's objects with at least one field spoiled (wrong type, NUL, huge, …), and
 * sometimes an extra unknown key. Not guaranteed to be refused by every route (it may be another route's shape, or a
 * route that reads no body): the suite checks the database around each such request instead.
 */
export function spoiledBody(schemas: readonly z.ZodObject[], r: Rng): unknown {
  const schema = r.pick(schemas);
  const body = plausible(schema, r) as Record<string, unknown>;
  const keys = Object.keys(body);
  const spoil = keys.length === 0 ? 1 : 1 + r.int(Math.min(3, keys.length));
  for (let i = 0; i < spoil; i++) {
    const key = keys.length ? r.pick(keys) : badString(r).slice(0, 20);
    if (typeof body[key] === 'number' && r.chance(0.6)) {
      // Whole numbers a schema may let through but a PostgreSQL integer column cannot hold.
      body[key] = r.pick(BIG_NUMBERS);
      continue;
    }
    const before = typeof body[key] === 'string' ? body[key] : 'Texto';
    const roll = r.next();
    // NUL gets a share of its own: it is the one character PostgreSQL refuses in text.
    body[key] =
      roll < 0.35
        ? badValue(r)
        : roll < 0.7
          ? `${before.slice(0, 5)}\u0000${before.slice(5)}`
          : `${before}${r.pick(CONTROL)}${badString(r).slice(0, 50)}`;
  }
  if (r.chance(0.2)) {
    // An own property even for `__proto__` (plain assignment would set the prototype and vanish from the JSON).
    Object.defineProperty(body, r.pick(['__proto__', 'constructor', 'role', 'id', 'status', 'user_id']), {
      value: badValue(r),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return body;
}

// ---- raw bodies that are malformed whatever the route -------------------------------------------------------------

export const MALFORMED_JSON: readonly string[] = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  '{"a":1}garbage',
  'nul',
  'undefined',
  '{"a":"\\u00"}',
  '{"a":"\\x41"}',
  '{"a":NaN}',
  '{"a":01}',
  '\u0000',
  '{"a":"b"\u0000}',
  '{"__proto__":',
  '[' + '['.repeat(10000),
];

/** Content types no route parses: the body must be refused before any handler. */
export const UNPARSED_TYPES: readonly string[] = [
  'application/xml',
  'application/x-www-form-urlencoded',
  'image/jpeg',
  'application/octet-stream',
  'application/json-patch+json; charset=utf-32',
  'text/html',
  'multipart/mixed; boundary=x',
  'application/vnd.api+json',
];

export function malformedMultipart(r: Rng): { contentType: string; payload: Buffer; kind: string } {
  const boundary = `fuzz${r.int(1e9)}`;
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const filePart = (name: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${r.pick(['a.jpg', '../../x.jpg', 'a\u0000.png', '😀.webp', ''])}"\r\nContent-Type: ${r.pick(['image/jpeg', 'image/png', 'text/plain', 'image/svg+xml'])}\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    ]);
  const complete = Buffer.concat([
    Buffer.from(part(r.pick(['ad_id', 'code', 'x']), r.pick(['1', '0x1', 'a\u0000', '99999999999999999999999', '']))),
    filePart(r.pick(['images', 'photo', 'file']), r.bytes(r.pick([0, 16, 2048]))),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  switch (r.int(7)) {
    case 0:
      return { kind: 'multipart without boundary', contentType: 'multipart/form-data', payload: complete };
    case 1:
      return { kind: 'multipart with another boundary', contentType: 'multipart/form-data; boundary=other', payload: complete };
    case 2: {
      const long = 'b'.repeat(300);
      return {
        kind: 'multipart with a 300-character boundary',
        contentType: `multipart/form-data; boundary=${long}`,
        payload: Buffer.from(`--${long}\r\nContent-Disposition: form-data; name="ad_id"\r\n\r\n1\r\n--${long}--\r\n`),
      };
    }
    case 3:
      return { kind: 'multipart garbage', contentType: `multipart/form-data; boundary=${boundary}`, payload: r.bytes(1 + r.int(4096)) };
    case 4:
      return {
        kind: 'multipart truncated',
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: complete.subarray(0, 1 + r.int(complete.length - 1)),
      };
    case 5:
      return {
        kind: 'multipart with a broken header',
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=\r\n\r\nx\r\n--${boundary}--\r\n`),
      };
    default:
      return {
        kind: 'multipart with undecodable image',
        contentType: `multipart/form-data; boundary=${boundary}`,
        payload: complete,
      };
  }
}

// ---- query strings, headers, path spellings --------------------------------------------------------------------

const QUERY_KEYS = [
  'q',
  'page',
  'per_page',
  'status',
  'from',
  'to',
  'actor',
  'action',
  'section',
  'city',
  'state',
  'sort',
  'lng',
  'id',
  'role',
  'search',
  'filter',
  'limit',
  'offset',
  'token',
  'email',
];

/** Query-string keys: the common ones plus every field name the contract knows. */
export function queryKeys(schemas: readonly z.ZodObject[]): string[] {
  return [...new Set([...QUERY_KEYS, ...schemas.flatMap((s) => Object.keys(s.shape))])];
}

/** A raw query string (already on the wire: bad escapes stay bad). */
export function badQuery(r: Rng, keys: readonly string[]): string {
  const parts: string[] = [];
  const n = 1 + r.int(4);
  for (let i = 0; i < n; i++) {
    const key = r.chance(0.9) ? r.pick(keys) : r.pick(['%', '%E0%A4%A', 'a[b][c]', 'a[]', '__proto__', '']);
    const value = r.chance(0.3)
      ? r.pick(['%', '%E0%A4%A', '%00', '%ZZ', '%C0%80', '%ED%A0%80', '%F4%90%80%80', '&&&', '=', '+', '%2B3', 'a%00b'])
      : encodeWtf(
          String(r.chance(0.4) ? badString(r) : r.chance(0.5) ? r.pick(BIG_NUMBERS) : r.pick(BAD_IDS).replace('{real}', '1')).slice(
            0,
            3000,
          ),
        );
    parts.push(r.chance(0.1) ? key : `${key}=${value}`);
  }
  if (r.chance(0.1)) parts.push(parts[0]!); // repeated key: an array where a string is expected
  return parts.join('&');
}

/** encodeURIComponent that does not throw on lone surrogates (they go out as the raw WTF-8 bytes a client could send). */
export function encodeWtf(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff && !(c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00)) {
      out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else {
      out += encodeURIComponent(s[i]!);
    }
  }
  return out;
}

/** Header values that must not break a guard or a parser. Header values cannot carry raw CR/LF/NUL on the wire. */
export const BAD_TOKENS: readonly string[] = [
  '%E0%A4%A',
  '%',
  '%ZZ',
  '%00',
  '%C0%80',
  '',
  ' ',
  'a'.repeat(8000),
  'null',
  'undefined',
  '..',
  'x.y.z',
  '.',
  'Ünïcödé',
  '😀',
];

/** The path with one character spelled as a percent-escape, or another spelling that normalises to it. */
export function respell(path: string, r: Rng): { path: string; kind: string } {
  const letters = [...path].map((c, i) => ({ c, i })).filter(({ c }) => /[a-z]/.test(c));
  switch (r.int(5)) {
    case 0:
    case 1: {
      const { c, i } = r.pick(letters);
      const hex = c.charCodeAt(0).toString(16);
      return { path: `${path.slice(0, i)}%${r.chance(0.5) ? hex : hex.toUpperCase()}${path.slice(i + 1)}`, kind: 'percent-encoded path' };
    }
    case 2:
      return { path: path.replace(/^\/api\//, '/API/'), kind: 'upper-case path' };
    case 3:
      return { path: `${path}/`, kind: 'trailing slash' };
    default:
      return { path: path.replace('/', '/%2F'), kind: 'encoded slash' };
  }
}
