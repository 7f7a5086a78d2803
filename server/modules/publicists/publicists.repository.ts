/**
 * Reads of publicists and the models under their responsibility, shaped for contract/publicists.ts.
 */
import { and, asc, count, desc, eq, ilike, inArray, max, or, sql, type SQL } from 'drizzle-orm';
import {
  UNAPPROVED_AGENCY_MODEL_LIMIT,
  type PublicistModel,
  type PublicistModelsQuery,
  type PublicistProfile,
} from '#contract/publicists.ts';
import { page } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { ads, modelConsents, modelProfiles, publicistProfiles } from '../../db/schema.ts';
import { conflict, forbidden } from '../../errors.ts';
import { adSummary, firstAdOf, type ProfileRow } from '../model-profiles/model-profiles.repository.ts';

export type PublicistRow = typeof publicistProfiles.$inferSelect;

export async function publicistOfUser(db: Db, userId: number): Promise<PublicistRow | undefined> {
  const [row] = await db.select().from(publicistProfiles).where(eq(publicistProfiles.userId, userId));
  return row;
}

export async function publicistById(db: Db, id: number): Promise<PublicistRow | undefined> {
  const [row] = await db.select().from(publicistProfiles).where(eq(publicistProfiles.id, id));
  return row;
}

/**
 * Inside the transaction that adds `adding` models: locks the publicist's row, so two requests racing cannot both
 * pass, then checks the caps — UNAPPROVED_AGENCY_MODEL_LIMIT until the agency is approved (each new model mails a
 * stranger), MAX_MODELS_PER_PUBLICIST (`max`) always.
 */
export async function assertRoomForModels(tx: Db, publicistId: number, adding: number, max: number): Promise<void> {
  const [locked] = await tx
    .select({ status: publicistProfiles.status })
    .from(publicistProfiles)
    .where(eq(publicistProfiles.id, publicistId))
    .for('update');
  if (!locked) throw forbidden('publicist.profileRequired');
  const [row] = await tx.select({ n: count() }).from(modelProfiles).where(eq(modelProfiles.publicistId, publicistId));
  const total = Number(row?.n ?? 0) + adding;
  if (locked.status !== 'active' && total > UNAPPROVED_AGENCY_MODEL_LIMIT) {
    throw conflict(undefined, 'publicist.errors.unapprovedLimit');
  }
  if (total > max) throw conflict({ max }, 'publicist.errors.modelLimit');
}

export async function toPublicistProfile(db: Db, p: PublicistRow): Promise<PublicistProfile> {
  const [n] = await db.select({ n: count() }).from(modelProfiles).where(eq(modelProfiles.publicistId, p.id));
  return {
    id: p.id,
    display_name: p.displayName,
    legal_name: p.legalName,
    tax_id: p.taxId,
    address: p.address,
    phone: p.phone,
    phone_country: p.phoneCountry,
    email: p.email,
    status: p.status,
    reasons: p.reasons ?? null,
    version: p.version,
    models: Number(n?.n ?? 0),
    user: { id: p.userId },
  };
}

/** When each model's last consent request went out. */
async function lastRequests(db: Db, profileIds: number[]): Promise<Map<number, Date>> {
  if (!profileIds.length) return new Map();
  const rows = await db
    .select({ id: modelConsents.modelProfileId, at: max(modelConsents.createdAt) })
    .from(modelConsents)
    .where(inArray(modelConsents.modelProfileId, profileIds))
    .groupBy(modelConsents.modelProfileId);
  return new Map(rows.filter((r) => r.at).map((r) => [r.id, new Date(r.at!)]));
}

export async function toPublicistModel(db: Db, p: ProfileRow, lng: string, requestedAt?: Date | null): Promise<PublicistModel> {
  const ad = await firstAdOf(db, p.id);
  const at = requestedAt === undefined ? (await lastRequests(db, [p.id])).get(p.id) : requestedAt;
  return {
    id: p.id,
    display_name: p.displayName,
    birth_date: p.birthDate,
    contact_email: p.contactEmail,
    phone: p.phone,
    phone_country: p.phoneCountry,
    whatsapp: p.whatsapp,
    country_id: p.countryId,
    status: p.status,
    reasons: p.reasons ?? null,
    consent_status: p.consentStatus,
    consent_requested_at: at ? at.toISOString() : null,
    version: p.version,
    created_at: p.createdAt.toISOString(),
    ad: ad ? await adSummary(db, ad, lng) : null,
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of a publicist's models: search over name, contact and the ad's title. */
export async function listPublicistModels(db: Db, publicistId: number, q: PublicistModelsQuery, lng: string) {
  // eslint-disable-next-line no-control-regex
  const search = q.search?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const conditions: SQL[] = [eq(modelProfiles.publicistId, publicistId)];
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    conditions.push(
      or(
        ilike(modelProfiles.displayName, pattern),
        ilike(modelProfiles.contactEmail, pattern),
        ilike(modelProfiles.phone, pattern),
        sql`exists (select 1 from ${ads} where ${ads.modelProfileId} = ${modelProfiles.id} and ${ads.title} ilike ${pattern})`,
      )!,
    );
  }
  const where = and(...conditions);
  const dir = q.direction === 'asc' ? asc : desc;
  const order =
    q.sort === 'name'
      ? [dir(sql`lower(${modelProfiles.displayName})`), dir(modelProfiles.id)]
      : q.sort === 'status'
        ? [dir(modelProfiles.status), dir(modelProfiles.consentStatus), dir(modelProfiles.id)]
        : [dir(modelProfiles.createdAt), dir(modelProfiles.id)];
  const [total] = await db.select({ n: count() }).from(modelProfiles).where(where);
  const rows = await db
    .select()
    .from(modelProfiles)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page);
  const requests = await lastRequests(
    db,
    rows.map((r) => r.id),
  );
  const data = await Promise.all(rows.map((r) => toPublicistModel(db, r, lng, requests.get(r.id) ?? null)));
  return page(data, { page: q.page, perPage: q.per_page, total: Number(total?.n ?? 0) });
}
