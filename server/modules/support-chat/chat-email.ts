/**
 * The e-mail about a staff reply left unread for CHAT_EMAIL_DELAY_MINUTES (a job scheduled with the reply, so it
 * survives a restart). When it runs it looks again: nothing unread → nothing sent; the oldest unread reply younger
 * than the delay (earlier ones were read meanwhile) → put off until it is due. The mail is in the user's language
 * with a link back to the conversation.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CHAT_EMAIL_DELAY_MINUTES, messengerPath } from '#contract/support-chat.ts';
import { toLanguage } from '#contract/languages.ts';
import { supportConversations, supportMessages, users } from '../../db/schema.ts';
import { renderMail } from '../../plugins/mail.ts';
import type { JobOutcome } from '../jobs/jobs.ts';
import { queueMail } from '../jobs/mail-job.ts';

const EXCERPT = 300;

export async function sendUnreadReplyMail(app: FastifyInstance, conversationId: number, now = new Date()): Promise<JobOutcome> {
  const [c] = await app.db
    .select({ id: supportConversations.id, name: users.name, email: users.email, locale: users.locale })
    .from(supportConversations)
    .innerJoin(users, eq(users.id, supportConversations.userId))
    .where(eq(supportConversations.id, conversationId));
  if (!c) return;
  const unread = await app.db
    .select({ content: supportMessages.content, createdAt: supportMessages.createdAt })
    .from(supportMessages)
    .where(and(eq(supportMessages.conversationId, c.id), eq(supportMessages.isStaff, true), isNull(supportMessages.readAt)))
    .orderBy(asc(supportMessages.seq));
  if (!unread.length) return;
  const due = new Date(unread[0]!.createdAt.getTime() + CHAT_EMAIL_DELAY_MINUTES * 60_000);
  if (due > now) return { retryAt: due };

  const lng = toLanguage(c.locale) ?? 'es';
  const t = app.tFor(lng);
  const latest = unread[unread.length - 1]!.content;
  const body = renderMail({
    lang: lng,
    greeting: t('mail.greeting', { name: c.name }),
    lines: [
      t('supportChat.mail.line1', { count: unread.length }),
      t('supportChat.mail.line2', { excerpt: latest.length > EXCERPT ? `${latest.slice(0, EXCERPT - 1)}…` : latest }),
    ],
    action: { label: t('supportChat.mail.action'), url: `${app.config.appUrl}/${lng}${messengerPath(c.id)}` },
    footer: t('mail.footer'),
  });
  // Its own `mail` job, with the mail's longer retries (a mail server down for an hour loses nothing).
  await queueMail(app.db, { to: c.email, subject: t('supportChat.mail.subject'), ...body });
}
