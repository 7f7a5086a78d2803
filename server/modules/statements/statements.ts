/**
 * Statements of reasons (EU DSA art. 17): `issueStatement` stores one for the user a restriction affects and mails it
 * in their language. Other modules call it for every restriction they impose, inside their transaction: the mail is
 * queued in that transaction (modules/jobs/mail-job.ts), so a decision rolled back mails nothing and a committed one
 * is certain to be mailed, even if the process dies right after the commit. The same holds for the appeal and
 * reinstatement mails: pass the transaction of the change.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TFunction } from 'i18next';
import { APPEAL_MONTHS, type StatementDecision, type StatementGround, type StatementSubject } from '#contract/statements.ts';
import type { Db } from '../../db/client.ts';
import {
  ads,
  auditLog,
  media,
  modelProfiles,
  photoReviews,
  publicistProfiles,
  statements,
  users,
  verificationRequests,
} from '../../db/schema.ts';
import { renderMail } from '../../plugins/mail.ts';
import { queueMail } from '../jobs/mail-job.ts';

export type StatementRow = typeof statements.$inferSelect;

export interface Recipient {
  id: number;
  name: string;
  email: string;
  locale: string;
}

export interface StatementInput {
  subjectType: StatementSubject;
  subjectId: number;
  decision: StatementDecision;
  reasonCodes: string[];
  /** Facts and circumstances, in staff's words. */
  facts: string;
  /** The rule broken; the first reason code when not given. */
  ground?: StatementGround;
  automated?: boolean;
  /** e.g. `{ moderation: { provider, scores } }` when automated means were used. */
  automatedDetail?: Record<string, unknown> | null;
  /** Staff member who decided (null for an automated decision). */
  decidedBy?: number | null;
  /** The recipient, when the caller knows it; otherwise found from the subject. */
  recipient?: Recipient | null;
  /**
   * The subject's names for the mail, when the caller changes or deletes the subject in the same transaction before
   * issuing the statement (a removed photo has no row to name it by): found with `describeSubject` before the change.
   */
  about?: SubjectInfo | null;
}

export interface IssuedStatement {
  statement: StatementRow;
  recipient: Recipient | null;
}

const userColumns = { id: users.id, name: users.name, email: users.email, locale: users.locale };

/** The account of a model profile: the model's own, or for a publicist's model without one, the publicist's. */
async function profileRecipient(db: Db, profileId: number): Promise<Recipient | null> {
  const [p] = await db
    .select({ userId: modelProfiles.userId, publicistUserId: publicistProfiles.userId })
    .from(modelProfiles)
    .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
    .where(eq(modelProfiles.id, profileId));
  const userId = p?.userId ?? p?.publicistUserId ?? null;
  if (userId === null) return null;
  const [u] = await db.select(userColumns).from(users).where(eq(users.id, userId));
  return u ?? null;
}

/** Who is told about a decision on `subjectType` #`subjectId` (null when nobody can be: e.g. the row is gone). */
export async function recipientFor(db: Db, subjectType: StatementSubject, subjectId: number): Promise<Recipient | null> {
  switch (subjectType) {
    case 'user': {
      const [u] = await db.select(userColumns).from(users).where(eq(users.id, subjectId));
      return u ?? null;
    }
    case 'model_profile':
      return profileRecipient(db, subjectId);
    case 'publicist_profile': {
      const [u] = await db
        .select(userColumns)
        .from(publicistProfiles)
        .innerJoin(users, eq(users.id, publicistProfiles.userId))
        .where(eq(publicistProfiles.id, subjectId));
      return u ?? null;
    }
    case 'ad': {
      const [a] = await db.select({ profileId: ads.modelProfileId }).from(ads).where(eq(ads.id, subjectId));
      return a ? profileRecipient(db, a.profileId) : null;
    }
    case 'media': {
      const [m] = await db
        .select({ profileId: ads.modelProfileId })
        .from(media)
        .innerJoin(ads, eq(ads.id, media.adId))
        .where(eq(media.id, subjectId));
      return m ? profileRecipient(db, m.profileId) : null;
    }
    case 'verification': {
      const [v] = await db
        .select({ profileId: verificationRequests.modelProfileId })
        .from(verificationRequests)
        .where(eq(verificationRequests.id, subjectId));
      return v ? profileRecipient(db, v.profileId) : null;
    }
    case 'photo_review': {
      const [r] = await db
        .select({ profileId: ads.modelProfileId })
        .from(photoReviews)
        .innerJoin(ads, eq(ads.id, photoReviews.adId))
        .where(eq(photoReviews.id, subjectId));
      return r ? profileRecipient(db, r.profileId) : null;
    }
  }
}

/** What a statement is about, as the mails name it: an ad's title and the model's name, a profile's name. */
export interface SubjectInfo {
  title?: string;
  name?: string;
}

async function adInfo(db: Db, adId: number): Promise<SubjectInfo | null> {
  const [a] = await db
    .select({ title: ads.title, name: modelProfiles.displayName })
    .from(ads)
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .where(eq(ads.id, adId));
  return a ?? null;
}

/**
 * Names the subject from the current rows. A removed photo has no row left: with `statementId`, its ad is found
 * through the audit entry of the decision that issued the statement (`before`/`after.ad_id`). Null when nothing is left.
 */
export async function describeSubject(
  db: Db,
  subjectType: StatementSubject,
  subjectId: number,
  statementId?: number,
): Promise<SubjectInfo | null> {
  switch (subjectType) {
    case 'ad':
      return adInfo(db, subjectId);
    case 'media': {
      const [m] = await db.select({ adId: media.adId }).from(media).where(eq(media.id, subjectId));
      if (m) return adInfo(db, m.adId);
      if (statementId === undefined) return null;
      const [entry] = await db
        .select({ before: auditLog.before, after: auditLog.after })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.subjectType, 'media'),
            eq(auditLog.subjectId, subjectId),
            sql`${auditLog.after} ->> 'statement_id' = ${String(statementId)}`,
          ),
        )
        .limit(1);
      const adId = Number(entry?.after?.ad_id ?? entry?.before?.ad_id);
      return Number.isInteger(adId) ? adInfo(db, adId) : null;
    }
    case 'model_profile': {
      const [p] = await db.select({ name: modelProfiles.displayName }).from(modelProfiles).where(eq(modelProfiles.id, subjectId));
      return p ?? null;
    }
    case 'publicist_profile': {
      const [p] = await db
        .select({ name: publicistProfiles.displayName })
        .from(publicistProfiles)
        .where(eq(publicistProfiles.id, subjectId));
      return p ?? null;
    }
    case 'verification': {
      const [v] = await db
        .select({ name: modelProfiles.displayName })
        .from(verificationRequests)
        .innerJoin(modelProfiles, eq(modelProfiles.id, verificationRequests.modelProfileId))
        .where(eq(verificationRequests.id, subjectId));
      return v ?? null;
    }
    case 'user': {
      const [u] = await db.select({ name: users.name }).from(users).where(eq(users.id, subjectId));
      return u ?? null;
    }
    case 'photo_review': {
      const [r] = await db.select({ adId: photoReviews.adId }).from(photoReviews).where(eq(photoReviews.id, subjectId));
      return r ? adInfo(db, r.adId) : null;
    }
  }
}

/** The subject in words for a mail sentence ("el anuncio «…» de …"); type and number when nothing is left to name. */
export function subjectText(t: TFunction, s: StatementRow, info: SubjectInfo | null): string {
  if (!info) return t('mail.item.unknown', { subject: t(`statements.subjects.${s.subjectType}`), id: s.subjectId });
  return t(`mail.item.${s.subjectType}`, { title: info.title ?? '', name: info.name ?? '' });
}

export function appealDeadline(from = new Date()): Date {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + APPEAL_MONTHS);
  return d;
}

/** The statement's page in the app, in the recipient's language. */
export function statementUrl(appUrl: string, lng: string, id: number): string {
  return `${appUrl}/${lng}/statements/${id}`;
}

/**
 * Stores the statement and queues its mail to the recipient, both in `db`: the caller's transaction, so the mail
 * commits (or rolls back) with the decision. A failure to queue fails the decision.
 */
export async function issueStatement(db: Db, app: FastifyInstance, input: StatementInput): Promise<IssuedStatement> {
  const recipient = input.recipient === undefined ? await recipientFor(db, input.subjectType, input.subjectId) : input.recipient;
  const [statement] = await db
    .insert(statements)
    .values({
      userId: recipient?.id ?? null,
      subjectType: input.subjectType,
      subjectId: input.subjectId,
      decision: input.decision,
      reasonCodes: input.reasonCodes,
      facts: input.facts,
      ground: input.ground ?? input.reasonCodes[0] ?? 'other',
      automated: input.automated ?? false,
      automatedDetail: input.automatedDetail ?? null,
      language: recipient?.locale ?? 'es',
      decidedBy: input.decidedBy ?? null,
      appealUntil: appealDeadline(),
    })
    .returning();
  if (recipient) {
    const about = input.about !== undefined ? input.about : await describeSubject(db, input.subjectType, input.subjectId);
    await sendStatementMail(db, app, recipient, statement!, about);
  }
  return { statement: statement!, recipient };
}

/** Queues the statement's mail in `db` (the transaction of the decision). `about`: the subject's names (found from the rows in `db` when not given). */
export async function sendStatementMail(
  db: Db,
  app: FastifyInstance,
  to: Recipient,
  s: StatementRow,
  about?: SubjectInfo | null,
): Promise<void> {
  const t = app.tFor(to.locale);
  const lng = s.language;
  const date = new Intl.DateTimeFormat(lng.replace('_', '-'), { dateStyle: 'long' }).format(s.appealUntil);
  const info = about === undefined ? await describeSubject(db, s.subjectType, s.subjectId, s.id) : about;
  // The ground once; the other reason codes only when there are any.
  const others = [...new Set(s.reasonCodes)].filter((c) => c !== s.ground);
  const lines = [
    t('mail.statement.line1', { item: subjectText(t, s, info), decision: t(`statements.decisions.${s.decision}`) }),
    t('mail.statement.facts', { facts: s.facts }),
    t('mail.statement.ground', { ground: t(`statements.grounds.${s.ground}`) }),
    ...(others.length ? [t('mail.statement.reasons', { reasons: others.map((c) => t(`statements.grounds.${c}`)).join(', ') })] : []),
    s.automated ? t('mail.statement.automated') : t('mail.statement.manual'),
    t('mail.statement.appeal', { date }),
  ];
  const body = renderMail({
    lang: lng,
    greeting: t('mail.greeting', { name: to.name }),
    lines,
    action: { label: t('mail.statement.action'), url: statementUrl(app.config.appUrl, lng, s.id) },
    footer: t('mail.footer'),
  });
  await queueMail(db, { to: to.email, subject: t('mail.statement.subject'), ...body });
}

/** Tells the user how their appeal was decided: queued in `db`, the transaction that decides the appeal. */
export async function sendAppealDecidedMail(
  db: Db,
  app: FastifyInstance,
  to: Recipient,
  s: StatementRow,
  outcome: 'upheld' | 'reversed',
  text: string,
): Promise<void> {
  const t = app.tFor(to.locale);
  const lng = to.locale;
  const info = await describeSubject(db, s.subjectType, s.subjectId, s.id);
  const body = renderMail({
    lang: lng,
    greeting: t('mail.greeting', { name: to.name }),
    lines: [t(`mail.appealDecided.${outcome}`, { item: subjectText(t, s, info) }), t('mail.appealDecided.text', { text })],
    action: { label: t('mail.appealDecided.action'), url: statementUrl(app.config.appUrl, lng, s.id) },
    footer: t('mail.footer'),
  });
  await queueMail(db, { to: to.email, subject: t('mail.appealDecided.subject'), ...body });
}

/**
 * Tells the user their account's suspension was lifted (with staff's words, when they wrote any): queued in `db`, the
 * transaction that lifts it.
 */
export async function sendAccountReinstatedMail(
  db: Db,
  app: FastifyInstance,
  to: Recipient & { role: string },
  text: string,
): Promise<void> {
  const t = app.tFor(to.locale);
  const lng = to.locale;
  // A client has no ads to be shown again.
  const line1 = t('mail.accountReinstated.line1', to.role === 'client' ? { context: 'client' } : {});
  const lines = [line1, ...(text ? [t('mail.accountReinstated.text', { text })] : [])];
  const body = renderMail({
    lang: lng,
    greeting: t('mail.greeting', { name: to.name }),
    lines,
    action: { label: t('mail.accountReinstated.action'), url: `${app.config.appUrl}/${lng}/login` },
    footer: t('mail.footer'),
  });
  await queueMail(db, { to: to.email, subject: t('mail.accountReinstated.subject'), ...body });
}
