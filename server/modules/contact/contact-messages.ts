/**
 * Contact messages: taking them in (the visitors' form with its honeypot, the signed-in users' message to the admins),
 * the acknowledgement mail, and staff's list and status changes.
 */
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ContactFilters, ContactInput, ContactMessage, ContactStatus } from '#contract/contact.ts';
import { page } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { renderMail } from '../../plugins/mail.ts';
import { queueMail } from '../jobs/mail-job.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { MIN_FILL_MS } from '../reports/reports.ts';

const PER_PAGE = 20;

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
 * The visitors' form: stored and acknowledged, unless a bot sent it (honeypot filled, or faster than a person types),
 * which is dropped without a trace but answered alike. `throttle` spends the per-address limit (429 when used up).
 */
export async function receiveContactForm(
  app: FastifyInstance,
  input: ContactInput,
  from: { ipHash: string; userId: number | null; language: string; log: FastifyBaseLogger; throttle: () => Promise<void> },
): Promise<void> {
  if (input.website || (input.opened_at !== undefined && Date.now() - input.opened_at < MIN_FILL_MS)) {
    from.log.info({ ipHash: from.ipHash }, 'contact message dropped as automated');
    return;
  }
  await from.throttle();
  await recordContactMessage(app, {
    kind: 'contact',
    userId: from.userId,
    name: input.name,
    email: input.email,
    subject: input.subject,
    message: input.message,
    language: from.language,
    ipHash: from.ipHash,
  });
}

export function toMessage(m: ContactMessageRow): ContactMessage {
  return {
    id: m.id,
    kind: m.kind,
    user_id: m.userId,
    name: m.name,
    email: m.email,
    subject: m.subject,
    message: m.message,
    language: m.language,
    status: m.status,
    created_at: m.createdAt.toISOString(),
  };
}

/** Staff's page of messages: new ones first, archived last, newest first within each. */
export async function listContactMessages(db: Db, q: ContactFilters) {
  const status = q.status ?? 'all';
  const where: SQL[] = status === 'all' ? [] : [eq(contactMessages.status, status)];
  const cond = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .where(cond)
      .orderBy(
        desc(eq(contactMessages.status, 'new')),
        asc(eq(contactMessages.status, 'archived')),
        desc(contactMessages.createdAt),
        desc(contactMessages.id),
      )
      .limit(PER_PAGE)
      .offset((q.page - 1) * PER_PAGE),
    db.select({ n: count() }).from(contactMessages).where(cond),
  ]);
  return page(rows.map(toMessage), { page: q.page, perPage: PER_PAGE, total: Number(total?.n ?? 0) });
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
