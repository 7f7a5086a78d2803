/**
 * Erasure (GDPR art. 17): removes an account and everything personal Vitrina holds about it, rows and stored files,
 * in one transaction (files after the commit). What the law makes us keep stays, reduced to no personal data:
 * statements of reasons and appeals (DSA arts. 17, 20, 24) keep the user id as a number, the audit log keeps who did
 * what to which record and when, with names, e-mail addresses, phones and IPs replaced by ERASED. Notices about the
 * person's ads stay for the same reason, their snapshot reduced the same way. erasure.test.ts lists every table and
 * storage prefix, so one added later must be classified there.
 */
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import {
  appeals,
  auditLog,
  contactMessages,
  idempotencyKeys,
  media,
  modelConsents,
  photoReviews,
  reports,
  sessions,
  statements,
  supportConversations,
  users,
} from '../../db/schema.ts';
import type { Storage } from '../../plugins/storage.ts';
import { cancelJob } from '../jobs/jobs.ts';
import { chatEmailKey } from '../support-chat/support-chat.ts';
import { accountScope, subjectsOf } from '../../db/account-scope.ts';

export const ERASED = '[erased]';

/** Keys whose value is personal wherever they appear in a kept JSON document about the person. */
const PERSONAL_KEYS = new Set([
  'name',
  'email',
  'display_name',
  'displayName',
  'model_name',
  'modelName',
  'phone',
  'contact',
  'contact_email',
  'contactEmail',
  'legal_name',
  'legalName',
  'tax_id',
  'taxId',
  'address',
  'birth_date',
  'birthDate',
  'ip',
  'user_agent',
  'title',
  'description',
]);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces the identifiers in every string of `value` (case-blind), and — with `byKey` — every string under a personal
 * key. Identifiers are matched as given, so short generic words are left out by the caller.
 */
export function redact(value: unknown, identifiers: string[], byKey: boolean): unknown {
  // Whole words only: a name inside a longer word ("Ana" in "Mariana"), an IP inside a longer one, stays.
  const pattern = identifiers.length
    ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${identifiers.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu')
    : null;
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') {
      if (byKey && key && PERSONAL_KEYS.has(key) && v !== '') return ERASED;
      return pattern ? v.replace(pattern, ERASED) : v;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface ErasureResult {
  /** Storage prefixes to remove once the transaction has committed. */
  storagePrefixes: string[];
}

/**
 * Erases `userId` inside `tx` (the caller's transaction, so a staff deletion's audit entry commits with it). Returns
 * the storage prefixes to remove after the commit: `removeErasedFiles` does it.
 */
export async function eraseAccount(tx: Db, userId: number): Promise<ErasureResult> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) return { storagePrefixes: [] };

  const { publicist, profiles, profileIds, adRows, adIds, verifications } = await accountScope(tx, userId);
  const mediaIds = adIds.length ? (await tx.select({ id: media.id }).from(media).where(inArray(media.adId, adIds))).map((m) => m.id) : [];
  // Refused photos of their ads kept for a person's review (issue 24 B7): their rows go with the ads, their files here.
  const heldUids = adIds.length
    ? (await tx.select({ uid: photoReviews.uid }).from(photoReviews).where(inArray(photoReviews.adId, adIds))).map((r) => r.uid)
    : [];
  const consents = profileIds.length ? await tx.select().from(modelConsents).where(inArray(modelConsents.modelProfileId, profileIds)) : [];
  const ips = (await tx.select({ ip: sessions.ip }).from(sessions).where(eq(sessions.userId, userId))).map((s) => s.ip);

  // What identifies the person (and the models an agency listed) in text we keep. Rows are found by their links to the
  // person and by the unmistakable identifiers (`strong`); names are too common to search the whole log with, so they
  // are replaced only inside rows already found to be about the person.
  const strong = [
    user.email,
    ...profiles.flatMap((p) => [p.phone, p.contactEmail]),
    ...consents.map((c) => c.contact),
    ...(publicist ? [publicist.email, publicist.phone, publicist.taxId, publicist.legalName, publicist.address] : []),
  ];
  const names = [
    user.name,
    ...profiles.map((p) => p.displayName),
    ...(publicist ? [publicist.displayName] : []),
    ...adRows.map((a) => a.title),
  ];
  const identifiers = [...new Set([...strong, ...names, ...ips].filter((s): s is string => !!s && s.trim().length >= 3))].sort(
    (a, b) => b.length - a.length,
  );
  const mailLike = [...new Set(strong.filter((s): s is string => !!s && s.length >= 5))];

  // Their support conversation, its messages and their notifications go with the account (foreign keys cascade);
  // the pending e-mail about unread replies goes now. Staff replies they wrote elsewhere stay, unsigned (sender null).
  for (const c of await tx
    .select({ id: supportConversations.id })
    .from(supportConversations)
    .where(eq(supportConversations.userId, userId)))
    await cancelJob(tx, chatEmailKey(c.id));

  // Messages they wrote through the contact form (signed in, or with their address) are theirs alone: removed.
  await tx
    .delete(contactMessages)
    .where(or(eq(contactMessages.userId, userId), sql`lower(${contactMessages.email}) = lower(${user.email})`));

  // Notices they made stay (a notice is the ad's history), without a way back to them.
  await tx
    .update(reports)
    .set({ contact: null, ipHash: null, reporterUserId: null })
    .where(or(eq(reports.reporterUserId, userId), ...mailLike.map((c) => sql`lower(${reports.contact}) = lower(${c})`)));
  // Notices about their ads stay too (authorities may ask for them), the snapshot and texts reduced.
  const aboutThem = await tx
    .select()
    .from(reports)
    .where(
      or(
        adIds.length ? inArray(reports.adId, adIds) : undefined,
        ...mailLike.map(
          (i) =>
            sql`(coalesce(${reports.adSnapshot}::text, '') || ${reports.details} || coalesce(${reports.decisionText}, '')) ILIKE ${`%${likeEscape(i)}%`}`,
        ),
      ),
    );
  for (const r of aboutThem) {
    const next = {
      adSnapshot: redact(r.adSnapshot, identifiers, true) as Record<string, unknown> | null,
      details: redact(r.details, identifiers, false) as string,
      decisionText: redact(r.decisionText, identifiers, false) as string | null,
    };
    if (!same(next, { adSnapshot: r.adSnapshot, details: r.details, decisionText: r.decisionText })) {
      await tx.update(reports).set(next).where(eq(reports.id, r.id));
    }
  }

  // Recorded requests: the stored answers may quote their data; the actor is theirs.
  await tx
    .delete(idempotencyKeys)
    .where(
      or(
        eq(idempotencyKeys.actor, `user:${userId}`),
        ...mailLike.map((c) => sql`${idempotencyKeys.responseBody} ILIKE ${`%${likeEscape(c)}%`}`),
      ),
    );

  // Statements and appeals stay with the user id as a number; the facts lose names, the appeal its text.
  const subjectMatch = subjectsOf(statements.subjectType, statements.subjectId, {
    userId,
    profileIds,
    publicistId: publicist?.id,
    adIds,
    mediaIds,
    verificationIds: verifications.map((v) => v.id),
  });
  const kept = await tx
    .select()
    .from(statements)
    .where(or(eq(statements.userId, userId), subjectMatch));
  for (const s of kept) {
    const next = {
      facts: redact(s.facts, identifiers, false) as string,
      automatedDetail: redact(s.automatedDetail, identifiers, true) as Record<string, unknown> | null,
    };
    if (!same(next, { facts: s.facts, automatedDetail: s.automatedDetail }))
      await tx.update(statements).set(next).where(eq(statements.id, s.id));
  }
  const appealRows = await tx
    .select()
    .from(appeals)
    .where(
      or(
        eq(appeals.userId, userId),
        kept.length
          ? inArray(
              appeals.statementId,
              kept.map((s) => s.id),
            )
          : undefined,
      ),
    );
  for (const a of appealRows) {
    await tx
      .update(appeals)
      .set({
        text: a.userId === userId ? ERASED : (redact(a.text, identifiers, false) as string),
        decisionText: redact(a.decisionText, identifiers, false) as string | null,
      })
      .where(eq(appeals.id, a.id));
  }

  // The audit log: entries about their records lose every personal field; entries where they acted (as staff) keep
  // the actor id and role, not the e-mail or IP. The append-only trigger lets this transaction change only those.
  await tx.execute(sql`SELECT set_config('vitrina.erasure', 'on', true)`);
  const aboutSubjects = subjectsOf(auditLog.subjectType, auditLog.subjectId, {
    userId,
    profileIds,
    publicistId: publicist?.id,
    adIds,
    mediaIds,
    verificationIds: verifications.map((v) => v.id),
    appealIds: appealRows.map((a) => a.id),
    reportIds: aboutThem.map((r) => r.id),
  });
  const entries = await tx
    .select()
    .from(auditLog)
    .where(
      or(
        eq(auditLog.actorId, userId),
        aboutSubjects,
        ...mailLike.map(
          (i) =>
            sql`(coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, '') || coalesce(${auditLog.reason}::text, '') || coalesce(${auditLog.actorEmail}, '')) ILIKE ${`%${likeEscape(i)}%`}`,
        ),
      ),
    );
  const ownSubjects = new Set([
    `user:${userId}`,
    ...profileIds.map((id) => `model_profile:${id}`),
    ...(publicist ? [`publicist_profile:${publicist.id}`] : []),
    ...adIds.map((id) => `ad:${id}`),
    ...mediaIds.map((id) => `media:${id}`),
    ...verifications.map((v) => `verification:${v.id}`),
    ...appealRows.map((a) => `appeal:${a.id}`),
    ...aboutThem.map((r) => `report:${r.id}`),
  ]);
  for (const e of entries) {
    const theirs = e.actorId === userId;
    // Every personal field of an entry about their records goes; in an entry where they acted on someone else's,
    // only their own identifiers do (the other person's data is not theirs to erase).
    const byKey = ownSubjects.has(`${e.subjectType}:${e.subjectId}`);
    const next = {
      actorEmail: theirs ? null : e.actorEmail,
      ip: theirs ? null : e.ip,
      before: redact(e.before, identifiers, byKey) as Record<string, unknown> | null,
      after: redact(e.after, identifiers, byKey) as Record<string, unknown> | null,
      reason: redact(e.reason, identifiers, false) as { codes?: string[]; text?: string } | null,
    };
    if (!same(next, { actorEmail: e.actorEmail, ip: e.ip, before: e.before, after: e.after, reason: e.reason })) {
      await tx.update(auditLog).set(next).where(eq(auditLog.id, e.id));
    }
  }
  await tx.execute(sql`SELECT set_config('vitrina.erasure', '', true)`);

  // The account: sessions, reset tokens, profiles, ads, photos, verification requests, consents and exports cascade.
  await tx.delete(users).where(eq(users.id, userId));

  return {
    storagePrefixes: [
      ...adIds.map((id) => `ads/${id}`),
      ...heldUids.map((uid) => `held/${uid}`),
      ...profileIds.map((id) => `verification/${id}`),
      ...verifications.map((v) => v.photoKey).filter((k): k is string => !!k),
      `exports/${userId}`,
    ],
  };
}

/** After the commit: the files go too. A failure is logged (the rows are gone, so nothing serves them any more). */
export async function removeErasedFiles(storage: Storage, result: ErasureResult, log: Pick<FastifyBaseLogger, 'error'>): Promise<void> {
  for (const prefix of result.storagePrefixes) {
    await storage.remove(prefix).catch((err: unknown) => log.error({ err, prefix }, 'erasure: removing files failed'));
  }
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
