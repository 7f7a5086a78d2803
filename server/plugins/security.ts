/**
 * Cheap request guards for /api and /broadcasting, as Laravel/Sanctum clients expect them:
 * - `X-Requested-With: XMLHttpRequest` on every /api call (a plain form post or <img> cannot set it);
 * - the XSRF-TOKEN cookie echoed as X-XSRF-TOKEN on every state-changing request (double submit);
 *   419 "page expired" otherwise, which the client answers by fetching a new token and retrying once.
 * The CSRF cookie is issued by GET /sanctum/csrf-cookie (and refreshed there).
 */
import crypto from 'node:crypto';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Routes a monitor or crawler may call without the header. */
const XHR_EXEMPT = new Set(['/api/health']);

export function issueCsrfToken(reply: FastifyReply, secure: boolean): string {
  const token = crypto.randomBytes(32).toString('base64url');
  reply.setCookie(XSRF_COOKIE, token, { path: '/', sameSite: 'lax', secure, httpOnly: false, maxAge: 60 * 60 * 2 });
  return token;
}

function sameToken(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

export default fp<{ secureCookies: boolean }>(async (app, opts) => {
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const isApi = url.startsWith('/api/');
    const isBroadcasting = url.startsWith('/broadcasting/');
    if (!isApi && !isBroadcasting) return;
    if (isApi && !XHR_EXEMPT.has(url) && req.headers['x-requested-with'] !== 'XMLHttpRequest') {
      return sendError(req, reply, 400, 'xhr_required');
    }
    if (SAFE_METHODS.has(req.method)) return;
    const cookie = req.cookies[XSRF_COOKIE];
    const header = req.headers['x-xsrf-token'];
    const sent = Array.isArray(header) ? header[0] : header;
    if (!cookie || !sent || !sameToken(cookie, decodeURIComponent(sent))) {
      return sendError(req, reply, 419, 'csrf_mismatch');
    }
  });

  app.get('/sanctum/csrf-cookie', async (_req, reply) => {
    issueCsrfToken(reply, opts.secureCookies);
    return reply.status(204).send();
  });
});
