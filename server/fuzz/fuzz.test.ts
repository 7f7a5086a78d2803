/**
 * Fuzz suite: every route registered in the running app (read from Fastify's route tree, so a route added later is
 * fuzzed the day it is registered) gets seeded, generated bad input, anonymously and as a signed-in user of each role:
 * wrong types, huge/empty strings, NUL and control characters, lone surrogates, RTL, emoji, deep nesting,
 * non-canonical/huge/negative ids, wrong content types, malformed JSON and multipart, mismatched Content-Length, bad
 * percent-escapes in the query and in headers, re-spelled paths, and a few raw requests over a socket (absolute-form
 * targets, dot segments, bad escapes) that app.inject cannot send.
 *
 * Asserted for every request: never a 5xx; no stack trace or SQL in the body; a request built to be refused (bad
 * token, malformed body, id that names nothing, …) is a 4xx; a non-canonical spelling of an existing id never answers
 * that record; error answers come in the envelope; and the database is unchanged — row triggers on every table keep a
 * change log, read after every state-changing request (and after every 10 reads), and the whole database is hashed
 * before and after the run as a cross-check. Only a 2xx may change it: a spoiled body can still be valid for a route
 * that reads no body (sign-out) or strips what it does not know, and then the change is legitimate.
 *
 * FUZZ_SEED=<n> replays a run (the seed is printed); FUZZ_REQUESTS=<n> changes the number of requests (≥ 5,000 by
 * default). The default seed is fixed so CI is stable; vary it locally with FUZZ_SEED=$RANDOM.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { users } from '#server/db/schema.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { SESSION_COOKIE } from '#server/plugins/session.ts';
import { newAgent, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { routesOf, type RegisteredRoute } from '#tests/routes.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../modules/media/test-helpers.ts';
import { changeCounts, changedTables, fingerprint, installChangeLog, listTables, type Fingerprint } from './db-fingerprint.ts';
import {
  BAD_IDS,
  BAD_TOKENS,
  MALFORMED_JSON,
  MISSING_IDS,
  UNPARSED_TYPES,
  Rng,
  badQuery,
  badString,
  deepJson,
  deepNesting,
  encodeWtf,
  isNonCanonicalSpelling,
  malformedMultipart,
  objectSchemasOf,
  queryKeys,
  respell,
  spoiledBody,
} from './generate.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5600);
/** FUZZ_VERBOSE=1 also prints the answers' statuses route by route (to see how deep the requests got). */
const VERBOSE = !!process.env.FUZZ_VERBOSE;
/** Raw-socket requests, on top of REQUESTS. */
const RAW_REQUESTS = 120;

type Role = 'client' | 'model' | 'publicist' | 'admin' | 'super_admin';
type Who = Role | 'anonymous';
const ROLES: Role[] = ['client', 'model', 'publicist', 'admin', 'super_admin'];
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a monitor or a browser opening the API reference calls without X-Requested-With (plugins/security.ts). */
const XHR_EXEMPT = /^\/api\/(health|ready|openapi\.json|docs)(?:[/?]|$)/;

/**
 * Tables a refused request may legitimately change, and why. Nothing else may change without a 2xx.
 * - idempotency_keys: a request carrying an Idempotency-Key records its answer, refusals included (a replay must get
 *   the same refusal), by design of plugins/idempotency.ts.
 */
const IGNORED_TABLES = new Set(['idempotency_keys']);
/**
 * - ignoredColumns: a signed-in request touches its session's sliding expiry (plugins/session.ts), whatever the answer.
 * - countOnly (only rows added or removed count): a data export that an accepted request asked for is built in the
 *   background, so its row moves from pending to ready at some later moment, during whatever request runs then.
 */
const FP = {
  ignoredColumns: { sessions: ['last_seen_at', 'expires_at'] },
  countOnly: new Set(['data_exports']),
};

/** Who a route is for, by where it lives: the signed-in role its authorised requests mostly use. */
function roleFor(path: string): Role {
  if (path.startsWith('/api/super-admin/') || path === '/api/admin/create') return 'super_admin';
  if (path.startsWith('/api/admin/')) return 'admin';
  if (path.startsWith('/api/publicist/') || path === '/api/profile/publicist') return 'publicist';
  if (/^\/api\/(profile\/model|ad\/|upload\/|media\/|change-cover|model\/|getImagesByAd|getCoverImage)/.test(path)) return 'model';
  return 'client';
}

interface Case {
  who: Who;
  method: string;
  /** The route it targets (template). */
  route: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Why this request must be refused (4xx), or null when the route might accept it. */
  bad: string | null;
  /** Set when the path spells an existing id non-canonically: the answer must not be a 2xx. */
  nonCanonicalId: boolean;
  kind: string[];
}

interface Failure {
  c: Case;
  status: number;
  body: string;
  why: string;
}

let t: TestApp;
/** Anonymous, but with a CSRF token of its own like a visitor's browser: its requests reach validation. */
let anonymous: Agent;
const agents = {} as Record<Role, Agent>;
const userIds = {} as Record<Role, number>;
let realIds: number[] = [];
let realAdId = 0;
/** Real credentials, sent where only a guard stands between the request and a sign-in: a bypass would answer 200. */
let victim = { email: '', password: 'Fuzz victim secret 2026!' };
let schemas: ReturnType<typeof objectSchemasOf> = [];
/** Every cookie name the app has set on the agents (session, XSRF, language, known device, …). */
let cookieNames: string[] = [];
let keys: string[] = [];

async function signIn(role: Role): Promise<void> {
  agents[role] = await loginAs(t.app, t.database.db, userIds[role]);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // The demo accounts (seeded as `npm start` does), but a model of its own with an ad and photos, so the model's routes
  // reach past "no ad".
  const demo = {
    client: 'client@vitrina.test',
    publicist: 'publicist@vitrina.test',
    admin: 'admin@vitrina.test',
    super_admin: 'superadmin@vitrina.test',
  };
  for (const [role, email] of Object.entries(demo) as Array<[Role, string]>) {
    const [u] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    userIds[role] = u!.id;
  }
  const m = await buildModel(db, { name: 'Modelo Fuzz', photos: 2 });
  userIds.model = m.userId;
  realAdId = m.adId;
  realIds = [1, 2, 3, m.profileId, m.adId, ...m.mediaIds];
  const v = await buildUser(db, { role: 'client' });
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(victim.password) })
    .where(eq(users.id, v.id));
  victim = { ...victim, email: v.email };
  const other = await buildPublicist(db);
  realIds.push(other.publicistId, other.userId);
  realIds = [...new Set(realIds)];
  for (const role of ROLES) await signIn(role);
  anonymous = await newAgent(t.app);
  cookieNames = [...new Set(['lang', ...[anonymous, ...Object.values(agents)].flatMap((a) => [...a.cookies.keys()])])].sort();

  const contractDir = path.resolve(import.meta.dirname, '../../contract');
  const modules = await Promise.all(
    fs
      .readdirSync(contractDir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => import(path.join(contractDir, f)) as Promise<Record<string, unknown>>),
  );
  schemas = objectSchemasOf(modules);
  keys = queryKeys(schemas);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function fillParams(route: string, r: Rng): { url: string; bad: string | null; nonCanonical: boolean; kind: string } {
  let bad: string | null = null;
  let nonCanonical = false;
  let kind = '';
  const url = route.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'id' || r.chance(0.3)) {
      const spelled = r.chance(0.65);
      const template = spelled ? r.pick(BAD_IDS) : r.pick(MISSING_IDS);
      const real = r.pick(realIds);
      if (isNonCanonicalSpelling(template) && real !== 0) nonCanonical = true;
      bad = spelled ? `path :${name} ${template}` : `path :${name} names nothing`;
      kind = spelled ? 'bad id' : 'missing id';
      return template.replaceAll('{real}', String(real));
    }
    // Other parameters (a token, a language, an on/off value): garbage.
    bad = `path :${name} garbage`;
    kind = 'bad param';
    const v = r.chance(0.5) ? r.pick(BAD_TOKENS) : badString(r).slice(0, 150);
    return encodeWtfPath(v || 'x');
  });
  return { url, bad, nonCanonical, kind };
}

/** A path segment as a client could put it on the wire: the bad escapes of BAD_TOKENS stay as they are. */
function encodeWtfPath(v: string): string {
  return v.replace(/[^A-Za-z0-9%._~-]+/g, (run) => encodeWtf(run));
}

/**
 * Field names each route has named in its 422 answers so far. Bodies for a route are then built from the contract
 * schemas sharing most of those names (its own, most likely), so spoiling one field of an otherwise plausible body
 * reaches the handler's deeper checks and queries. The answers are deterministic, so a seed still replays.
 */
const learned = new Map<string, Set<string>>();

function learn(routeKey: string, res: LightMyRequestResponse): void {
  if (res.statusCode !== 422) return;
  let errors: unknown;
  try {
    errors = (JSON.parse(res.body) as { errors?: unknown }).errors;
  } catch {
    return;
  }
  if (!errors || typeof errors !== 'object') return;
  const names = learned.get(routeKey) ?? new Set<string>();
  for (const k of Object.keys(errors)) names.add(k.split('.')[0]!);
  learned.set(routeKey, names);
}

function schemasFor(routeKey: string): typeof schemas {
  const names = learned.get(routeKey);
  if (!names?.size) return schemas;
  const overlap = (s: (typeof schemas)[number]) => Object.keys(s.shape).filter((k) => names.has(k)).length;
  const best = Math.max(...schemas.map(overlap));
  return best > 0 ? schemas.filter((s) => overlap(s) === best) : schemas;
}

function makeCase(route: RegisteredRoute, r: Rng): Case {
  // Now and then another method on the route's path (mostly one it does not have: a 404 in the envelope).
  const otherMethod = r.chance(0.03);
  const method = otherMethod ? r.pick(['OPTIONS', 'PATCH', 'PUT', 'DELETE', 'TRACE', 'PROPFIND', 'SEARCH', 'POST']) : route.method;
  const stateChanging = !SAFE.has(method);
  const who: Who = r.chance(0.35) ? 'anonymous' : r.chance(0.75) ? roleFor(route.path) : r.pick(ROLES);
  const kind: string[] = [who];
  if (otherMethod) kind.push('other method');
  const reasons: string[] = [];
  const headers: Record<string, string> = {};

  // Path.
  let url: string;
  let nonCanonicalId = false;
  if (route.path === '*') {
    url = `/${encodeWtfPath(badString(r).slice(0, 100) || 'x')}`;
    kind.push('spa path');
  } else {
    const filled = fillParams(route.path, r);
    url = filled.url;
    nonCanonicalId = filled.nonCanonical;
    if (filled.bad) reasons.push(filled.bad);
    if (filled.kind) kind.push(filled.kind);
  }
  let respelled = false;
  if (route.path !== '*' && r.chance(0.08)) {
    const v = respell(url, r);
    url = v.path;
    respelled = true;
    kind.push(v.kind);
  }
  if (r.chance(0.4)) {
    // Mostly the names this route has answered 422 about (its own query fields), else any the contract knows.
    const own = [...(learned.get(`${method} ${route.path}`) ?? [])];
    url += `?${badQuery(r, own.length && r.chance(0.6) ? own : keys)}`;
    kind.push('query');
  }

  // Guards: XHR header and CSRF token. The agent adds both; these override them.
  const guard = r.int(20);
  if (respelled && stateChanging) {
    // A re-spelled path must not skip the guards: no valid token comes with it.
    headers['x-xsrf-token'] = r.pick(BAD_TOKENS);
    reasons.push('re-spelled path without a valid CSRF token');
  } else if (guard === 0) {
    headers['x-xsrf-token'] = r.pick(BAD_TOKENS);
    kind.push('bad xsrf header');
    if (stateChanging) reasons.push('bad X-XSRF-TOKEN');
  } else if (guard === 1) {
    headers['x-requested-with'] = r.pick(['', 'fetch', 'XMLHttpRequest ', 'xmlhttprequest']);
    kind.push('bad xhr header');
    if (url.startsWith('/api/') && !XHR_EXEMPT.test(url)) reasons.push('no X-Requested-With');
  } else if (guard === 2) {
    headers.cookie = `XSRF-TOKEN=${r.pick(BAD_TOKENS)}; ${SESSION_COOKIE}=${r.pick(BAD_TOKENS)}`;
    kind.push('bad cookies');
    if (stateChanging) reasons.push('forged cookies');
  } else if (guard === 3) {
    // Any other cookie the app reads (language, known device, …) with a value it never issued.
    const name = r.pick(cookieNames);
    headers.cookie = `${name}=${encodeWtf(r.chance(0.5) ? r.pick(BAD_TOKENS) : badString(r).slice(0, 300))}`;
    kind.push(`bad cookie ${name}`);
  } else if (guard === 4 && stateChanging) {
    // The token sent twice: Node joins repeated headers into one value, which is no token.
    const token = (c0: Who) => (c0 === 'anonymous' ? anonymous : agents[c0]).cookies.get('XSRF-TOKEN') ?? 'x';
    headers['x-xsrf-token'] = [token(who), token(who)] as unknown as string;
    kind.push('repeated xsrf header');
    reasons.push('X-XSRF-TOKEN sent twice');
  }
  // Other headers a client controls.
  if (r.chance(0.25)) {
    const h = r.pick([
      'accept-language',
      'idempotency-key',
      'x-forwarded-for',
      'user-agent',
      'range',
      'if-none-match',
      'if-modified-since',
      'origin',
      'referer',
      'authorization',
      'accept',
      'x-locale',
      'content-encoding',
      'transfer-encoding',
      'expect',
    ]);
    const v =
      h === 'content-encoding'
        ? r.pick(['gzip', 'br', 'deflate', 'x-unknown', 'gzip, gzip', 'identity, br'])
        : r.chance(0.6)
          ? r.pick(BAD_TOKENS)
          : badString(r).slice(0, 500);
    // A header value cannot carry characters outside visible Latin-1 on the wire (Node refuses to send them).
    headers[h] = v.replace(/[^\x20-\x7e\x80-\xff]/g, '?');
    kind.push(`header ${h}`);
    if (h === 'idempotency-key' && stateChanging && !/^[A-Za-z0-9_-]{8,64}$/.test(headers[h])) reasons.push('bad Idempotency-Key');
  }

  // Body.
  let payload: string | Buffer | undefined;
  if (stateChanging || r.chance(0.1)) {
    const b = r.int(24);
    if (b < 3) {
      headers['content-type'] = r.pick(['application/json', 'application/json; charset=utf-8']);
      payload = r.pick(MALFORMED_JSON);
      reasons.push('malformed JSON');
      kind.push('malformed json');
    } else if (b < 5) {
      headers['content-type'] = r.pick(UNPARSED_TYPES);
      payload = r.chance(0.5) ? r.bytes(r.int(512)) : '{"a":1}';
      reasons.push('unparsed content type');
      kind.push('wrong content type');
    } else if (b < 8 || (b < 11 && /upload|verification$/.test(route.path))) {
      const m = malformedMultipart(r, realAdId);
      headers['content-type'] = m.contentType;
      payload = m.payload;
      reasons.push(m.kind);
      kind.push(m.kind);
    } else if (b < 9) {
      const body = JSON.stringify({ a: badString(r).slice(0, 100) });
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(r.chance(0.5) ? body.length + 1 + r.int(1000) : Math.max(0, body.length - 1 - r.int(body.length)));
      payload = body;
      reasons.push('Content-Length mismatch');
      kind.push('content-length mismatch');
    } else if (b < 10) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify({ a: 'x'.repeat(1024 * 1024 + r.int(1000)) });
      reasons.push('body over the limit');
      kind.push('oversize');
    } else if (b < 11) {
      headers['content-type'] = 'application/json';
      payload = '';
      reasons.push('empty JSON body');
      kind.push('empty json');
    } else if (b < 13) {
      headers['content-type'] = 'application/json';
      payload = r.chance(0.5) ? deepJson(r) : JSON.stringify(r.chance(0.5) ? deepNesting(r) : r.pick([null, 1, 'x', true, [], [{}]]));
      kind.push('json not an object');
    } else {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(spoiledBody(schemasFor(`${method} ${route.path}`), r));
      kind.push('spoiled body');
    }
  }
  return { who, method, route: route.path, url, headers, payload, bad: reasons[0] ?? null, nonCanonicalId, kind };
}

/**
 * Sent first in every run, whatever the seed: the defects found so far (issue 12 and this suite's own findings), so a
 * regression fails the suite even when a new seed would not happen to hit it.
 */
function fixedCases(): Case[] {
  const json = 'application/json';
  const c = (who: Who, method: string, url: string, bad: string | null, extra: Partial<Case> = {}): Case => ({
    who,
    method,
    route: url.split('?')[0]!,
    url,
    headers: {},
    bad,
    nonCanonicalId: false,
    kind: ['fixed', who],
    ...extra,
  });
  const contact = { name: 'Pro\u0000be', email: 'fuzz@vitrina.test', subject: 'Asunto de prueba', message: 'Un mensaje de prueba largo' };
  const boundary = 'b'.repeat(300);
  const multipart = (who: Who, url: string, contentType: string, payload: string) =>
    c(who, 'POST', url, 'malformed multipart', { headers: { 'content-type': contentType }, payload });
  return [
    // A query or JSON key named __proto__ made the error handler throw (fieldErrors built on a plain object).
    c('publicist', 'GET', '/api/publicist/models-under-responsibility?__proto__=a%00b&ground', null),
    c('admin', 'GET', '/api/admin/models?__proto__=x', null),
    c('anonymous', 'POST', '/api/contact', 'unknown key __proto__', {
      headers: { 'content-type': json },
      payload: JSON.stringify(contact).replace('{', '{"__proto__":{"x":1},'),
    }),
    // Issue 12, point 2: the guards whatever the spelling of the path, and a token pair an attacker chose.
    c('anonymous', 'POST', '/%61pi/login', 'forged token on a re-spelled path', {
      headers: { 'x-xsrf-token': 'forged', 'content-type': json },
      payload: JSON.stringify(victim),
    }),
    c('anonymous', 'POST', '/%61pi/login', 'no X-Requested-With on a re-spelled path', {
      headers: { 'x-requested-with': '', 'content-type': json },
      payload: JSON.stringify(victim),
    }),
    c('anonymous', 'POST', '/api/login', 'a cookie and header pair the attacker chose', {
      headers: { cookie: 'XSRF-TOKEN=attacker-chosen', 'x-xsrf-token': 'attacker-chosen', 'content-type': json },
      payload: JSON.stringify(victim),
    }),
    // Fastify's own refusals before routing came in its own body, echoing the target: the envelope instead.
    c('anonymous', 'GET', '/api/models/%E0%A4%A', null),
    c('anonymous', 'POST', '/api/consent/%E0%A4%A', 'a path that does not decode', { headers: { 'content-type': json }, payload: '{}' }),
    c('anonymous', 'GET', `/api/consent/${'a'.repeat(250)}`, null),
    // Issue 12, point 1.
    c('anonymous', 'POST', '/api/login', 'malformed X-XSRF-TOKEN', {
      headers: { 'x-xsrf-token': '%E0%A4%A', 'content-type': json },
      payload: '{"email":"admin@vitrina.test","password":"x"}',
    }),
    c('anonymous', 'GET', '/api/cities/search?q=a%00b', null),
    c('anonymous', 'POST', '/api/contact', null, { headers: { 'content-type': json }, payload: JSON.stringify(contact) }),
    c('super_admin', 'GET', '/api/super-admin/audit?from=2026-99-99', null),
    c('super_admin', 'GET', '/api/super-admin/audit?to=2026-13-45', null),
    c('super_admin', 'GET', '/api/super-admin/audit?actor=99999999999999999999999', null),
    // A non-canonical id must not reach the row it spells: the model's own ad, deleted by DELETE /api/ad/+N before.
    ...['%2B', '0x', '0'].map((prefix) =>
      c('model', 'DELETE', `/api/ad/${prefix}${prefix === '0x' ? realAdId.toString(16) : realAdId}`, 'non-canonical id', {
        nonCanonicalId: true,
      }),
    ),
    ...['0x3', '3e0', '+3', '%2B3', '3.0', '1e0', '0x1', '+1'].map((id) =>
      c('anonymous', 'GET', `/api/models/${id}`, null, { nonCanonicalId: true }),
    ),
    multipart(
      'model',
      '/api/upload/images',
      'multipart/form-data',
      `--x\r\nContent-Disposition: form-data; name="ad_id"\r\n\r\n${realAdId}\r\n--x--\r\n`,
    ),
    multipart(
      'model',
      '/api/upload/images',
      'multipart/form-data; boundary=wrong',
      `--x\r\nContent-Disposition: form-data; name="ad_id"\r\n\r\n${realAdId}\r\n--x--\r\n`,
    ),
    multipart(
      'model',
      '/api/upload/images',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="ad_id"\r\n\r\n${realAdId}\r\n--${boundary}--\r\n`,
    ),
    multipart('model', '/api/upload/images', 'multipart/form-data; boundary=x', '\u0000garbage\r\n--'),
    multipart(
      'model',
      '/api/upload/images',
      'multipart/form-data; boundary=x',
      `--x\r\nContent-Disposition: form-data; name="ad_id"\r\n\r\n${realAdId}\r\n--x\r\nContent-Disposition: form-data; name="images"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8`,
    ),
    multipart('model', '/api/profile/model/verification', 'multipart/form-data', '--x\r\n'),
    multipart(
      'model',
      '/api/profile/model/verification',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="code"\r\n\r\n123456\r\n--${boundary}--\r\n`,
    ),
    multipart(
      'model',
      '/api/profile/model/verification',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff',
    ),
  ];
}

const STACK = /\n\s+at [^\n]*\(|\bat [\w.<>]+ \([^)]*:\d+:\d+\)|node_modules\/|\.ts:\d+:\d+/;
const SQL =
  /\b(SELECT|INSERT INTO|UPDATE \S+ SET|DELETE FROM)\b|syntax error|violates|relation "|Failed query|invalid input syntax|out of range for type|duplicate key value|PGlite|drizzle|ECONNREFUSED/;

/** The answer envelope every error comes in (contract/answers.ts): a translated message and a stable code. */
function inEnvelope(res: LightMyRequestResponse): boolean {
  if (!/json/.test(String(res.headers['content-type']))) return false;
  try {
    const body = JSON.parse(res.body) as Record<string, unknown>;
    return body.type === 'error' && typeof body.message === 'string' && typeof body.error === 'string' && !('statusCode' in body);
  } catch {
    return false;
  }
}

/** A stack trace or SQL in the answer; SQL-looking text the request itself carried (echoed back) does not count. */
function leak(res: LightMyRequestResponse, c: Case): string | null {
  const type = String(res.headers['content-type'] ?? '');
  if (!/json|text|html/.test(type) && type !== '') return null;
  const body = res.body;
  if (STACK.test(body)) return 'stack trace in the body';
  const sent = `${c.url} ${safeDecode(c.url)} ${typeof c.payload === 'string' ? c.payload : ''} ${JSON.stringify(c.headers)}`;
  for (const m of body.matchAll(new RegExp(SQL.source, 'g')))
    if (!sent.includes(m[0])) return `SQL or database error in the body (${m[0]})`;
  return null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function show(f: Failure): string {
  const payload =
    f.c.payload === undefined
      ? ''
      : typeof f.c.payload === 'string'
        ? JSON.stringify(f.c.payload.length > 300 ? `${f.c.payload.slice(0, 300)}… (${f.c.payload.length} chars)` : f.c.payload)
        : `<${f.c.payload.length} bytes> ${JSON.stringify(f.c.payload.subarray(0, 120).toString('latin1'))}`;
  return [
    `✗ ${f.why}: ${f.c.method} ${f.c.url.slice(0, 300)} as ${f.c.who} [${f.c.kind.join(', ')}]`,
    `  headers ${JSON.stringify(f.c.headers).slice(0, 400)}`,
    payload ? `  body ${payload}` : '',
    `  → ${f.status} ${f.body.slice(0, 400)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

it(`every route, ${REQUESTS} generated bad requests (FUZZ_SEED=${SEED}): no 5xx, nothing leaked, nothing changed`, async () => {
  const started = Date.now();
  const db = t.database.db;
  const r = new Rng(SEED);
  // Reads first in each round: they are checked against the database in windows of 10, state-changing requests one
  // by one (a window never spans a state-changing request, so a change is always pinned to the right requests).
  const routes = routesOf(t.app)
    .filter((x) => x.method !== 'HEAD')
    .sort((a, b) => Number(!SAFE.has(a.method)) - Number(!SAFE.has(b.method)));
  // The parser reads the tree: a few routes every build has, and a plausible total.
  const names = routes.map((x) => `${x.method} ${x.path}`);
  for (const known of [
    'POST /api/login',
    'POST /api/upload/images',
    'GET /api/models/:id',
    'GET /api/super-admin/audit',
    'PUT /api/publicist/model/activate/:id/:value',
  ])
    expect(names).toContain(known);
  expect(routes.length).toBeGreaterThan(80);

  const all = (await listTables(db)).filter((x) => !IGNORED_TABLES.has(x));
  // The whole database is hashed before and after the run; in between, the change log triggers keep count.
  const startAll = await fingerprint(db, all, FP);
  await installChangeLog(db, all, FP);
  let baseline: Fingerprint = await changeCounts(db);

  const pending: Case[] = [];
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  const accepted = new Map<string, number>();
  const byRoute = new Map<string, Map<number, number>>();
  let sent = 0;
  const ips = Array.from({ length: 32 }, (_, i) => `10.${SEED % 200}.${i}.${(i * 7) % 250}`);

  const fail = (c: Case, res: { statusCode: number; body: string }, why: string) => {
    if (failures.length < 1000) failures.push({ c, status: res.statusCode, body: res.body, why });
  };

  const fixed = fixedCases();
  for (let i = 0; i < fixed.length + REQUESTS; i++) {
    const route = routes[(i - fixed.length + routes.length) % routes.length]!;
    const c = i < fixed.length ? fixed[i]! : makeCase(route, r);
    const opts: InjectOptions & { method: string; url: string } = {
      method: c.method,
      url: c.url,
      headers: c.headers,
      remoteAddress: r.pick(ips),
      ...(c.payload !== undefined ? { payload: c.payload } : {}),
    };
    let res: LightMyRequestResponse;
    try {
      res = await (c.who === 'anonymous' ? anonymous : agents[c.who]).request(opts);
    } catch (err) {
      fail(c, { statusCode: 0, body: String(err) }, 'inject threw');
      continue;
    }
    sent++;
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    learn(`${c.method} ${c.route}`, res);
    if (VERBOSE) {
      const perRoute = byRoute.get(`${c.method} ${c.route}`) ?? new Map<number, number>();
      perRoute.set(res.statusCode, (perRoute.get(res.statusCode) ?? 0) + 1);
      byRoute.set(`${c.method} ${c.route}`, perRoute);
    }
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    if (res.statusCode >= 500) fail(c, res, `${res.statusCode}`);
    if (res.statusCode >= 400 && (c.url.startsWith('/api/') || /json/.test(String(res.headers['content-type']))) && !inEnvelope(res))
      fail(c, res, 'error answer outside the envelope');
    const leaked = leak(res, c);
    if (leaked) fail(c, res, leaked);
    if (c.bad && !SAFE.has(c.method) && !(res.statusCode >= 400 && res.statusCode < 500)) fail(c, res, `expected a 4xx (${c.bad})`);
    // The app shell (HTML) answers any path outside /api that is no file, when a build is there: that is no record.
    const shell = /^text\/html/.test(String(res.headers['content-type'])) && !c.url.startsWith('/api/');
    if (c.nonCanonicalId && ok && !shell) fail(c, res, 'a non-canonical id answered the record');

    pending.push(c);
    if (
      !SAFE.has(c.method) ||
      pending.length >= 10 ||
      i < fixed.length ||
      !SAFE.has(routes[(i + 1 - fixed.length) % routes.length]!.method)
    ) {
      const now = await changeCounts(db);
      const changed = changedTables(baseline, now);
      if (changed.length) {
        if (ok && !SAFE.has(c.method) && !c.bad) {
          const key = `${c.method} ${c.route}`;
          accepted.set(key, (accepted.get(key) ?? 0) + 1);
        } else {
          const culprit = pending.length > 1 ? ` by one of the last ${pending.length} requests, ending with this one` : '';
          fail(c, res, `database changed (${changed.join(', ')})${culprit}`);
        }
        baseline = now;
      }
      pending.length = 0;
    }
    // An accepted request may have ended the agent's session (sign-out): sign in again, outside the comparison.
    // An accepted request may have signed the visitor in (registration): a new visitor, likewise.
    if (ok && c.who !== 'anonymous' && !agents[c.who].cookies.has(SESSION_COOKIE)) {
      await signIn(c.who);
      baseline = await changeCounts(db);
    } else if (ok && c.who === 'anonymous' && anonymous.cookies.has(SESSION_COOKIE)) {
      anonymous = await newAgent(t.app);
      cookieNames = [...new Set(['lang', ...[anonymous, ...Object.values(agents)].flatMap((a) => [...a.cookies.keys()])])].sort();
    }
  }

  // Raw requests over a socket: request targets app.inject normalises away.
  const raw = await rawRequests(r);
  for (const x of raw) {
    sent++;
    statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
    if (
      x.status >= 500 ||
      x.status === 0 ||
      (x.mustRefuse && !(x.status >= 400 && x.status < 500)) ||
      STACK.test(x.body) ||
      SQL.test(x.body)
    )
      fail(
        x.c,
        { statusCode: x.status, body: x.body },
        x.status >= 500 || x.status === 0
          ? `${x.status} (raw)`
          : x.mustRefuse && !(x.status >= 400 && x.status < 500)
            ? 'expected a 4xx (raw)'
            : 'leak (raw)',
      );
  }
  const afterRaw = await changeCounts(db);
  const rawChanged = changedTables(baseline, afterRaw);
  if (rawChanged.length) fail(raw[0]!.c, { statusCode: 0, body: '' }, `database changed (${rawChanged.join(', ')}) by the raw requests`);

  // Cross-check: every table whose contents differ from the start was seen changing (and each change was judged).
  const endAll = await fingerprint(db, all, FP);
  const logged = await changeCounts(db);
  const unseen = changedTables(startAll, endAll).filter((x) => !logged.has(x));
  if (unseen.length)
    fail(
      fixed[0]!,
      { statusCode: 0, body: '' },
      `tables changed without the change log seeing it (${unseen.join(', ')}), over the whole run`,
    );

  const counts = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const acceptedText = accepted.size ? ` · accepted with a change: ${[...accepted.entries()].map(([k, n]) => `${k}×${n}`).join(', ')}` : '';
  console.log(
    `fuzz: FUZZ_SEED=${SEED} · ${sent} requests over ${routes.length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s · ${counts}${acceptedText}`,
  );
  if (VERBOSE)
    console.log(
      [...byRoute.entries()]
        .map(
          ([k, m]) =>
            `${k}: ${[...m.entries()]
              .sort(([a], [b]) => a - b)
              .map(([st, n]) => `${st}×${n}`)
              .join(' ')}`,
        )
        .join('\n'),
    );
  if (failures.length) {
    const byWhy = new Map<string, number>();
    for (const f of failures) {
      const key = `${f.why.replace(/\(.*$/, '').trim()} ${f.c.method} ${f.c.route}`;
      byWhy.set(key, (byWhy.get(key) ?? 0) + 1);
    }
    console.log(
      `fuzz: ${failures.length}${failures.length >= 1000 ? '+' : ''} failures (replay with FUZZ_SEED=${SEED}); by kind and route:\n` +
        [...byWhy.entries()].map(([k, n]) => `  ${n}× ${k}`).join('\n') +
        '\nfirst ones:\n' +
        failures.slice(0, 8).map(show).join('\n'),
    );
  }
  expect(sent).toBeGreaterThanOrEqual(Math.min(5000, REQUESTS));
  expect(failures.map((f) => `${f.why}: ${f.c.method} ${f.c.url.slice(0, 120)}`).slice(0, 20)).toEqual([]);
}, 300_000);

// ---- raw socket requests -----------------------------------------------------------------------------------------

interface RawResult {
  c: Case;
  status: number;
  body: string;
  mustRefuse: boolean;
}

/** Targets only a raw client sends: absolute-form, dot segments, bad escapes, NUL, backslashes. */
async function rawRequests(r: Rng): Promise<RawResult[]> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = new URL(address);
  const targets = [
    'http://localhost/api/login',
    `http://127.0.0.1:${port}/api/logout`,
    'HTTP://LOCALHOST/api/contact',
    'https://evil.test/api/register',
    '//api/login',
    '/api/../api/login',
    '/api/./login',
    '/api/%2e%2e/api/login',
    '/%61pi/login',
    '/%61%70%69/forgot-password',
    '/api\\login',
    '/api/login%00',
    '/api/%E0%A4%A',
    '/api/login%',
    '/api/cities/search?q=a%00b',
    '/api/models/0x1',
    '/api/models/%2B1',
    '*',
    'api/login',
    '/api/login#frag',
  ];
  const out: RawResult[] = [];
  try {
    for (let i = 0; i < RAW_REQUESTS; i++) {
      const target = targets[i % targets.length]!;
      const method = target.includes('search') || target.includes('models') ? 'GET' : r.pick(['POST', 'PUT', 'DELETE', 'PATCH']);
      const body = JSON.stringify(victim);
      const lines = [
        `${method} ${target} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'X-Requested-With: XMLHttpRequest',
        // A pair an attacker chose: never a valid signed token.
        `Cookie: XSRF-TOKEN=${r.pick(['attacker', 'a.b', '%E0%A4%A'])}`,
        `X-XSRF-TOKEN: ${r.pick(['attacker', 'a.b', '%E0%A4%A'])}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ];
      const c: Case = {
        who: 'anonymous',
        method,
        route: 'raw',
        url: target,
        headers: {},
        payload: body,
        bad: 'raw',
        nonCanonicalId: false,
        kind: ['raw socket'],
      };
      const { status, text } = await rawSend(port, lines.join('\r\n'));
      out.push({ c, status, body: text, mustRefuse: method !== 'GET' });
    }
  } catch (err) {
    out.push({
      c: { who: 'anonymous', method: 'RAW', route: 'raw', url: '', headers: {}, bad: 'raw', nonCanonicalId: false, kind: [] },
      status: 0,
      body: String(err),
      mustRefuse: true,
    });
  }
  return out;
}

function rawSend(port: string, request: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text: text.split('\r\n\r\n').slice(1).join('\r\n\r\n') });
    };
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.write(request);
  });
}
