/**
 * Data export (GDPR arts. 15, 20): everything Vitrina holds about a user, as one zip of `vitrina-data.json` plus the
 * stored photo files, built in the background into private storage (`exports/{userId}/…`) and downloaded through a
 * signed link that expires. `buildExport(deps, exportId)` is the job: a plain function, so a durable queue can run it
 * later instead of the in-process start below.
 */
import crypto from 'node:crypto';
import { and, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TFunction } from 'i18next';
import { ZipDeflate, ZipPassThrough, Zip } from 'fflate';
import { DATA_EXPORT_JSON, DATA_EXPORT_TTL_HOURS, DATA_EXPORTS_PER_DAY, type DataExportState } from '#contract/data-rights.ts';
import { API } from '#contract/routes.ts';
import type { Db } from '../../db/client.ts';
import {
  ads,
  adStatsWeekly,
  appeals,
  auditLog,
  cities,
  contactMessages,
  dataExports,
  favourites,
  idempotencyKeys,
  media,
  modelConsents,
  notifications,
  passwordResetTokens,
  photoReviews,
  pushPreferences,
  pushSubscriptions,
  reports,
  savedSearches,
  savedSearchHits,
  sections,
  sessions,
  statements,
  supportConversations,
  supportMessages,
  users,
} from '../../db/schema.ts';
import { notFound, tooManyRequests } from '../../errors.ts';
import type { Storage, StoredFile } from '../../plugins/storage.ts';
import { mediaKey } from '../media/images.ts';
import { heldKey } from '../media/refused-photos.ts';
import { accountScope, subjectsOf } from '../../db/account-scope.ts';

export interface ExportDeps {
  db: Db;
  storage: Storage;
  appKey: string;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  /** For the archive's README.txt, in the user's language (server i18n's `app.tFor`). */
  tFor?: (lng: string) => TFunction;
  appUrl?: string;
}

/** The archive's README: what each part holds, and where the rest of art. 15 (purposes, retention, rights) is. */
function readme(deps: ExportDeps, locale: string, now: Date): string | null {
  if (!deps.tFor) return null;
  const t = deps.tFor(locale);
  const date = new Intl.DateTimeFormat(locale.replace('_', '-'), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(now);
  return t('dataRights.archive.readme', { date: `${date} UTC`, privacyUrl: `${deps.appUrl ?? ''}/${locale}/legal/privacy-policy` });
}

const TTL_MS = DATA_EXPORT_TTL_HOURS * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A build that has not finished by then died with its process: it no longer blocks a new request. */
export const STALE_PENDING_MS = 30 * 60 * 1000;

export type ExportRow = typeof dataExports.$inferSelect;

function sign(appKey: string, row: Pick<ExportRow, 'id' | 'userId'>, expires: number): string {
  return crypto.createHmac('sha256', appKey).update(`data-export|${row.id}|${row.userId}|${expires}`).digest('hex');
}

export function downloadUrl(appKey: string, row: ExportRow): string | null {
  if (row.status !== 'ready' || !row.expiresAt) return null;
  const expires = Math.floor(row.expiresAt.getTime() / 1000);
  return API.dataExportDownload(row.id, expires, sign(appKey, row, expires));
}

/** Whether a download link's signature is ours for this export and expiry (constant time). */
export function signatureMatches(appKey: string, row: Pick<ExportRow, 'id' | 'userId'>, expires: number, signature: string): boolean {
  const expected = Buffer.from(sign(appKey, row, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function toState(appKey: string, row: ExportRow | undefined, now = new Date()): DataExportState {
  if (!row) {
    return { status: 'none', id: null, created_at: null, completed_at: null, expires_at: null, download_url: null, size_bytes: null };
  }
  const stale = row.status === 'pending' && now.getTime() - row.createdAt.getTime() > STALE_PENDING_MS;
  const expired = row.status === 'ready' && !!row.expiresAt && row.expiresAt <= now;
  // An expired archive reads as none: the user asks again; a build that died reads as failed: they retry.
  if (expired) return toState(appKey, undefined, now);
  return {
    status: stale ? 'failed' : row.status,
    id: row.id,
    created_at: iso(row.createdAt),
    completed_at: iso(row.completedAt),
    expires_at: iso(row.expiresAt),
    download_url: stale ? null : downloadUrl(appKey, row),
    size_bytes: row.sizeBytes,
  };
}

export async function latestExport(db: Db, userId: number): Promise<ExportRow | undefined> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
    .limit(1);
  return row;
}

/**
 * Records a new request, or refuses it with 429: one build at a time, and DATA_EXPORTS_PER_DAY a day (counted in the
 * database, so a restart does not reset it). The row lock on the user serialises two requests sent at once.
 */
export async function requestExport(db: Db, userId: number, now = new Date()): Promise<ExportRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const recent = await tx
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), gte(dataExports.createdAt, new Date(now.getTime() - DAY_MS))))
      .orderBy(dataExports.createdAt);
    const running = recent.find((r) => r.status === 'pending' && now.getTime() - r.createdAt.getTime() <= STALE_PENDING_MS);
    if (running) throw tooMany('dataRights.export.inProgress', 60);
    if (recent.length >= DATA_EXPORTS_PER_DAY) {
      const wait = Math.ceil((recent[0]!.createdAt.getTime() + DAY_MS - now.getTime()) / 1000);
      throw tooMany('dataRights.export.tooMany', wait);
    }
    const [row] = await tx.insert(dataExports).values({ userId, status: 'pending', createdAt: now }).returning();
    return row!;
  });
}

function tooMany(messageKey: string, retryAfterS: number) {
  return tooManyRequests(messageKey, retryAfterS);
}

/** Rows as JSON: dates as ISO strings, secrets (hashes of passwords, tokens, codes) never included. */
const plain = <T>(rows: T): T => JSON.parse(JSON.stringify(rows)) as T;

/** Everything held about the user, as the archive's JSON document; `files` are the storage keys to add beside it. */
export async function collectUserData(
  db: Db,
  userId: number,
): Promise<{ data: Record<string, unknown>; files: { key: string; name: string }[] }> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound();
  const { passwordHash: _hash, ...account } = user;
  void _hash;

  const sessionRows = await db
    .select({
      created_at: sessions.createdAt,
      last_seen_at: sessions.lastSeenAt,
      expires_at: sessions.expiresAt,
      remember: sessions.remember,
      ip: sessions.ip,
      user_agent: sessions.userAgent,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  // Web Push (issue 25): the devices and the switches; the endpoint and keys stay out (they only let someone push).
  const pushDevices = await db
    .select({
      browser: pushSubscriptions.browser,
      os: pushSubscriptions.os,
      device_type: pushSubscriptions.deviceType,
      created_at: pushSubscriptions.createdAt,
      last_push_at: pushSubscriptions.lastPushAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  const [pushSwitches] = await db.select().from(pushPreferences).where(eq(pushPreferences.userId, userId));
  const resets = await db
    .select({ created_at: passwordResetTokens.createdAt, expires_at: passwordResetTokens.expiresAt, used_at: passwordResetTokens.usedAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.userId, userId));

  const { publicist, profiles, profileIds, adRows, adIds, verifications } = await accountScope(db, userId);
  const mediaRows = adIds.length ? await db.select().from(media).where(inArray(media.adId, adIds)).orderBy(media.adId, media.position) : [];
  // Refused photos kept for a person's review (issue 24 B7), while they are kept: the token stays out (it acts).
  const heldRows = adIds.length
    ? await db
        .select()
        .from(photoReviews)
        .where(and(inArray(photoReviews.adId, adIds), inArray(photoReviews.status, ['refused', 'requested'])))
    : [];
  const consents = profileIds.length
    ? await db
        .select({
          model_profile_id: modelConsents.modelProfileId,
          publicist_id: modelConsents.publicistId,
          contact: modelConsents.contact,
          status: modelConsents.status,
          expires_at: modelConsents.expiresAt,
          given_at: modelConsents.givenAt,
          withdrawn_at: modelConsents.withdrawnAt,
          created_at: modelConsents.createdAt,
        })
        .from(modelConsents)
        .where(inArray(modelConsents.modelProfileId, profileIds))
    : [];

  const statementRows = await db.select().from(statements).where(eq(statements.userId, userId));
  const appealRows = await db.select().from(appeals).where(eq(appeals.userId, userId));
  const reportRows = await db
    .select({
      id: reports.id,
      receipt: reports.receipt,
      ad_id: reports.adId,
      ad_snapshot: reports.adSnapshot,
      reason: reports.reason,
      details: reports.details,
      contact: reports.contact,
      language: reports.language,
      status: reports.status,
      decision_text: reports.decisionText,
      decided_at: reports.decidedAt,
      created_at: reports.createdAt,
    })
    .from(reports)
    .where(eq(reports.reporterUserId, userId));
  const messages = await db
    .select({
      id: contactMessages.id,
      kind: contactMessages.kind,
      name: contactMessages.name,
      email: contactMessages.email,
      subject: contactMessages.subject,
      message: contactMessages.message,
      language: contactMessages.language,
      status: contactMessages.status,
      created_at: contactMessages.createdAt,
    })
    .from(contactMessages)
    .where(or(eq(contactMessages.userId, userId), sql`lower(${contactMessages.email}) = lower(${user.email})`));
  const requests = await db
    .select({
      method: idempotencyKeys.method,
      path: idempotencyKeys.path,
      status_code: idempotencyKeys.statusCode,
      created_at: idempotencyKeys.createdAt,
    })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.actor, `user:${userId}`));
  const exportsMade = await db
    .select({ id: dataExports.id, status: dataExports.status, created_at: dataExports.createdAt, completed_at: dataExports.completedAt })
    .from(dataExports)
    .where(eq(dataExports.userId, userId));

  // The audit log: what this person did as staff, and what staff did to their account, profiles and ads. Who on the
  // staff acted is someone else's data: their role is kept, their e-mail and IP are not.
  const subjects = subjectsOf(auditLog.subjectType, auditLog.subjectId, {
    userId,
    profileIds,
    publicistId: publicist?.id,
    adIds,
    mediaIds: mediaRows.map((m) => m.id),
    verificationIds: verifications.map((v) => v.id),
  });
  const auditRows = await db
    .select()
    .from(auditLog)
    .where(or(eq(auditLog.actorId, userId), subjects))
    .orderBy(auditLog.createdAt);
  const audit = auditRows.map((a) => ({
    id: a.id,
    action: a.action,
    subject_type: a.subjectType,
    subject_id: a.subjectId,
    by_you: a.actorId === userId,
    actor_role: a.actorRole,
    before: a.before,
    after: a.after,
    reason: a.reason,
    ip: a.actorId === userId ? a.ip : null,
    created_at: a.createdAt,
  }));

  // The support chat: their conversation with every message (staff appear as staff, not by id), and what they wrote
  // as staff in other people's conversations; the notifications they were sent.
  const [conversation] = await db.select().from(supportConversations).where(eq(supportConversations.userId, userId));
  const messageColumns = {
    conversation_id: supportMessages.conversationId,
    seq: supportMessages.seq,
    from_staff: supportMessages.isStaff,
    content: supportMessages.content,
    created_at: supportMessages.createdAt,
    read_at: supportMessages.readAt,
  };
  const chat = conversation
    ? {
        id: conversation.id,
        status: conversation.status,
        created_at: conversation.createdAt,
        updated_at: conversation.updatedAt,
        messages: await db
          .select(messageColumns)
          .from(supportMessages)
          .where(eq(supportMessages.conversationId, conversation.id))
          .orderBy(supportMessages.seq),
      }
    : null;
  const sentAsStaff = await db
    .select(messageColumns)
    .from(supportMessages)
    .where(and(eq(supportMessages.senderId, userId), eq(supportMessages.isStaff, true)))
    .orderBy(supportMessages.conversationId, supportMessages.seq);
  const notificationRows = await db
    .select({
      kind: notifications.kind,
      type: notifications.type,
      message: notifications.message,
      description: notifications.description,
      data: notifications.data,
      read_at: notifications.readAt,
      created_at: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(notifications.createdAt);

  // Issue 28: the ads they saved (the ad's title while it exists; a favourite outlives its ad), their saved searches
  // with how they asked to be alerted and the ads each one found, and their own ads' weekly numbers (counts only).
  const favouriteRows = await db
    .select({ ad_id: favourites.adId, title: ads.title, saved_at: favourites.createdAt })
    .from(favourites)
    .leftJoin(ads, eq(ads.id, favourites.adId))
    .where(eq(favourites.userId, userId))
    .orderBy(favourites.createdAt);
  const searchRows = await db
    .select({
      id: savedSearches.id,
      name: savedSearches.name,
      search: savedSearches.search,
      city_id: savedSearches.cityId,
      city: cities.name,
      section_id: savedSearches.sectionId,
      section: sections.slug,
      alerts: savedSearches.alerts,
      paused: savedSearches.paused,
      last_alert_at: savedSearches.lastAlertAt,
      created_at: savedSearches.createdAt,
      updated_at: savedSearches.updatedAt,
    })
    .from(savedSearches)
    .leftJoin(cities, eq(cities.id, savedSearches.cityId))
    .leftJoin(sections, eq(sections.id, savedSearches.sectionId))
    .where(eq(savedSearches.userId, userId))
    .orderBy(savedSearches.createdAt);
  const hitRows = searchRows.length
    ? await db
        .select({
          search_id: savedSearchHits.searchId,
          ad_id: savedSearchHits.adId,
          matched_at: savedSearchHits.matchedAt,
          alerted_at: savedSearchHits.alertedAt,
        })
        .from(savedSearchHits)
        .where(
          inArray(
            savedSearchHits.searchId,
            searchRows.map((r) => r.id),
          ),
        )
        .orderBy(savedSearchHits.matchedAt)
    : [];
  const weeklyNumbers = adIds.length
    ? await db
        .select({
          ad_id: adStatsWeekly.adId,
          week: adStatsWeekly.week,
          impressions: adStatsWeekly.impressions,
          opens: adStatsWeekly.opens,
          calls: adStatsWeekly.calls,
          messages: adStatsWeekly.messages,
        })
        .from(adStatsWeekly)
        .where(inArray(adStatsWeekly.adId, adIds))
        .orderBy(adStatsWeekly.adId, adStatsWeekly.week)
    : [];

  const files: { key: string; name: string }[] = [];
  const photos = mediaRows.map((m) => {
    const names = m.variants.map((w) => {
      const name = `photos/ad-${m.adId}/${m.uid}/${w}.webp`;
      files.push({ key: mediaKey(m.adId, m.uid, w), name });
      return name;
    });
    return { ...m, files: names };
  });
  const refusedPhotos = heldRows.map(({ token: _token, ...r }) => {
    void _token;
    const names = r.variants.map((w) => {
      const name = `photos/refused/${r.uid}/${w}.webp`;
      files.push({ key: heldKey(r.uid, w), name });
      return name;
    });
    return { ...r, files: names };
  });
  const verificationOut = verifications.map((v) => {
    let file: string | null = null;
    if (v.photoKey) {
      file = `verification/${v.id}.webp`;
      files.push({ key: v.photoKey, name: file });
    }
    const { photoKey: _key, ...rest } = v;
    void _key;
    return { ...rest, file };
  });

  const data = plain({
    format: 'vitrina-data-export/1',
    generated_at: new Date(),
    account,
    sessions: sessionRows,
    push_devices: pushDevices,
    push_preferences: pushSwitches ?? null,
    password_resets: resets,
    publicist_profile: publicist ?? null,
    model_profiles: profiles,
    ads: adRows.map(({ searchVector: _v, searchDocument: _d, ...a }) => a),
    ad_weekly_numbers: weeklyNumbers,
    photos,
    refused_photos_kept_for_review: refusedPhotos,
    verification_requests: verificationOut,
    model_consents: consents,
    statements: statementRows,
    appeals: appealRows,
    reports_made: reportRows,
    contact_messages: messages,
    support_conversation: chat,
    support_messages_sent_as_staff: sentAsStaff,
    notifications: notificationRows,
    favourites: favouriteRows,
    saved_searches: searchRows.map((s) => ({
      ...s,
      found_ads: hitRows.filter((h) => h.search_id === s.id).map(({ search_id: _s, ...h }) => h),
    })),
    recorded_requests: requests,
    data_exports: exportsMade,
    audit_log: audit,
  });
  return { data, files };
}

/** A zip built in memory with fflate's streaming writer: photos are stored as they are (WebP is compressed already). */
async function zipArchive(
  storage: Storage,
  json: Uint8Array,
  files: { key: string; name: string }[],
  log: ExportDeps['log'],
  readmeText: string | null,
) {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const done = new Promise<void>((resolve, reject) => {
    const zip = new Zip((err, chunk, final) => {
      if (err) {
        failure = err;
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      chunks.push(chunk);
      if (final) resolve();
    });
    void (async () => {
      try {
        const doc = new ZipDeflate(DATA_EXPORT_JSON, { level: 6 });
        zip.add(doc);
        doc.push(json, true);
        if (readmeText) {
          const about = new ZipDeflate('README.txt', { level: 6 });
          zip.add(about);
          about.push(new TextEncoder().encode(readmeText), true);
        }
        for (const f of files) {
          const stored = await storage.read(f.key);
          if (!stored) {
            log.warn({ key: f.key }, 'data export: a stored file is missing');
            continue;
          }
          const parts: Buffer[] = [];
          for await (const part of stored.stream) parts.push(part as Buffer);
          const entry = new ZipPassThrough(f.name);
          zip.add(entry);
          entry.push(Buffer.concat(parts), true);
          if (failure) return;
        }
        zip.end();
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    })();
  });
  await done;
  return Buffer.concat(chunks);
}

/** The job: collects, zips, stores privately and marks the export ready (or failed). Never throws. */
export async function buildExport(deps: ExportDeps, exportId: number): Promise<void> {
  const { db, storage, log } = deps;
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId));
  if (!row || row.status !== 'pending') return;
  const key = `exports/${row.userId}/${row.id}-${crypto.randomBytes(16).toString('hex')}.zip`;
  try {
    const { data, files } = await collectUserData(db, row.userId);
    const locale = (data.account as { locale?: string } | undefined)?.locale ?? 'es';
    const archive = await zipArchive(
      storage,
      new TextEncoder().encode(JSON.stringify(data, null, 2)),
      files,
      log,
      readme(deps, locale, new Date()),
    );
    await storage.put(key, archive);
    const now = new Date();
    const [updated] = await db
      .update(dataExports)
      .set({ status: 'ready', storageKey: key, sizeBytes: archive.length, completedAt: now, expiresAt: new Date(now.getTime() + TTL_MS) })
      .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')))
      .returning({ id: dataExports.id });
    // The account went while the archive was being built: nothing may stay behind.
    if (!updated) await storage.remove(key);
  } catch (err) {
    log.error({ err, exportId }, 'data export failed');
    await storage.remove(key).catch(() => {});
    await db
      .update(dataExports)
      .set({ status: 'failed', completedAt: new Date() })
      .where(eq(dataExports.id, exportId))
      .catch(() => {});
  }
}

/** Removes archives past their expiry (the file; the row stays, counted for the daily limit). Never throws. */
export async function purgeExpiredExports(deps: Pick<ExportDeps, 'db' | 'storage' | 'log'>, now = new Date()): Promise<void> {
  try {
    const expired = await deps.db
      .select({ id: dataExports.id, key: dataExports.storageKey })
      .from(dataExports)
      .where(and(lt(dataExports.expiresAt, now), sql`${dataExports.storageKey} IS NOT NULL`));
    for (const row of expired) {
      await deps.storage.remove(row.key!);
      await deps.db.update(dataExports).set({ storageKey: null }).where(eq(dataExports.id, row.id));
    }
  } catch (err) {
    deps.log.warn({ err }, 'data export: purging expired archives failed');
  }
}

export type DownloadOutcome = { status: 404 | 410 } | { status: 200; file: StoredFile; filename: string };

/**
 * What the download link gives `userId`: the archive when the link is theirs, correctly signed and not past its
 * expiry; 404 for anything not theirs or not signed (a forwarded link is useless to anyone else), 410 once it is gone.
 */
export async function openDownload(
  deps: Pick<ExportDeps, 'db' | 'storage' | 'appKey'>,
  userId: number,
  link: { id: number; expires: number; signature: string },
): Promise<DownloadOutcome> {
  const [row] = await deps.db.select().from(dataExports).where(eq(dataExports.id, link.id));
  if (!row || row.userId !== userId || !signatureMatches(deps.appKey, row, link.expires, link.signature)) return { status: 404 };
  if (row.status !== 'ready' || !row.storageKey || !row.expiresAt || row.expiresAt <= new Date() || link.expires * 1000 <= Date.now()) {
    return { status: 410 };
  }
  const file = await deps.storage.read(row.storageKey);
  if (!file) return { status: 410 };
  return { status: 200, file, filename: `vitrina-data-${row.createdAt.toISOString().slice(0, 10)}.zip` };
}

/** A user's request for their archive: expired ones leave storage first, then the request is recorded (or refused). */
export async function requestDataExport(deps: Pick<ExportDeps, 'db' | 'storage' | 'log'>, userId: number): Promise<ExportRow> {
  await purgeExpiredExports(deps);
  return requestExport(deps.db, userId);
}
