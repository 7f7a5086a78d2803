/**
 * Idempotency-Key for every state-changing /api call (design guide: the offline outbox replays requests, and a
 * replayed ad edit, photo upload or report must never be applied twice).
 *
 * The first request with a key is recorded (key + actor + method + path + a hash of the request) before its handler
 * runs, and its answer is stored when it is sent. A retry with the same key and the same request gets the stored answer
 * again (header `Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_mismatch`; a retry
 * while the first is still running is 409 `idempotency_in_progress`. Server errors (5xx) and rate limits (429) are not
 * stored: the retry runs again. Keys are kept 24 hours. Requests without the header behave as before.
 */
import crypto from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { idempotencyKeys } from '../db/schema.ts';
import { sendError } from './errors.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A client-made UUID, or any opaque token of the same alphabet. */
const KEY = /^[A-Za-z0-9_-]{8,64}$/;
const KEEP_MS = 24 * 60 * 60 * 1000;
/** A first request that never answered (the process died mid-way) stops blocking its retries after this long. */
const ABANDONED_MS = 2 * 60 * 1000;

interface Pending {
  key: string;
  actor: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Pending;
  }
}

function requestHash(req: FastifyRequest): string {
  const h = crypto.createHash('sha256').update(`${req.method} ${req.url}\n`);
  // isMultipart is decorated by @fastify/multipart, which only the upload module registers.
  const isMultipart = (req as { isMultipart?: () => boolean }).isMultipart;
  if (isMultipart?.call(req)) {
    // The files are streamed to the handler, not buffered: the length stands for the body. Not the content type: a
    // browser picks a new multipart boundary for every send of the same FormData.
    h.update(`multipart ${req.headers['content-length'] ?? ''}`);
  } else {
    h.update(JSON.stringify(req.body ?? null));
  }
  return h.digest('hex');
}

export default fp(async (app) => {
  const db = app.db;
  const actorOf = (req: FastifyRequest) =>
    req.user ? `user:${req.user.id}` : `anon:${crypto.createHmac('sha256', app.config.appKey).update(req.ip).digest('hex')}`;

  const purge = () =>
    db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - KEEP_MS)))
      .catch((err: unknown) => app.log.warn({ err }, 'idempotency keys: purge failed'));
  const timer = setInterval(() => void purge(), 60 * 60 * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  // preHandler: after authentication and validation, so a refused request costs no row and the body is parsed.
  app.addHook('preHandler', async (req, reply) => {
    const raw = req.headers['idempotency-key'];
    if (raw === undefined || !STATE_CHANGING.has(req.method) || !req.url.startsWith('/api/')) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || !KEY.test(key))
      return sendError(req, reply, 400, 'validation_failed', { errors: { 'Idempotency-Key': [req.t('errors.idempotency_key')] } });
    const actor = actorOf(req);
    const hash = requestHash(req);
    const path = req.url.slice(0, 2000);
    const where = and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.actor, actor));

    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ key, actor, method: req.method, path, requestHash: hash })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length) {
        req.idempotency = { key, actor };
        return;
      }
      const [seen] = await db.select().from(idempotencyKeys).where(where);
      if (!seen) continue; // purged in between: try to record it again
      if (seen.requestHash !== hash || seen.method !== req.method || seen.path !== path) {
        return sendError(req, reply, 422, 'idempotency_mismatch');
      }
      if (seen.statusCode === null) {
        if (Date.now() - seen.createdAt.getTime() < ABANDONED_MS) return sendError(req, reply, 409, 'idempotency_in_progress');
        await db.delete(idempotencyKeys).where(where);
        continue;
      }
      reply.header('idempotent-replayed', 'true');
      return reply
        .status(seen.statusCode)
        .type('application/json; charset=utf-8')
        .send(seen.responseBody ?? '');
    }
    return sendError(req, reply, 409, 'idempotency_in_progress');
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const pending = req.idempotency;
    if (!pending) return payload;
    req.idempotency = undefined;
    const where = and(eq(idempotencyKeys.key, pending.key), eq(idempotencyKeys.actor, pending.actor));
    const status = reply.statusCode;
    try {
      if (status >= 500 || status === 429 || (typeof payload !== 'string' && !Buffer.isBuffer(payload) && payload != null)) {
        // Not an answer to replay (or a stream we cannot keep): the retry runs the request again.
        await db.delete(idempotencyKeys).where(where);
      } else {
        const body = payload == null ? '' : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
        await db.update(idempotencyKeys).set({ statusCode: status, responseBody: body }).where(where);
      }
    } catch (err) {
      req.log.error({ err }, 'idempotency key: could not store the answer');
    }
    return payload;
  });
});
