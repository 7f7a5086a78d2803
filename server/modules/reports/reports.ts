/**
 * Notices about ads (EU DSA art. 16) and their handling. Reporting needs no account; what costs real people nothing
 * and stops floods: a hidden honeypot field, a minimum time with the form open, per-IP limits, and collapsing a
 * repeated identical notice into the first one (same receipt). The reporter's IP is kept only as an HMAC.
 */
import crypto from 'node:crypto';
import { and, asc, count, desc, eq, gte, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import {
  URGENT_REPORT_REASONS,
  type Report,
  type ReportCreate,
  type ReportDecisionInput,
  type ReportFilters,
  type ReportReason,
} from '#contract/reports.ts';
import { page } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { media, reports } from '../../db/schema.ts';
import { conflict, notFound } from '../../errors.ts';
import { renderMail } from '../../plugins/mail.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { queueMail } from '../jobs/mail-job.ts';
import { findVisibleAd } from '../listings/listings.repository.ts';

/** A form sent sooner than this after it opened was not filled by a person. */
export const MIN_FILL_MS = 2000;

export function ipHash(appKey: string, ip: string): string {
  return crypto.createHmac('sha256', appKey).update(`ip:${ip}`).digest('hex');
}

// Crockford's base32 without look-alikes: read aloud or typed back without confusion.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newReceipt(): string {
  const bytes = crypto.randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function priorityOf(reason: ReportReason): number {
  if (URGENT_REPORT_REASONS.includes(reason)) return 0;
  return reason === 'illegal_content' ? 1 : 2;
}

export const isEmail = (contact: string | null | undefined): contact is string => !!contact && contact.includes('@');

/** What the ad looked like when reported: it may be edited or removed before staff look. */
export async function adSnapshot(db: Db, adId: number): Promise<Record<string, unknown> | null> {
  const ad = await findVisibleAd(db, adId);
  if (!ad) return null;
  const photos = await db.select({ id: media.id }).from(media).where(eq(media.adId, adId));
  return {
    title: ad.title,
    model_name: ad.display_name,
    city: ad.city_name,
    section: ad.section_slug,
    description: ad.description.slice(0, 500),
    photo_ids: photos.map((p) => p.id),
  };
}

/** An identical notice from the same address in the last day, if any: the repeat is answered with its receipt. */
export async function findDuplicate(db: Db, v: { adId: number; reason: string; details: string; ipHash: string }) {
  const since = new Date(Date.now() - 24 * 3600 * 1000);
  const [row] = await db
    .select({ receipt: reports.receipt })
    .from(reports)
    .where(
      and(
        eq(reports.adId, v.adId),
        eq(reports.reason, v.reason),
        eq(reports.details, v.details),
        eq(reports.ipHash, v.ipHash),
        gte(reports.createdAt, since),
      ),
    );
  return row;
}

export function toReport(r: typeof reports.$inferSelect): Report {
  return {
    id: r.id,
    ad_id: r.adId,
    ad: r.adSnapshot ?? null,
    reason: r.reason as ReportReason,
    details: r.details,
    contact: r.contact,
    language: r.language,
    priority: r.priority,
    escalate: r.escalate,
    status: r.status,
    receipt: r.receipt,
    signed_in: r.reporterUserId !== null,
    decision_text: r.decisionText,
    decided_at: r.decidedAt ? r.decidedAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
  };
}

/**
 * The receipt (on filing) or the decision (later), in the reporter's language, to the contact they left: queued in
 * `db`, the transaction that stores the notice or its decision, so they commit together. A phone
 * number goes through the same mailer: in the embedded default it lands in the outbox addressed to the number, like
 * the consent messages; a real SMTP server refuses it, which is logged (no SMS gateway yet), never the reporter's problem.
 */
export async function mailReporter(
  app: FastifyInstance,
  r: Pick<typeof reports.$inferSelect, 'contact' | 'language' | 'receipt' | 'adId' | 'adSnapshot'>,
  kind: 'received' | 'decided',
  vars: Record<string, string>,
  db: Db,
): Promise<void> {
  if (!r.contact) return;
  const t = app.tFor(r.language);
  // The ad as the reporter saw it (the snapshot taken on filing); its number only when there is none.
  const title = typeof r.adSnapshot?.title === 'string' ? r.adSnapshot.title : '';
  const name = typeof r.adSnapshot?.model_name === 'string' ? r.adSnapshot.model_name : '';
  const ad = title ? t('mail.report.adTitle', { title, name }) : t('mail.report.adNumber', { id: r.adId ?? '' });
  const all = { receipt: r.receipt, ad, ...vars };
  const lines = [t(`mail.report.${kind}.line1`, all), t(`mail.report.${kind}.line2`, all)];
  // The decision says where the reporter can go next (DSA art. 20, 21): us again, a dispute settlement body, courts.
  if (kind === 'decided') lines.push(t('mail.report.decided.redress'));
  const body = renderMail({
    lang: r.language,
    greeting: t('mail.report.greeting'),
    lines,
    ...(kind === 'decided'
      ? { action: { label: t('mail.report.decided.action'), url: `${app.config.appUrl}/${r.language}/contact` } }
      : {}),
    footer: t('mail.footer'),
  });
  // A queued job (modules/jobs/mail-job.ts): one to a phone that SMTP refuses is logged there and not retried.
  await queueMail(db, { to: r.contact, subject: t(`mail.report.${kind}.subject`, all), ...body });
}

/**
 * Staff decide an open notice (actioned | dismissed, with a text): the decision, its audit entry and the reporter's
 * mail commit together. 409 when it was decided already.
 */
export async function decideReport(
  app: FastifyInstance,
  req: Pick<FastifyRequest, 'ip'>,
  staff: SessionUser,
  id: number,
  input: ReportDecisionInput,
): Promise<typeof reports.$inferSelect> {
  return app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(reports).where(eq(reports.id, id)).for('update');
    if (!before) throw notFound();
    if (before.status !== 'open') throw conflict(undefined, 'reports.api.alreadyDecided');
    const [after] = await tx
      .update(reports)
      .set({ status: input.outcome, decisionText: input.text, decidedBy: staff.id, decidedAt: new Date() })
      .where(eq(reports.id, before.id))
      .returning();
    await recordAudit(tx, {
      actor: staff,
      action: `report.${input.outcome === 'actioned' ? 'action' : 'dismiss'}`,
      subjectType: 'report',
      subjectId: before.id,
      before: { status: before.status },
      after: { status: after!.status, decision_text: after!.decisionText },
      reason: { text: input.text },
      req,
    });
    await mailReporter(
      app,
      after!,
      'decided',
      { outcome: app.tFor(after!.language)(`reports.outcomes.${after!.status}`), text: after!.decisionText ?? '' },
      tx,
    );
    return after!;
  });
}

/** Who filed a notice, as far as we keep it, and the per-IP limits to spend once it is worth storing. */
export interface Filing {
  ipHash: string;
  language: string;
  reporterUserId: number | null;
  log: FastifyBaseLogger;
  /** Throws 429 when the address has sent too many notices (in general, or about this ad). */
  throttle: () => Promise<void>;
}

/**
 * Files a notice and gives its receipt. A bot (honeypot filled, or sent faster than a person can read the form) gets
 * a receipt too but nothing is stored; an identical repeat gets the first notice's receipt. The notice and its
 * receipt mail (a queued job) commit together.
 */
export async function fileReport(app: FastifyInstance, input: ReportCreate, filing: Filing): Promise<string> {
  if (input.website || (input.opened_at !== undefined && Date.now() - input.opened_at < MIN_FILL_MS)) {
    filing.log.info({ ipHash: filing.ipHash }, 'report dropped as automated');
    return newReceipt();
  }
  const snapshot = await adSnapshot(app.db, input.ad_id);
  if (!snapshot) throw notFound();
  const duplicate = await findDuplicate(app.db, { adId: input.ad_id, reason: input.reason, details: input.details, ipHash: filing.ipHash });
  if (duplicate) return duplicate.receipt;
  await filing.throttle();
  const urgent = URGENT_REPORT_REASONS.includes(input.reason);
  const row = await app.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(reports)
      .values({
        adId: input.ad_id,
        adSnapshot: snapshot,
        reason: input.reason,
        details: input.details,
        contact: input.contact ?? null,
        language: filing.language,
        priority: priorityOf(input.reason),
        escalate: urgent,
        receipt: newReceipt(),
        reporterUserId: filing.reporterUserId,
        ipHash: filing.ipHash,
      })
      .returning();
    await mailReporter(app, inserted!, 'received', {}, tx);
    return inserted!;
  });
  if (urgent) filing.log.warn({ reportId: row.id, adId: input.ad_id, reason: input.reason }, 'urgent report: flagged for escalation');
  return row.receipt;
}

/** Staff's queue: open before decided, urgent before the rest, then oldest first (nothing waits behind newer notices). */
export async function listReports(db: Db, q: ReportFilters) {
  const where: SQL[] = [];
  const status = q.status ?? 'open';
  if (status !== 'all') where.push(eq(reports.status, status));
  if (q.reason) where.push(eq(reports.reason, q.reason));
  if (q.escalate) where.push(eq(reports.escalate, q.escalate === '1'));
  const cond = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(reports)
      .where(cond)
      .orderBy(desc(eq(reports.status, 'open')), asc(reports.priority), asc(reports.createdAt), asc(reports.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    db.select({ n: count() }).from(reports).where(cond),
  ]);
  return page(rows.map(toReport), { page: q.page, perPage: q.per_page, total: Number(total?.n ?? 0) });
}

export async function getReport(db: Db, id: number): Promise<Report> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id));
  if (!row) throw notFound();
  return toReport(row);
}
