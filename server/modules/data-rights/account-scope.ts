/**
 * The records an account answers for: its publicist profile, its own model profile and, for an agency, the models it
 * listed (they go with the account: model_profiles.publicist_id cascades), with their ads and verification requests.
 * The export hands over exactly what the erasure removes.
 */
import { eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ads, modelProfiles, publicistProfiles, verificationRequests } from '../../db/schema.ts';

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
