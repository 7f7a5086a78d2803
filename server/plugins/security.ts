/**
 * Cheap request guards for /api and /broadcasting, as Laravel/Sanctum clients expect them:
 * - `X-Requested-With: XMLHttpRequest` on every /api and /broadcasting call (a plain form post or <img> cannot set it);
 * - the XSRF-TOKEN cookie echoed as X-XSRF-TOKEN on every state-changing request (double submit);
 *   419 "page expired" otherwise, which the client answers by fetching a new token and retrying once.
 *
 * The token is a *signed* double-submit token (OWASP): `nonce.HMAC(APP_KEY, binding|nonce)`, where the binding is
 * the hash of the session it was issued for (or "anonymous"). A cookie and header pair an attacker chose (planted
 * through a sibling subdomain, say) does not verify, and a token issued before sign-in is dead after it: sign-in
 * and sign-out issue a new one in the same answer (session.ts).
 *
 * Both guards decide on the canonical path (canonicalUrl, applied by Fastify's rewriteUrl before routing), so
 * `/%61pi/login` or an absolute-form target `http://host/api/login` is guarded like `/api/login`; a target that does
 * not canonicalise (bad percent-escape, NUL, dot segments) is refused before anything else looks at it.
 * The CSRF cookie is issued by GET /sanctum/csrf-cookie (and refreshed there).
 */
import crypto from 'node:crypto';
import { API, API_PREFIX, BROADCASTING_PREFIX } from '#contract/routes.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.ts';
import { SESSION_COOKIE, XSRF_COOKIE } from './cookies.ts';

export { XSRF_COOKIE };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Routes a monitor, a load balancer or a browser opening the API reference may call without the header (all GET). */
const XHR_EXEMPT = new Set<string>([API.health, API.ready, API.openapi, API.docs]);
const XHR_EXEMPT_PREFIXES = [API.docsIndex];
const GUARDED_PREFIXES = [API_PREFIX, BROADCASTING_PREFIX];
/**
 * RFC 8058 one-click unsubscribe: a mail client POSTs a form to the URL of the e-mail's List-Unsubscribe header,
 * without cookies, XHR header or CSRF token. The URL's own signature is the authority (no session is read there), so
 * exactly that form — a POST of a form body to that path — passes; anything else there is guarded as usual.
 */
const ONE_CLICK_PATHS = new Set<string>([API.savedSearchOneClick]);
const isOneClickForm = (req: FastifyRequest, path: string) =>
  req.method === 'POST' &&
  ONE_CLICK_PATHS.has(path) &&
  /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(req.headers['content-type'] ?? '');

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The one spelling of a request target the router, the guards and every hook see: absolute-form reduced to its
 * path, percent-escapes of unreserved characters decoded (RFC 3986 §6.2.2.2, so `%61pi` is `api`), the others
 * kept with upper-case hex. `null` when the target cannot be read unambiguously: not starting with `/` once the
 * scheme and host are gone, a malformed escape, an escaped or raw NUL/control character, a backslash, or a `.`/`..`
 * segment (browsers resolve those before sending; only a crafted client sends them).
 */
export function canonicalUrl(raw: string): string | null {
  let target = raw;
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  if (!target.startsWith('/') || target.startsWith('//')) return null;
  const q = target.search(/[?#]/);
  const pathPart = q === -1 ? target : target.slice(0, q);
  const rest = q === -1 ? '' : target.slice(q);
  let path = '';
  for (let i = 0; i < pathPart.length; i++) {
    const ch = pathPart[i]!;
    if (ch === '%') {
      const hex = pathPart.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      const code = parseInt(hex, 16);
      if (code < 0x20 || code === 0x7f) return null;
      const decoded = String.fromCharCode(code);
      path += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
      i += 2;
    } else if (ch === '\\' || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) {
      return null;
    } else {
      path += ch;
    }
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  return path + rest;
}

function binding(sessionToken: string | undefined): string {
  return sessionToken ? crypto.createHash('sha256').update(sessionToken).digest('base64url') : 'anonymous';
}

function mac(appKey: string, bound: string, nonce: string): string {
  return crypto.createHmac('sha256', appKey).update(`${bound}|${nonce}`).digest('base64url');
}

/** A token for the session whose cookie value is `sessionToken` (none: an anonymous visitor). */
export function signedCsrfToken(appKey: string, sessionToken: string | undefined): string {
  const nonce = crypto.randomBytes(16).toString('base64url');
  return `${nonce}.${mac(appKey, binding(sessionToken), nonce)}`;
}

export function csrfTokenValid(appKey: string, sessionToken: string | undefined, token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 200) return false;
  const expected = Buffer.from(mac(appKey, binding(sessionToken), token.slice(0, dot)));
  const given = Buffer.from(token.slice(dot + 1));
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Sets a fresh XSRF-TOKEN bound to `sessionToken` (the session cookie the browser will hold after this answer). */
export function issueCsrfToken(req: FastifyRequest, reply: FastifyReply, sessionToken: string | undefined): string {
  const { appKey, secureCookies } = req.server.config;
  const token = signedCsrfToken(appKey, sessionToken);
  reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'lax', secure: secureCookies, httpOnly: false, maxAge: 60 * 60 * 2 });
  return token;
}

function sameToken(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

function readHeaderToken(req: FastifyRequest): string | undefined {
  const header = req.headers['x-xsrf-token'];
  const sent = Array.isArray(header) ? header[0] : header;
  if (!sent) return undefined;
  try {
    return decodeURIComponent(sent);
  } catch {
    // A malformed escape is just another wrong token.
    return undefined;
  }
}

const isGuarded = (path: string | undefined) => !!path && GUARDED_PREFIXES.some((p) => path.startsWith(p));

export default fp(async (app) => {
  app.addHook('onRequest', async (req, reply) => {
    // rewriteUrl (app.ts) left the target as sent when it did not canonicalise.
    if (canonicalUrl(req.originalUrl) === null) return sendError(req, reply, 400, 'validation_failed');
    const path = req.url.split('?')[0] ?? '';
    // The matched route pattern too: whatever spelling reached a guarded route is guarded.
    if (!isGuarded(path) && !isGuarded(req.routeOptions.url)) return;
    if (isOneClickForm(req, path)) return;
    // Channel authorization too: a cross-site form post must not get a socket signed for the victim's session.
    const exempt = XHR_EXEMPT.has(path) || XHR_EXEMPT_PREFIXES.some((p) => path.startsWith(p));
    if (!exempt && req.headers['x-requested-with'] !== 'XMLHttpRequest') {
      return sendError(req, reply, 400, 'xhr_required');
    }
    if (SAFE_METHODS.has(req.method)) return;
    const cookie = req.cookies[XSRF_COOKIE];
    const sent = readHeaderToken(req);
    if (!cookie || !sent || !sameToken(cookie, sent) || !csrfTokenValid(app.config.appKey, req.cookies[SESSION_COOKIE], sent)) {
      return sendError(req, reply, 419, 'csrf_mismatch');
    }
  });

  app.get('/sanctum/csrf-cookie', async (req, reply) => {
    // Bound to the session the browser holds, when it is a live one (authenticate cleared a dead one).
    issueCsrfToken(req, reply, req.session ? req.cookies[SESSION_COOKIE] : undefined);
    return reply.status(204).send();
  });
});
