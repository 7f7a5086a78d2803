/**
 * The model's consent to be listed by a publicist (issue 6 point 2). A request is a row in model_consents holding
 * only the SHA-256 of its one-time link token and of a six-digit code; the link goes to the model's e-mail. Agreeing
 * sets model_profiles.consent_status = 'given' (the ads trigger then lists approved ads) and mails a withdrawal link;
 * withdrawing sets 'withdrawn' and the trigger unlists the ads in the same statement. The public pages' work (what a
 * link or a code shows, the answer, the withdrawal) is here too; consent.routes.ts only parses and answers.
 */
import crypto from 'node:crypto';
import { and, count, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSENT_CODE_ATTEMPTS, CONSENT_MESSAGES_PER_DAY, CONSENT_TTL_DAYS, type ConsentRequest } from '#contract/publicists.ts';
import type { Db } from '../../db/client.ts';
import { cities, modelConsents, modelProfiles, publicistProfiles, sections } from '../../db/schema.ts';
import { conflict, notFound, tooManyRequests, validationFailed } from '../../errors.ts';
import { renderMail } from '../../plugins/mail.ts';
import { queueMail } from '../jobs/mail-job.ts';
import { hashToken } from '../../plugins/session.ts';
import { firstAdOf, type ProfileRow } from '../model-profiles/model-profiles.repository.ts';
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

/** What the model is asked to agree to (or may withdraw), in `lng`: who asks, for whom, and the ad. */
export async function describeConsent(db: Db, lng: string, row: ConsentRow, kind: 'give' | 'withdraw'): Promise<ConsentRequest> {
  const [model] = await db.select().from(modelProfiles).where(eq(modelProfiles.id, row.modelProfileId));
  const [publicist] = await db.select().from(publicistProfiles).where(eq(publicistProfiles.id, row.publicistId));
  const ad = model ? await firstAdOf(db, model.id) : undefined;
  let adInfo: ConsentRequest['ad'] = null;
  if (ad) {
    const [place] = await db
      .select({ city: cities.name, names: sections.names })
      .from(cities)
      .innerJoin(sections, eq(sections.id, ad.sectionId))
      .where(eq(cities.id, ad.cityId));
    const names = place?.names as Record<string, string> | undefined;
    adInfo = { title: ad.title, description: ad.description, city: place?.city ?? '', section: names?.[lng] ?? names?.es ?? '' };
  }
  return {
    state: stateOf(row, kind),
    publicist: { display_name: publicist?.displayName ?? '', legal_name: publicist?.legalName ?? null },
    model: { display_name: model?.displayName ?? '' },
    ad: adInfo,
    expires_at: row.expiresAt.toISOString(),
  };
}

/** The request of the mailed link's token, or of the one handed out for a correct code; 404 for any other. */
async function byToken(db: Db, token: string): Promise<ConsentRow> {
  const hash = hashToken(token);
  const [row] = await db
    .select()
    .from(modelConsents)
    .where(or(eq(modelConsents.tokenHash, hash), eq(modelConsents.codeTokenHash, hash)));
  if (!row) throw notFound('consent.errors.unknown');
  return row;
}

/** The consent of a withdrawal link's token; 404 for any other. */
async function byWithdrawToken(db: Db, token: string): Promise<ConsentRow> {
  const [row] = await db
    .select()
    .from(modelConsents)
    .where(eq(modelConsents.withdrawTokenHash, hashToken(token)));
  if (!row) throw notFound('consent.errors.unknown');
  return row;
}

/** GET /api/consent/{token}: the request as the model sees it. */
export async function consentRequestOf(db: Db, lng: string, token: string): Promise<ConsentRequest> {
  return describeConsent(db, lng, await byToken(db, token), 'give');
}

/** GET /api/consent/withdraw/{token}: the consent a withdrawal link can withdraw. */
export async function consentToWithdraw(db: Db, lng: string, token: string): Promise<ConsentRequest> {
  return describeConsent(db, lng, await byWithdrawToken(db, token), 'withdraw');
}

/** The model agrees or declines (answerConsent); answers the request as it now is. */
export async function decideConsent(app: FastifyInstance, lng: string, token: string, agree: boolean): Promise<ConsentRequest> {
  const found = await byToken(app.db, token);
  const row = await answerConsent(app, found.id, agree, lng);
  return describeConsent(app.db, lng, { ...row, status: agree ? 'given' : 'withdrawn' }, 'give');
}

/**
 * The model withdraws a given consent: the ads are unlisted at once (the ads trigger) and the publicist is told (stored
 * with the withdrawal, broadcast after the commit). Only the consent in force changes the model: a later request (new
 * contact) is not withdrawn by an old link. Answers the consent as it now is.
 */
export async function withdrawConsent(app: FastifyInstance, lng: string, token: string): Promise<ConsentRequest> {
  const found = await byWithdrawToken(app.db, token);
  const { row, notice } = await app.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(modelConsents).where(eq(modelConsents.id, found.id)).for('update');
    const state = stateOf(locked!, 'withdraw');
    if (state !== 'given') throw gone(state);
    const now = new Date();
    await tx.update(modelConsents).set({ status: 'withdrawn', withdrawnAt: now }).where(eq(modelConsents.id, locked!.id));
    const [model] = await tx.select().from(modelProfiles).where(eq(modelProfiles.id, locked!.modelProfileId)).for('update');
    if (model && model.consentStatus === 'given') {
      await tx.update(modelProfiles).set({ consentStatus: 'withdrawn', updatedAt: now }).where(eq(modelProfiles.id, model.id));
    }
    const notice = await notifyConsent(app, { publicistId: locked!.publicistId, modelProfileId: locked!.modelProfileId, given: false }, tx);
    return { row: locked!, notice };
  });
  await notice.publish();
  return describeConsent(app.db, lng, { ...row, status: 'withdrawn' }, 'withdraw');
}

/**
 * The code sent with the link, for a model who cannot or will not open links: contact + code → a one-time token for
 * the same page. Unknown contact and wrong code answer alike (no telling which contacts have requests); wrong codes
 * count against every open request of the contact and burn their codes at CONSENT_CODE_ATTEMPTS, so guessing a
 * six-digit code is hopeless even from many addresses. A correct code is burnt too: the token stands in for it.
 * `input` is consentCodeSchema's output (contact normalised, code digits only).
 */
export async function exchangeConsentCode(req: FastifyRequest, input: { contact: string; code: string }): Promise<{ token: string }> {
  const db = req.server.db;
  const open = await db
    .select({ id: modelConsents.id, modelProfileId: modelConsents.modelProfileId, codeHash: modelConsents.codeHash })
    .from(modelConsents)
    .where(
      and(
        eq(modelConsents.contact, input.contact),
        eq(modelConsents.status, 'pending'),
        gt(modelConsents.expiresAt, new Date()),
        isNotNull(modelConsents.codeHash),
      ),
    );
  const match = open.find((row) =>
    crypto.timingSafeEqual(Buffer.from(hashToken(`${row.modelProfileId}:${input.code}`)), Buffer.from(row.codeHash!)),
  );
  if (!match) {
    if (open.length) {
      await db
        .update(modelConsents)
        .set({
          codeAttempts: sql`${modelConsents.codeAttempts} + 1`,
          codeHash: sql`CASE WHEN ${modelConsents.codeAttempts} + 1 >= ${CONSENT_CODE_ATTEMPTS} THEN NULL ELSE ${modelConsents.codeHash} END`,
        })
        .where(
          inArray(
            modelConsents.id,
            open.map((row) => row.id),
          ),
        );
    }
    throw validationFailed({ code: [req.t('consent.errors.code')] });
  }
  const token = newToken();
  await db
    .update(modelConsents)
    .set({ codeHash: null, codeTokenHash: hashToken(token) })
    .where(eq(modelConsents.id, match.id));
  return { token };
}
