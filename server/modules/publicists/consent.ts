/**
 * The model's consent to be listed by a publicist (issue 6 point 2). A request is a row in model_consents holding
 * only the SHA-256 of its one-time link token and of a six-digit code; the link goes to the model's e-mail. Agreeing
 * sets model_profiles.consent_status = 'given' (the ads trigger then lists approved ads) and mails a withdrawal link;
 * withdrawing sets 'withdrawn' and the trigger unlists the ads in the same statement.
 */
import crypto from 'node:crypto';
import { and, count, eq, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { CONSENT_MESSAGES_PER_DAY, CONSENT_TTL_DAYS, type ConsentRequest } from '#contract/publicists.ts';
import type { Db } from '../../db/client.ts';
import { modelConsents, modelProfiles, publicistProfiles } from '../../db/schema.ts';
import { conflict, tooManyRequests } from '../../errors.ts';
import { renderMail } from '../../plugins/mail.ts';
import { queueMail } from '../jobs/mail-job.ts';
import { hashToken } from '../../plugins/session.ts';
import type { ProfileRow } from '../model-profiles/model-profiles.repository.ts';
import type { PublicistRow } from './publicists.repository.ts';
import { notifyConsent } from '../notifications/events.ts';

export const newToken = () => crypto.randomBytes(32).toString('base64url');
const newCode = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');

export interface IssuedConsent {
  id: number;
  token: string;
  code: string;
  contact: string;
}

/**
 * Where the request goes: the model's e-mail, the one channel that reaches her (issue 24 point 14: a phone-only
 * request only ever reached our outbox). A model saved with a phone only, before the e-mail was required, gets none
 * until the publicist adds her e-mail.
 */
export function contactOf(model: Pick<ProfileRow, 'contactEmail' | 'phone'>): string | null {
  return model.contactEmail || null;
}

/**
 * Each consent request mails text a publicist typed (the model's name) to a contact the publicist typed: changing a
 * model's contact over and over must not turn Vitrina into their mailer. 429 past CONSENT_MESSAGES_PER_DAY for one
 * model in 24 hours.
 */
export async function assertConsentBudget(db: Db, modelId: number): Promise<void> {
  const [row] = await db
    .select({ n: count() })
    .from(modelConsents)
    .where(and(eq(modelConsents.modelProfileId, modelId), gt(modelConsents.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000))));
  if ((row?.n ?? 0) >= CONSENT_MESSAGES_PER_DAY) throw tooManyRequests('publicist.consent.tooManyToday');
}

/**
 * Opens a new consent request for `model` (earlier pending ones expire) and marks the model `pending` unless it is
 * already given and `keepGiven` (a re-send of a request that was never answered keeps nothing to keep). Call inside the
 * transaction that creates or changes the model, and queue its mail in the same one with sendConsentRequest.
 */
export async function openConsent(db: Db, model: ProfileRow, publicist: PublicistRow): Promise<IssuedConsent | null> {
  const contact = contactOf(model);
  if (!contact) return null;
  await db
    .update(modelConsents)
    .set({ status: 'expired' })
    .where(and(eq(modelConsents.modelProfileId, model.id), eq(modelConsents.status, 'pending')));
  const token = newToken();
  const code = newCode();
  const [row] = await db
    .insert(modelConsents)
    .values({
      modelProfileId: model.id,
      publicistId: publicist.id,
      contact,
      tokenHash: hashToken(token),
      codeHash: hashToken(`${model.id}:${code}`),
      expiresAt: new Date(Date.now() + CONSENT_TTL_DAYS * 24 * 60 * 60 * 1000),
    })
    .returning({ id: modelConsents.id });
  if (model.consentStatus !== 'pending') {
    await db.update(modelProfiles).set({ consentStatus: 'pending' }).where(eq(modelProfiles.id, model.id));
  }
  return { id: row!.id, token, code, contact };
}

async function send(
  app: FastifyInstance,
  to: string,
  lng: string,
  kind: 'consentRequest' | 'consentGiven',
  vars: Record<string, string>,
  url: string,
  db: Db = app.db,
) {
  const t = app.tFor(lng);
  const body = renderMail({
    lang: lng,
    greeting: t('mail.greeting', { name: vars.model }),
    lines: [t(`mail.${kind}.line1`, vars), t(`mail.${kind}.line2`, vars)],
    action: { label: t(`mail.${kind}.action`), url },
    footer: t('mail.footer'),
  });
  // Queued (modules/jobs/mail-job.ts). A phone number is not a mail address an SMTP server accepts: with no SMS
  // gateway configured, the job logs the refusal and is not retried (the publicist can re-send it once one exists).
  await queueMail(db, { to, subject: t(`mail.${kind}.subject`, vars), ...body });
}

export function consentUrl(app: FastifyInstance, lng: string, token: string) {
  return `${app.config.appUrl}/${lng}/consent/${token}`;
}

export function withdrawUrl(app: FastifyInstance, lng: string, token: string) {
  return `${app.config.appUrl}/${lng}/consent/withdraw/${token}`;
}

export function sendConsentRequest(
  app: FastifyInstance,
  issued: IssuedConsent,
  lng: string,
  names: { model: string; publicist: string; legal: string | null },
  /** The transaction that opened the request: the mail is queued with it. */
  db: Db = app.db,
) {
  return send(
    app,
    issued.contact,
    lng,
    'consentRequest',
    {
      model: names.model,
      publicist: names.publicist,
      legal: names.legal ?? names.publicist,
      code: issued.code,
      codeUrl: `${app.config.appUrl}/${lng}/consent`,
      days: String(CONSENT_TTL_DAYS),
    },
    consentUrl(app, lng, issued.token),
    db,
  );
}

export function sendConsentConfirmation(
  app: FastifyInstance,
  contact: string,
  lng: string,
  withdrawToken: string,
  names: { model: string; publicist: string },
  /** The transaction that records the consent: the mail is queued with it. */
  db: Db,
) {
  return send(
    app,
    contact,
    lng,
    'consentGiven',
    { model: names.model, publicist: names.publicist },
    withdrawUrl(app, lng, withdrawToken),
    db,
  );
}

/**
 * Opens a consent request for `model` (openConsent) and queues its mail, both in `tx`, the transaction that creates or
 * changes the model: rolled back, nothing is sent. Null when the model has no e-mail to ask.
 */
export async function requestConsent(
  app: FastifyInstance,
  tx: Db,
  model: ProfileRow,
  publicist: PublicistRow,
  lng: string,
): Promise<IssuedConsent | null> {
  const issued = await openConsent(tx, model, publicist);
  if (issued) {
    await sendConsentRequest(
      app,
      issued,
      lng,
      { model: model.displayName, publicist: publicist.displayName, legal: publicist.legalName },
      tx,
    );
  }
  return issued;
}

export type ConsentRow = typeof modelConsents.$inferSelect;
type State = ConsentRequest['state'];

export function stateOf(row: ConsentRow, kind: 'give' | 'withdraw'): State {
  if (kind === 'withdraw') return row.status === 'given' ? 'given' : row.status === 'withdrawn' ? 'withdrawn' : 'used';
  if (row.status === 'pending') return row.expiresAt.getTime() < Date.now() ? 'expired' : 'pending';
  if (row.status === 'expired') return 'expired';
  return 'used';
}

export const gone = (state: State) =>
  conflict(
    undefined,
    state === 'expired' ? 'consent.errors.expired' : state === 'withdrawn' ? 'consent.errors.withdrawn' : 'consent.errors.used',
  );

/**
 * The model's answer to a pending request (single use; 409 once used or expired). Agreeing lists the model (the ads
 * trigger) and mails the contact a withdrawal link, queued in the same transaction: a consent that commits is certain
 * to be confirmed. Answers the request's row as it was before.
 */
export async function answerConsent(app: FastifyInstance, consentId: number, agree: boolean, lng: string): Promise<ConsentRow> {
  const withdrawToken = newToken();
  const { row, notice } = await app.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(modelConsents).where(eq(modelConsents.id, consentId)).for('update');
    const state = stateOf(locked!, 'give');
    if (state !== 'pending') throw gone(state);
    const now = new Date();
    await tx
      .update(modelConsents)
      .set(
        agree ? { status: 'given', givenAt: now, withdrawTokenHash: hashToken(withdrawToken) } : { status: 'withdrawn', withdrawnAt: now },
      )
      .where(eq(modelConsents.id, locked!.id));
    // The trigger on model_profiles recomputes the ads' listed flag in this statement.
    await tx
      .update(modelProfiles)
      .set({ consentStatus: agree ? 'given' : 'withdrawn', updatedAt: now })
      .where(eq(modelProfiles.id, locked!.modelProfileId));
    if (agree) {
      const [names] = await tx
        .select({ model: modelProfiles.displayName, publicist: publicistProfiles.displayName })
        .from(modelProfiles)
        .innerJoin(publicistProfiles, eq(publicistProfiles.id, locked!.publicistId))
        .where(eq(modelProfiles.id, locked!.modelProfileId));
      await sendConsentConfirmation(app, locked!.contact, lng, withdrawToken, names ?? { model: '', publicist: '' }, tx);
    }
    // The publicist hears of it: stored with the answer, broadcast after the commit.
    const notice = await notifyConsent(app, { publicistId: locked!.publicistId, modelProfileId: locked!.modelProfileId, given: agree }, tx);
    return { row: locked!, notice };
  });
  await notice.publish();
  return row;
}
