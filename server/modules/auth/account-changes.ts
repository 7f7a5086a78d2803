/**
 * A signed-in user's own changes that call for a mail: each change commits together with its mail, queued in the
 * same transaction (modules/jobs/mail-job.ts). A change that commits is certain to be mailed, even if the process
 * dies right after the commit; one that fails mails nothing.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema.ts';
import { endOtherSessions } from '../../plugins/session.ts';
import { sendPasswordChangedMail, sendVerificationMail } from './auth.mails.ts';
import type { UserRow } from './users.repository.ts';

/** The new password, every other session of the account ended, and the "your password was changed" mail. */
export async function changePassword(app: FastifyInstance, user: UserRow, passwordHash: string, keepSession: string | undefined) {
  await app.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await endOtherSessions(tx, user.id, keepSession);
    await sendPasswordChangedMail(app, user, tx);
  });
}

/**
 * Name and e-mail address. A new address is unverified until its link is opened (an active account goes back to
 * `unverified`): the link is mailed to the new address with the change.
 */
export async function changeProfileInformation(
  app: FastifyInstance,
  user: UserRow,
  input: { name: string; email: string },
): Promise<{ user: UserRow; emailChanged: boolean }> {
  const emailChanged = input.email !== user.email.toLowerCase();
  const updated = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        name: input.name,
        email: input.email,
        updatedAt: new Date(),
        ...(emailChanged ? { emailVerifiedAt: null, status: user.status === 'active' ? ('unverified' as const) : user.status } : {}),
      })
      .where(eq(users.id, user.id))
      .returning();
    if (emailChanged) await sendVerificationMail(app, row!, tx);
    return row!;
  });
  return { user: updated, emailChanged };
}
