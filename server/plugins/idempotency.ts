/**
 * Idempotency-Key for every state-changing /api call (design guide: the offline outbox replays requests, and a
 * replayed ad edit, photo upload or chat message must never be applied twice).
 *
 * The first request with a key is recorded (key + actor + method + path + a hash of the request) before its handler
 * runs. A retry with the same key and the same request gets the stored answer again (header `Idempotent-Replayed:
 * true`); the same key with another request is 422 `idempotency_mismatch`; a retry while the first is still running is
 * 409 `idempotency_in_progress`. Server errors (5xx) and rate limits (429) are not stored: the retry runs again. Keys
 * are kept 24 hours. Requests without the header behave as before.
 *
 * Where the answer is stored (docs/decisions/0012): the writes the outbox replays store it inside their own
 * transaction (`answerOnce`), so the change and its answer commit together — a process killed after the commit
 * replays the answer on retry instead of making the change again. Other routes keep storing it when it is sent
 * (onSend), a separate write.
 */
import crypto from 'node:crypto';
import { API_PREFIX } from '#contract/routes.ts';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { idempotencyInProgress } from '../errors.ts';
import { sendError } from './errors.ts';
import { spoolMultipart, sweepStaleSpools, type Spool } from './multipart-spool.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A client-made UUID, or any opaque token of the same alphabet. */
const KEY = /^[A-Za-z0-9_-]{8,64}$/;
/** How long a key's answer is kept; older rows are purged hourly by a recurring job (modules/jobs/purges.ts). */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
/** A first request that never answered (the process died before its commit) stops blocking its retries after this long. */
const ABANDONED_MS = 2 * 60 * 1000;

interface Pending {
  key: string;
  actor: string;
  /**
   * The row's created_at as this request wrote it (milliseconds, set here rather than by the database): it tells this
   * attempt's row from a retry's that took over an abandoned key, so a late first attempt cannot answer for it.
   */
  createdAt: Date;
  /** `METHOD /route/:pattern`, what the test-only fault hook names. */
  route: string;
  /** Set by answerOnce's commit: the answer written in the service's transaction, exactly as it is then sent. */
  stored?: { status: number; text: string };
  /** Set when the route sends that stored answer: its transaction has committed. */
  committed?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Pending;
  }
}

const rowOf = (p: Pending) =>
  and(eq(idempotencyKeys.key, p.key), eq(idempotencyKeys.actor, p.actor), eq(idempotencyKeys.createdAt, p.createdAt));

/**
 * Makes a write's answer commit with the write. The route builds it and hands `commit` to its service, which calls it
 * as the last step inside its own transaction (with that transaction, and what it returns); the route then answers
 * with `send`. Without an Idempotency-Key `commit` is undefined and `send` answers as the route always did, so
 * services stay callable from jobs and tests without one.
 *
 * `build` makes the answer's body from the service's result; inside the transaction it is given the transaction to
 * read through (a read on the app's `db` would wait for the transaction's own connection on PGlite). The body is
 * serialized once, with the route's own response schema, and those bytes are both stored and sent: a replay answers
 * exactly what the first client got.
 */
export function answerOnce<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  build: (result: T, db: Db) => unknown,
): { commit: ((tx: Db, result: T) => Promise<void>) | undefined; send: (result: T) => Promise<FastifyReply> } {
  const pending = req.idempotency;
  const commit = pending
    ? async (tx: Db, result: T) => {
        const body = await build(result, tx);
        const out: unknown = reply.code(status).serialize(body);
        const text = typeof out === 'string' ? out : Buffer.from(out as Uint8Array).toString('utf8');
        const [row] = await tx
          .update(idempotencyKeys)
          .set({ statusCode: status, responseBody: text })
          .where(and(rowOf(pending), isNull(idempotencyKeys.statusCode)))
          .returning({ key: idempotencyKeys.key });
        // The key was given up as abandoned and a retry holds it now: this attempt must not commit its change too.
        if (!row) throw idempotencyInProgress();
        pending.stored = { status, text };
      }
    : undefined;
  return {
    commit,
    async send(result: T) {
      if (pending?.stored) {
        pending.committed = true;
        return reply.code(pending.stored.status).type('application/json; charset=utf-8').send(pending.stored.text);
      }
      return reply.code(status).send(await build(result, req.server.db));
    },
  };
}

const spools = new WeakMap<FastifyRequest, Spool>();

async function requestHash(req: FastifyRequest): Promise<string> {
  const head = `${req.method} ${req.url}\n`;
  // isMultipart is decorated by @fastify/multipart, which only the upload routes register.
  const isMultipart = (req as { isMultipart?: () => boolean }).isMultipart;
  if (isMultipart?.call(req)) {
    // The parts, not the framing: a browser picks a new boundary for every send of the same FormData (issue 24 A5).
    const spool = await spoolMultipart(req, head);
    spools.set(req, spool);
    return spool.hash;
  }
  return crypto
    .createHash('sha256')
    .update(head)
    .update(JSON.stringify(req.body ?? null))
    .digest('hex');
}

export default fp(async (app) => {
  const db = app.db;
  const faults = new Set(
    (app.config.faultAfterCommit ?? '')
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean),
  );
  if (faults.size) app.log.warn({ routes: [...faults] }, 'idempotency: test fault hook armed, the process dies after these routes commit');
  const actorOf = (req: FastifyRequest) =>
    req.user ? `user:${req.user.id}` : `anon:${crypto.createHmac('sha256', app.config.appKey).update(req.ip).digest('hex')}`;

  // preHandler: after authentication and validation, so a refused request costs no row and the body is parsed.
  app.addHook('preHandler', async (req, reply) => {
    const raw = req.headers['idempotency-key'];
    if (raw === undefined || !STATE_CHANGING.has(req.method) || !req.url.startsWith(API_PREFIX)) return;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || !KEY.test(key))
      return sendError(req, reply, 400, 'validation_failed', { errors: { 'Idempotency-Key': [req.t('errors.idempotency_key')] } });
    const actor = actorOf(req);
    const hash = await requestHash(req);
    const path = req.url.slice(0, 2000);
    const where = and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.actor, actor));

    for (let attempt = 0; attempt < 2; attempt++) {
      const createdAt = new Date();
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ key, actor, method: req.method, path, requestHash: hash, createdAt })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length) {
        req.idempotency = { key, actor, createdAt, route: `${req.method} ${req.routeOptions.url ?? ''}` };
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

  const dropSpool = async (req: FastifyRequest) => {
    const spool = spools.get(req);
    if (!spool) return;
    spools.delete(req);
    await spool.cleanup().catch((err: unknown) => req.log.warn({ err }, 'idempotency: removing the spooled upload failed'));
  };
  app.addHook('onResponse', dropSpool);
  // In the background: start-up does not wait for a look at the temporary folder.
  void sweepStaleSpools().then((n) => n && app.log.info(`idempotency: removed ${n} upload spools left by a stopped process`));
  app.addHook('onRequestAbort', dropSpool);

  app.addHook('onSend', async (req, reply, payload) => {
    const pending = req.idempotency;
    if (!pending) return payload;
    req.idempotency = undefined;
    // Test-only (config refuses it in production): die between the commit and the answer, as a crash would.
    if (faults.has(pending.route)) process.kill(process.pid, 'SIGKILL');
    // Stored with the change, and these are its bytes: nothing left to write.
    if (pending.committed && pending.stored && payload === pending.stored.text) return payload;
    // Only a row still without an answer: one committed with its change is never replaced or deleted (whatever went
    // wrong after the commit, the change is made, and the retry must be told so).
    const where = and(rowOf(pending), isNull(idempotencyKeys.statusCode));
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
