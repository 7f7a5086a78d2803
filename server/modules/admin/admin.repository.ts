/**
 * Staff listings (issue 6 point 3): models, models under responsibility, publicists, ads (with their profile and
 * photos), clients, users without a profile, recent photos, verification requests, appeals and dashboard counts.
 * Every list answers `{ rows, total }` for the routes' Laravel-style `meta`.
 */
import { and, type AnyColumn, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { API } from '#contract/routes.ts';
import type { PhotoFilter } from '#contract/admin.ts';
import type { Db } from '../../db/client.ts';
import {
  ads,
  appeals,
  cities,
  contactMessages,
  media,
  modelProfiles,
  photoReviews,
  publicistProfiles,
  reports,
  sections,
  statements,
  users,
  verificationRequests,
} from '../../db/schema.ts';
import type { Storage } from '../../plugins/storage.ts';
import { toImage } from '../media/images.ts';

export interface Page {
  limit: number;
  offset: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const pattern = (search: string) => `%${escapeLike(search)}%`;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const all = (...conds: (SQL | undefined)[]) => and(...conds.filter((c): c is SQL => c !== undefined));

type Status = (typeof modelProfiles.$inferSelect)['status'];
export interface ListFilter {
  status?: Status | 'all' | undefined;
  search?: string | undefined;
}

/**
 * Risk (issue 29 point 4): the queues are worked riskiest first, then oldest first (the longest wait). Points, so that
 * one strong signal outranks several weak ones and equal risks fall back to waiting time:
 * - each open report on the ad: 2;
 * - a photo that matched another account's photo or the removed list at upload (media_hashes.flagged): 3;
 * - the automated screening's highest score of the photo (or of the ad's riskiest photo): ≥ 0.8 → 2, ≥ 0.5 → 1.
 */
export const RISK_POINTS = { report: 2, match: 3, scoreHigh: 2, scoreMedium: 1 } as const;

/** The photo's highest screening score (0 when it was not screened). */
const screeningScore = (m: SQL | AnyColumn) => sql`greatest(
    coalesce((${m} -> 'scores' ->> 'sexual_activity')::float8, 0),
    coalesce((${m} -> 'scores' ->> 'sexual_display')::float8, 0),
    coalesce((${m} -> 'scores' ->> 'erotica')::float8, 0))`;
const scorePoints = (score: SQL) =>
  sql`(case when ${score} >= 0.8 then ${RISK_POINTS.scoreHigh} when ${score} >= 0.5 then ${RISK_POINTS.scoreMedium} else 0 end)`;
const openReportsOf = (adId: SQL | AnyColumn) =>
  sql<number>`(select count(*)::int from reports r where r.ad_id = ${adId} and r.status = 'open')`;
/** Whether the hash matching flagged the photo at upload (another account's photo, or the removed list). */
const flaggedPhoto = (mediaId: SQL | AnyColumn) => sql`exists (select 1 from media_hashes h where h.media_id = ${mediaId} and h.flagged)`;
/** Whether any photo of the ad still waiting for a person was flagged. */
const flaggedAd = (adId: AnyColumn) =>
  sql`exists (select 1 from media m join media_hashes h on h.media_id = m.id where m.ad_id = ${adId} and m.reviewed_at is null and h.flagged)`;
const adRisk = sql<number>`(${openReportsOf(ads.id)} * ${RISK_POINTS.report}
  + (case when ${flaggedAd(ads.id)} then ${RISK_POINTS.match} else 0 end)
  + ${scorePoints(sql`coalesce((select max(${screeningScore(sql`m.moderation`)}) from media m where m.ad_id = ${ads.id}), 0)`)})::int`;
const photoRisk = sql<number>`(${openReportsOf(media.adId)} * ${RISK_POINTS.report}
  + (case when ${flaggedPhoto(media.id)} then ${RISK_POINTS.match} else 0 end)
  + ${scorePoints(screeningScore(media.moderation))})::int`;

/** Model profiles, optionally only those under a publicist's responsibility. */
export async function listModels(db: Db, f: ListFilter, page: Page, onlyUnderResponsibility = false) {
  const where = all(
    f.status && f.status !== 'all' ? eq(modelProfiles.status, f.status) : undefined,
    onlyUnderResponsibility ? isNotNull(modelProfiles.publicistId) : undefined,
    f.search
      ? or(
          ilike(modelProfiles.displayName, pattern(f.search)),
          ilike(users.email, pattern(f.search)),
          ilike(modelProfiles.contactEmail, pattern(f.search)),
          ilike(publicistProfiles.displayName, pattern(f.search)),
        )
      : undefined,
  );
  const base = () =>
    db
      .select({
        profile: modelProfiles,
        // The account's own status: staff suspend or reinstate the whole account from the list.
        user: { id: users.id, name: users.name, email: users.email, status: users.status },
        publicist: { id: publicistProfiles.id, display_name: publicistProfiles.displayName, legal_name: publicistProfiles.legalName },
        ads: sql<number>`(select count(*)::int from ads where ads.model_profile_id = ${modelProfiles.id})`,
      })
      .from(modelProfiles)
      .leftJoin(users, eq(users.id, modelProfiles.userId))
      .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId));
  const [{ n }] = (await db
    .select({ n: count() })
    .from(modelProfiles)
    .leftJoin(users, eq(users.id, modelProfiles.userId))
    .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
    .where(where)) as [{ n: number }];
  const rows = await base()
    .where(where)
    .orderBy(desc(modelProfiles.createdAt), desc(modelProfiles.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    total: Number(n),
    rows: rows.map((r) => ({
      id: r.profile.id,
      display_name: r.profile.displayName,
      status: r.profile.status,
      consent_status: r.profile.consentStatus,
      contact_email: r.profile.contactEmail,
      phone: r.profile.phone,
      birth_date: r.profile.birthDate,
      reasons: r.profile.reasons ?? null,
      user: r.user?.id ? r.user : null,
      publicist: r.publicist?.id ? r.publicist : null,
      ads: r.ads,
      created_at: iso(r.profile.createdAt),
    })),
  };
}

export async function listPublicists(db: Db, f: ListFilter, page: Page) {
  const where = all(
    f.status && f.status !== 'all' ? eq(publicistProfiles.status, f.status) : undefined,
    f.search
      ? or(
          ilike(publicistProfiles.displayName, pattern(f.search)),
          ilike(publicistProfiles.legalName, pattern(f.search)),
          ilike(publicistProfiles.taxId, pattern(f.search)),
          ilike(publicistProfiles.email, pattern(f.search)),
          ilike(users.email, pattern(f.search)),
        )
      : undefined,
  );
  const [{ n }] = (await db
    .select({ n: count() })
    .from(publicistProfiles)
    .innerJoin(users, eq(users.id, publicistProfiles.userId))
    .where(where)) as [{ n: number }];
  const rows = await db
    .select({
      p: publicistProfiles,
      user: { id: users.id, name: users.name, email: users.email, status: users.status },
      models: sql<number>`(select count(*)::int from model_profiles m where m.publicist_id = ${publicistProfiles.id})`,
    })
    .from(publicistProfiles)
    .innerJoin(users, eq(users.id, publicistProfiles.userId))
    .where(where)
    .orderBy(desc(publicistProfiles.createdAt), desc(publicistProfiles.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    total: Number(n),
    rows: rows.map((r) => ({
      id: r.p.id,
      display_name: r.p.displayName,
      status: r.p.status,
      legal_name: r.p.legalName,
      tax_id: r.p.taxId,
      address: r.p.address,
      phone: r.p.phone,
      phone_country: r.p.phoneCountry,
      email: r.p.email,
      reasons: r.p.reasons ?? null,
      user: r.user,
      models: r.models,
      created_at: iso(r.p.createdAt),
    })),
  };
}

/** Photos of the given ads with their moderation scores, grouped by ad. */
export async function photosOfAds(db: Db, storage: Storage, adIds: number[]) {
  const out = new Map<number, ReturnType<typeof adminPhoto>[]>();
  if (!adIds.length) return out;
  const rows = await db.select().from(media).where(inArray(media.adId, adIds)).orderBy(media.adId, media.position, media.id);
  for (const m of rows) {
    const list = out.get(m.adId) ?? [];
    list.push(adminPhoto(storage, m));
    out.set(m.adId, list);
  }
  return out;
}

export function adminPhoto(storage: Storage, m: typeof media.$inferSelect) {
  return {
    ...toImage(storage, m),
    moderation: m.moderation ? { provider: m.moderation.provider, scores: m.moderation.scores } : null,
    created_at: iso(m.createdAt),
  };
}

/** Ads with their model profile and photos; `pending` = the queue of new and edited ads. */
export async function listAds(db: Db, storage: Storage, f: ListFilter, page: Page, lang: string) {
  const where = all(
    f.status && f.status !== 'all' ? eq(ads.status, f.status) : undefined,
    f.search ? or(ilike(ads.title, pattern(f.search)), ilike(ads.modelName, pattern(f.search))) : undefined,
  );
  const [{ n }] = (await db.select({ n: count() }).from(ads).where(where)) as [{ n: number }];
  const rows = await db
    .select({
      ad: ads,
      profile: {
        id: modelProfiles.id,
        display_name: modelProfiles.displayName,
        status: modelProfiles.status,
        consent_status: modelProfiles.consentStatus,
        user_id: modelProfiles.userId,
        publicist_id: modelProfiles.publicistId,
        birth_date: modelProfiles.birthDate,
      },
      agency: { id: publicistProfiles.id, display_name: publicistProfiles.displayName },
      city: cities.name,
      section: { slug: sections.slug, names: sections.names },
      risk: adRisk,
      openReports: openReportsOf(ads.id),
    })
    .from(ads)
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .leftJoin(publicistProfiles, eq(publicistProfiles.id, modelProfiles.publicistId))
    .innerJoin(cities, eq(cities.id, ads.cityId))
    .innerJoin(sections, eq(sections.id, ads.sectionId))
    .where(where)
    // The queue is worked riskiest first, then oldest first; other views show the newest.
    .orderBy(...(f.status === 'pending' ? [desc(adRisk), ads.updatedAt, ads.id] : [desc(ads.updatedAt), desc(ads.id)]))
    .limit(page.limit)
    .offset(page.offset);
  const photos = await photosOfAds(
    db,
    storage,
    rows.map((r) => r.ad.id),
  );
  return {
    total: Number(n),
    rows: rows.map((r) => ({
      id: r.ad.id,
      title: r.ad.title,
      description: r.ad.description,
      status: r.ad.status,
      is_active: r.ad.isActive,
      is_listed: r.ad.isListed,
      /** Edited since it was created (the queue shows new and edited ads). */
      edited: r.ad.version > 1,
      version: r.ad.version,
      city: r.city,
      section: { slug: r.section.slug, name: (r.section.names as Record<string, string>)[lang] ?? r.section.names.es },
      profile: r.profile,
      /** The publicist (agency) responsible for the model, if any. */
      publicist: r.agency?.id ? r.agency : null,
      photos: photos.get(r.ad.id) ?? [],
      risk: r.risk,
      open_reports: r.openReports,
      created_at: iso(r.ad.createdAt),
      updated_at: iso(r.ad.updatedAt),
    })),
  };
}

export async function listUsers(db: Db, where: SQL | undefined, page: Page) {
  const [{ n }] = (await db.select({ n: count() }).from(users).where(where)) as [{ n: number }];
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(page.limit)
    .offset(page.offset);
  return { total: Number(n), rows: rows.map(toAdminUser) };
}

export function toAdminUser(u: typeof users.$inferSelect) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    status: u.status,
    locale: u.locale,
    email_verified_at: iso(u.emailVerifiedAt),
    created_at: u.createdAt.toISOString(),
  };
}

export function clientsWhere(f: ListFilter): SQL | undefined {
  return all(
    eq(users.role, 'client'),
    f.status && f.status !== 'all' ? eq(users.status, f.status) : undefined,
    f.search ? or(ilike(users.name, pattern(f.search)), ilike(users.email, pattern(f.search))) : undefined,
  );
}

/** Models and publicists who registered but have not created their profile yet. */
export function withoutProfileWhere(f: ListFilter): SQL | undefined {
  return all(
    or(
      and(eq(users.role, 'model'), sql`not exists (select 1 from model_profiles m where m.user_id = ${users.id})`),
      and(eq(users.role, 'publicist'), sql`not exists (select 1 from publicist_profiles p where p.user_id = ${users.id})`),
    ),
    f.search ? or(ilike(users.name, pattern(f.search)), ilike(users.email, pattern(f.search))) : undefined,
  );
}

/**
 * The photo review queue (`pending`: nobody has kept or removed them yet), riskiest first (RISK_POINTS), then the
 * longest waiting; `reviewed` and `all` newest first. Each photo carries its risk, its ad's open reports and its
 * number of matches (`matchCount`: other accounts' photos and the removed list, modules/media-hashes).
 */
export async function listPhotos(
  db: Db,
  storage: Storage,
  status: PhotoFilter,
  page: Page,
  matchCount: (db: Db, mediaIds: number[]) => Promise<Map<number, number>>,
) {
  const where = status === 'pending' ? isNull(media.reviewedAt) : status === 'reviewed' ? isNotNull(media.reviewedAt) : undefined;
  const [{ n }] = (await db.select({ n: count() }).from(media).where(where)) as [{ n: number }];
  const rows = await db
    .select({
      m: media,
      ad: { id: ads.id, title: ads.title, status: ads.status },
      profile: { id: modelProfiles.id, display_name: modelProfiles.displayName },
      risk: photoRisk,
      openReports: openReportsOf(media.adId),
    })
    .from(media)
    .innerJoin(ads, eq(ads.id, media.adId))
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .where(where)
    .orderBy(...(status === 'pending' ? [desc(photoRisk), media.createdAt, media.id] : [desc(media.createdAt), desc(media.id)]))
    .limit(page.limit)
    .offset(page.offset);
  const matches = await matchCount(
    db,
    rows.map((r) => r.m.id),
  );
  return {
    total: Number(n),
    rows: rows.map((r) => ({
      ...adminPhoto(storage, r.m),
      reviewed_at: r.m.reviewedAt ? iso(r.m.reviewedAt) : null,
      ad: r.ad,
      profile: r.profile,
      risk: r.risk,
      open_reports: r.openReports,
      match_count: matches.get(r.m.id) ?? 0,
    })),
  };
}

/** Verification requests with the model's profile and the photos of their ads (to compare with the selfie). */
export async function listVerifications(db: Db, storage: Storage, status: string | undefined, page: Page) {
  const where =
    status && status !== 'all'
      ? eq(verificationRequests.status, status as 'pending')
      : inArray(verificationRequests.status, ['pending', 'approved', 'rejected']);
  const [{ n }] = (await db.select({ n: count() }).from(verificationRequests).where(where)) as [{ n: number }];
  const rows = await db
    .select({
      v: verificationRequests,
      profile: {
        id: modelProfiles.id,
        display_name: modelProfiles.displayName,
        status: modelProfiles.status,
        birth_date: modelProfiles.birthDate,
      },
    })
    .from(verificationRequests)
    .innerJoin(modelProfiles, eq(modelProfiles.id, verificationRequests.modelProfileId))
    .where(where)
    .orderBy(verificationRequests.submittedAt, verificationRequests.id)
    .limit(page.limit)
    .offset(page.offset);
  const adRows = rows.length
    ? await db
        .select({ id: ads.id, profileId: ads.modelProfileId })
        .from(ads)
        .where(
          inArray(
            ads.modelProfileId,
            rows.map((r) => r.profile.id),
          ),
        )
    : [];
  const photos = await photosOfAds(
    db,
    storage,
    adRows.map((a) => a.id),
  );
  return {
    total: Number(n),
    rows: rows.map((r) => ({
      id: r.v.id,
      code: r.v.code,
      status: r.v.status,
      submitted_at: iso(r.v.submittedAt),
      decided_at: iso(r.v.decidedAt),
      reasons: r.v.reasons ?? null,
      selfie_url: r.v.photoKey ? API.adminVerificationSelfie(r.v.id) : null,
      profile: r.profile,
      photos: adRows.filter((a) => a.profileId === r.profile.id).flatMap((a) => photos.get(a.id) ?? []),
    })),
  };
}

export async function listAppeals(db: Db, status: string | undefined, page: Page) {
  const where = status && status !== 'all' ? eq(appeals.status, status as 'pending') : undefined;
  const [{ n }] = (await db.select({ n: count() }).from(appeals).where(where)) as [{ n: number }];
  const rows = await db
    .select({ a: appeals, s: statements, user: { id: users.id, name: users.name, email: users.email } })
    .from(appeals)
    .innerJoin(statements, eq(statements.id, appeals.statementId))
    .leftJoin(users, eq(users.id, appeals.userId))
    .where(where)
    .orderBy(...(status === 'pending' || !status ? [appeals.createdAt, appeals.id] : [desc(appeals.createdAt), desc(appeals.id)]))
    .limit(page.limit)
    .offset(page.offset);
  return { total: Number(n), rows };
}

export async function adminCounts(db: Db) {
  const one = async (q: Promise<{ n: number }[]>) => Number((await q)[0]?.n ?? 0);
  // A publicist's model starts `unverified` and its ads are listed only once the profile is active: the agency's models
  // waiting for staff, per status so each count links to the list filtered by exactly that status.
  const agencyModels = (status: 'unverified' | 'pending') =>
    one(
      db
        .select({ n: count() })
        .from(modelProfiles)
        .where(and(isNotNull(modelProfiles.publicistId), eq(modelProfiles.status, status))),
    );
  const [
    pendingAds,
    pendingVerifications,
    pendingPublicists,
    openReports,
    openAppeals,
    newMessages,
    pendingPhotos,
    agencyUnverified,
    agencyPending,
  ] = await Promise.all([
    one(db.select({ n: count() }).from(ads).where(eq(ads.status, 'pending'))),
    one(db.select({ n: count() }).from(verificationRequests).where(eq(verificationRequests.status, 'pending'))),
    one(db.select({ n: count() }).from(publicistProfiles).where(eq(publicistProfiles.status, 'pending'))),
    one(db.select({ n: count() }).from(reports).where(eq(reports.status, 'open'))),
    one(db.select({ n: count() }).from(appeals).where(eq(appeals.status, 'pending'))),
    one(db.select({ n: count() }).from(contactMessages).where(eq(contactMessages.status, 'new'))),
    // Photos nobody has looked at yet, and refused photos whose owner asked a person to look (issue 24 B7).
    Promise.all([
      one(db.select({ n: count() }).from(media).where(isNull(media.reviewedAt))),
      one(db.select({ n: count() }).from(photoReviews).where(eq(photoReviews.status, 'requested'))),
    ]).then(([a, b]) => a + b),
    agencyModels('unverified'),
    agencyModels('pending'),
  ]);
  return {
    pending_ads: pendingAds,
    pending_verifications: pendingVerifications,
    pending_publicists: pendingPublicists,
    open_reports: openReports,
    open_appeals: openAppeals,
    new_messages: newMessages,
    pending_photos: pendingPhotos,
    agency_models_unverified: agencyUnverified,
    agency_models_pending: agencyPending,
  };
}
