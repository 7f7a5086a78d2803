/**
 * Reads and writes of a model's profile and its ad, shaped for the contract (contract/profiles.ts). Listing
 * visibility (`ads.is_listed`), the model's name on the ad and the search text are derived by the database
 * triggers of migration 0004, never written here.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { AdSummary, ModelProfile } from '#contract/profiles.ts';
import type { SectionSlug } from '#contract/section-slugs.ts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { ads, cities, media, modelProfiles, sections, states } from '../../db/schema.ts';
import { conflict, notFound } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';

export type ProfileRow = typeof modelProfiles.$inferSelect;
export type AdRow = typeof ads.$inferSelect;

/** The ad the model-with-ad form edits: the profile's first one. */
export async function firstAdOf(db: Db, profileId: number): Promise<AdRow | undefined> {
  const [ad] = await db.select().from(ads).where(eq(ads.modelProfileId, profileId)).orderBy(asc(ads.id)).limit(1);
  return ad;
}

/**
 * Switches an ad on or off (the owner's and the publicist's switch, and staff's). `audit` is given when staff act
 * on someone else's ad; switching to the state the ad is already in changes nothing and records nothing. `commit`
 * (plugins/idempotency.ts answerOnce) stores the request's answer in the same transaction.
 */
export async function switchAd(
  db: Db,
  ad: Pick<AdRow, 'id' | 'isActive'>,
  value: boolean,
  audit: { actor: SessionUser; req: Pick<FastifyRequest, 'ip'> } | null,
  commit?: (tx: Db, updated: AdRow) => Promise<void>,
): Promise<AdRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(ads).set({ isActive: value, updatedAt: new Date() }).where(eq(ads.id, ad.id)).returning();
    if (audit && ad.isActive !== value) {
      await recordAudit(tx, {
        actor: audit.actor,
        action: value ? 'ad.activate' : 'ad.deactivate',
        subjectType: 'ad',
        subjectId: ad.id,
        before: { is_active: ad.isActive },
        after: { is_active: value },
        req: audit.req,
      });
    }
    await commit?.(tx, row!);
    return row!;
  });
}

/**
 * Adds an ad to a profile unless it already has `max` (MAX_ADS_PER_MODEL). The count and the insert happen under
 * the profile's row lock, so two requests racing cannot both pass the check. The cap also bounds what a rename
 * costs: the model_profiles trigger (migration 0009) re-derives every ad of the renamed profile.
 */
export async function insertAdWithinLimit(
  db: Db,
  profileId: number,
  values: Omit<typeof ads.$inferInsert, 'modelProfileId'>,
  max: number,
  /** Stores the request's idempotent answer in the same transaction (plugins/idempotency.ts answerOnce). */
  commit?: (tx: Db, ad: AdRow) => Promise<void>,
): Promise<AdRow> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: modelProfiles.id }).from(modelProfiles).where(eq(modelProfiles.id, profileId)).for('update');
    if (!locked) throw notFound();
    const [row] = await tx.select({ n: count() }).from(ads).where(eq(ads.modelProfileId, profileId));
    if (Number(row?.n ?? 0) >= max) throw conflict({ max }, 'profiles.adLimit');
    const [ad] = await tx
      .insert(ads)
      .values({ ...values, modelProfileId: profileId })
      .returning();
    await commit?.(tx, ad!);
    return ad!;
  });
}

export async function profileById(db: Db, id: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(modelProfiles).where(eq(modelProfiles.id, id));
  return row;
}

export async function profileOfUser(db: Db, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(modelProfiles).where(eq(modelProfiles.userId, userId));
  return row;
}

export async function adSummary(db: Db, ad: AdRow, lng: string): Promise<AdSummary> {
  const [place] = await db
    .select({ city: cities.name, stateId: states.id, state: states.name, section: sections.slug })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .innerJoin(sections, eq(sections.id, ad.sectionId))
    .where(eq(cities.id, ad.cityId));
  const [photos] = await db.select({ n: count() }).from(media).where(eq(media.adId, ad.id));
  return {
    id: ad.id,
    title: ad.title,
    description: ad.description,
    section: place!.section as SectionSlug,
    city_id: ad.cityId,
    city: place!.city,
    state_id: place!.stateId,
    state: place!.state,
    is_active: ad.isActive,
    is_listed: ad.isListed,
    status: ad.status,
    version: ad.version,
    photos: Number(photos?.n ?? 0),
    url: `/${lng}/models/${ad.id}`,
  };
}

export async function toModelProfile(db: Db, p: ProfileRow, lng: string): Promise<ModelProfile> {
  const ad = await firstAdOf(db, p.id);
  return {
    id: p.id,
    display_name: p.displayName,
    birth_date: p.birthDate,
    phone_country: p.phoneCountry,
    phone: p.phone,
    whatsapp: p.whatsapp,
    country_id: p.countryId,
    status: p.status,
    reasons: p.reasons ?? null,
    version: p.version,
    user: p.userId === null ? null : { id: p.userId },
    publicist_id: p.publicistId,
    consent_status: p.consentStatus,
    ad: ad ? await adSummary(db, ad, lng) : null,
  };
}

/** True when the city lies in the province and the province in the country (the pickers can be tampered with). */
export async function placeIsConsistent(db: Db, countryId: number, stateId: number, cityId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: cities.id })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(and(eq(cities.id, cityId), eq(states.id, stateId), eq(states.countryId, countryId)));
  return !!row;
}

export async function sectionIdOf(db: Db, slug: SectionSlug): Promise<number> {
  const [row] = await db.select({ id: sections.id }).from(sections).where(eq(sections.slug, slug));
  if (!row) throw new Error(`section ${slug} is not seeded`);
  return row.id;
}

/** Bumps a row's version only if it is still the one the client saw; answers whether it was. */
export const bumpVersion = sql`version + 1`;
