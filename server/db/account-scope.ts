/**
 * The records an account answers for: its publicist profile, its own model profile and, for an agency, the models it
 * listed (they go with the account: model_profiles.publicist_id cascades), with their ads and verification requests.
 * The export hands over exactly what the erasure removes, and staff see the same records beside a support conversation.
 * It lives beside the schema, not in a module, because several modules read it (data-rights, support-chat) and a
 * module importing another for it made a module cycle.
 */
import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { ads, modelProfiles, publicistProfiles, verificationRequests, type auditLog, type statements } from './schema.ts';

export async function accountScope(db: Db, userId: number) {
  const [publicist] = await db.select().from(publicistProfiles).where(eq(publicistProfiles.userId, userId));
  const profiles = await db
    .select()
    .from(modelProfiles)
    .where(
      publicist ? or(eq(modelProfiles.userId, userId), eq(modelProfiles.publicistId, publicist.id)) : eq(modelProfiles.userId, userId),
    );
  const profileIds = profiles.map((p) => p.id);
  const adRows = profileIds.length ? await db.select().from(ads).where(inArray(ads.modelProfileId, profileIds)) : [];
  const adIds = adRows.map((a) => a.id);
  const verifications = profileIds.length
    ? await db.select().from(verificationRequests).where(inArray(verificationRequests.modelProfileId, profileIds))
    : [];
  return { publicist, profiles, profileIds, adRows, adIds, verifications };
}

/** Rows of the audit log or of statements about any of the account's records (subject type + id pairs). */
export function subjectsOf(
  typeCol: typeof statements.subjectType | typeof auditLog.subjectType,
  idCol: typeof statements.subjectId | typeof auditLog.subjectId,
  s: {
    userId: number;
    profileIds: number[];
    publicistId?: number;
    adIds: number[];
    mediaIds: number[];
    verificationIds: number[];
    appealIds?: number[];
    reportIds?: number[];
  },
): SQL | undefined {
  const pairs: [string, number[]][] = [
    ['user', [s.userId]],
    ['model_profile', s.profileIds],
    ['publicist_profile', s.publicistId ? [s.publicistId] : []],
    ['ad', s.adIds],
    ['media', s.mediaIds],
    ['verification', s.verificationIds],
    ['appeal', s.appealIds ?? []],
    ['report', s.reportIds ?? []],
  ];
  return or(...pairs.filter(([, ids]) => ids.length).map(([type, ids]) => and(eq(typeCol, type as never), inArray(idCol, ids))));
}
