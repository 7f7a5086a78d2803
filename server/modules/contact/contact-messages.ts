/**
 * What happens to contact messages besides storing them: the acknowledgement mail and staff's status changes.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContactStatus } from '#contract/contact.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { renderMail } from '../../plugins/mail.ts';
import { queueMail } from '../jobs/mail-job.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';

export type ContactMessageRow = typeof contactMessages.$inferSelect;

/**
 * Acknowledges a message by mail. The address is whatever the sender typed (nobody has proved it is theirs), so the
 * mail is a fixed text in the sender's language: echoing the name, subject or message would let anyone send words
 * of their choosing to any inbox from our domain.
 */
export async function acknowledge(app: FastifyInstance, m: Pick<ContactMessageRow, 'email' | 'language'>, db: Db = app.db): Promise<void> {
  const t = app.tFor(m.language);
  const body = renderMail({
    lang: m.language,
    greeting: t('mail.contact.greeting'),
    lines: [t('mail.contact.line1'), t('mail.contact.line2')],
    footer: t('mail.footer'),
  });
  await queueMail(db, { to: m.email, subject: t('mail.contact.subject'), ...body });
}

/** Stores a message and queues its acknowledgement in one transaction: both are kept, or neither. */
export async function recordContactMessage(
  app: FastifyInstance,
  values: Omit<typeof contactMessages.$inferInsert, 'id' | 'status' | 'createdAt'>,
): Promise<void> {
  await app.db.transaction(async (tx) => {
    const [row] = await tx.insert(contactMessages).values(values).returning();
    await acknowledge(app, row!, tx);
  });
}

/**
 * Marks a message read or archived, audited. Setting the status it already has changes nothing and records nothing,
 * so the log shows one entry per real change however often staff click.
 */
export async function setMessageStatus(
  db: Db,
  staff: SessionUser,
  id: number,
  status: Exclude<ContactStatus, 'new'>,
  req: Pick<FastifyRequest, 'ip'>,
): Promise<ContactMessageRow> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).for('update');
    if (!before) throw notFound();
    if (before.status === status) return before;
    const [after] = await tx.update(contactMessages).set({ status }).where(eq(contactMessages.id, before.id)).returning();
    await recordAudit(tx, {
      actor: staff,
      action: `contact_message.${status}`,
      subjectType: 'contact_message',
      subjectId: before.id,
      before: { status: before.status },
      after: { status: after!.status },
      req,
    });
    return after!;
  });
}
