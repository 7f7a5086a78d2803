/**
 * Notices about ads (EU DSA art. 16) and their handling. Reporting needs no account; what costs real people nothing
 * and stops floods: a hidden honeypot field, a minimum time with the form open, per-IP limits, and collapsing a
 * repeated identical notice into the first one (same receipt). The reporter's IP is kept only as an HMAC.
 */
import crypto from 'node:crypto';
import { and, eq, gte } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { URGENT_REPORT_REASONS, type Report, type ReportDecisionInput, type ReportReason } from '#contract/reports.ts';
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
  req: FastifyRequest,
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
