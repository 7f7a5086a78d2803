/**
 * Every e-mail goes through the jobs table: `queueMail(tx, message)` inside the transaction of the change that calls
 * for it (rolled back, nothing is sent), and the `mail` handler hands it to the mailer (plugins/mail.ts) when a
 * runner picks it up, so a request never waits for SMTP. A mail server that is down is retried with the runner's
 * back-off (30 s, 1, 2, 4 … 60 min): MAIL_MAX_ATTEMPTS 12 keeps trying for about five hours before the row is kept
 * as failed for a person to look at. Delivery is at-least-once: a node dying between the SMTP answer and the row's
 * deletion sends that mail again from another node.
 *
 * The payload is the rendered message (links with their tokens included): the row is deleted once sent, and reset
 * links expire on their own. Failed rows older than FAILED_MAIL_KEEP_DAYS are purged.
 */
import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';
import type { MailMessage } from '../../plugins/mail.ts';
import { PermanentJobError, scheduleJob } from './jobs.ts';

export const MAIL_JOB = 'mail';
export const MAIL_MAX_ATTEMPTS = 12;
export const FAILED_MAIL_KEEP_DAYS = 30;

/** How many mails this process has queued (committed or not): tests/test-app.ts runs the jobs only after a request that queued one. */
export const mailQueued = { count: 0 };

export async function queueMail(db: Db, message: MailMessage): Promise<void> {
  const { to, subject, text, html, headers } = message;
  await scheduleJob(db, {
    name: MAIL_JOB,
    payload: { to, subject, text, html, ...(headers ? { headers } : {}) },
    maxAttempts: MAIL_MAX_ATTEMPTS,
  });
  mailQueued.count++;
}

/** SMTP answers 5xx to a message it will never take (no such mailbox, a phone number as address): no retry. */
function permanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export function registerMailJob(app: FastifyInstance): void {
  app.jobs.register(MAIL_JOB, async (payload) => {
    const message = payload as unknown as MailMessage;
    try {
      await app.mailer.send(message);
    } catch (err) {
      // No SMS gateway yet: a report receipt or consent request to a phone number stays in the log.
      if (!message.to.includes('@')) throw new PermanentJobError(`not an e-mail address: ${(err as Error)?.message ?? err}`);
      if (permanent(err)) throw new PermanentJobError((err as Error).message);
      throw err;
    }
  });
  app.jobs.every('purge-failed-mail', 24 * 60 * 60_000, async (now) => {
    await app.db
      .delete(jobs)
      .where(
        and(
          eq(jobs.name, MAIL_JOB),
          isNotNull(jobs.failedAt),
          lt(jobs.failedAt, new Date(now.getTime() - FAILED_MAIL_KEEP_DAYS * 24 * 60 * 60_000)),
        ),
      );
  });
}
