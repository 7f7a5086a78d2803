/**
 * The periodic purges, each a recurring job (JobRunner.every): one keyed row for all processes, so an occurrence
 * runs on one node only, however many are up. Each one is a single DELETE by time, harmless if it ever ran twice.
 */
import { isNotNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idempotencyKeys, passwordResetTokens, sessions } from '../../db/schema.ts';
import { IDEMPOTENCY_KEEP_MS } from '../../plugins/idempotency.ts';

const HOUR = 60 * 60_000;

export function registerPurges(app: FastifyInstance): void {
  const db = app.db;
  app.jobs.every('purge-idempotency-keys', HOUR, (now) =>
    db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEEP_MS))),
  );
  // An expired session is already refused (plugins/session.ts); the row only takes room.
  app.jobs.every('purge-expired-sessions', HOUR, (now) => db.delete(sessions).where(lt(sessions.expiresAt, now)));
  app.jobs.every('purge-reset-tokens', HOUR, (now) =>
    db.delete(passwordResetTokens).where(or(lt(passwordResetTokens.expiresAt, now), isNotNull(passwordResetTokens.usedAt))),
  );
}
