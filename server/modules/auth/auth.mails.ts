/**
 * The account e-mails, each in the recipient's language with a plain-text part. Queued as `mail` jobs
 * (modules/jobs/mail-job.ts): pass the transaction of the change as `db` so a rolled-back change sends nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { renderMail } from '../../plugins/mail.ts';
import { queueMail } from '../jobs/mail-job.ts';
import { verificationLink } from './signed-links.ts';

interface Recipient {
  id: number;
  name: string;
  email: string;
  locale: string;
}

async function sendAccountMail(
  app: FastifyInstance,
  to: Recipient,
  kind: string,
  action?: { url: string },
  vars: Record<string, string> = {},
  db: Db = app.db,
) {
  const t = app.tFor(to.locale);
  const body = renderMail({
    lang: to.locale,
    greeting: t('mail.greeting', { name: to.name }),
    lines: [t(`mail.${kind}.line1`, vars), t(`mail.${kind}.line2`, vars)],
    ...(action ? { action: { label: t(`mail.${kind}.action`), url: action.url } } : {}),
    footer: t('mail.footer'),
  });
  await queueMail(db, { to: to.email, subject: t(`mail.${kind}.subject`), ...body });
}

export function sendVerificationMail(app: FastifyInstance, user: Recipient, db: Db = app.db) {
  const url = verificationLink(app.config.appUrl, user.locale, app.config.appKey, user);
  return sendAccountMail(app, user, 'verify', { url }, {}, db);
}

export function sendPasswordResetMail(app: FastifyInstance, user: Recipient, token: string, db: Db = app.db) {
  const url = `${app.config.appUrl}/${user.locale}/reset-password/${token}?email=${encodeURIComponent(user.email)}`;
  return sendAccountMail(app, user, 'reset', { url }, {}, db);
}

/** Registration never reveals that an address is taken: its owner gets this instead. */
export function sendAlreadyRegisteredMail(app: FastifyInstance, user: Recipient) {
  return sendAccountMail(app, user, 'alreadyRegistered', { url: `${app.config.appUrl}/${user.locale}/forgot-password` });
}

export function sendPasswordChangedMail(app: FastifyInstance, user: Recipient, db: Db = app.db) {
  return sendAccountMail(app, user, 'passwordChanged', { url: `${app.config.appUrl}/${user.locale}/forgot-password` }, {}, db);
}
