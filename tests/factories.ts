/**
 * Test data builders: real rows inserted through Drizzle, shaped like the demo catalogue (the database derives
 * each ad's search text, name and listed flag itself), so listing tests exercise exactly the SQL production runs. Cities come from the seeded reference data, looked up by INE code.
 */
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { SectionSlug } from '#contract/sections.ts';
import type { Status } from '#contract/statuses.ts';
import type { Db } from '#server/db/client.ts';
import { ads, cities, media, modelProfiles, publicistProfiles, publicityAds, sections, states, users } from '#server/db/schema.ts';

/** INE codes of the cities tests use most. */
export const CITY = { oviedo: '33044', gijon: '33024', aviles: '33004', madrid: '28079' } as const;

let seq = 0;
const unique = () => `${process.pid.toString(36)}${Date.now().toString(36)}${(++seq).toString(36)}`;

export interface UserSpec {
  name?: string;
  email?: string;
  role?: 'client' | 'model' | 'publicist' | 'admin' | 'super_admin';
  status?: Status;
  verified?: boolean;
}

/** An account (no password anyone can log in with: the hash is a placeholder). */
export async function buildUser(db: Db, spec: UserSpec = {}): Promise<{ id: number; email: string }> {
  const email = spec.email ?? `factory-${unique()}@vitrina.test`;
  const [row] = await db
    .insert(users)
    .values({
      name: spec.name ?? 'Usuario de prueba',
      email,
      passwordHash: '!',
      role: spec.role ?? 'client',
      status: spec.status ?? 'active',
      locale: 'es',
      emailVerifiedAt: spec.verified === false ? null : new Date(),
    })
    .returning({ id: users.id });
  return { id: row!.id, email };
}

interface CityInfo {
  id: number;
  code: string;
  name: string;
  state: string;
}

const cityCache = new WeakMap<Db, Map<string, CityInfo>>();

/** A Spanish city by INE code ('33044') or by exact name ('Oviedo'), from the seeded reference data. */
export async function findCity(db: Db, codeOrName: string): Promise<CityInfo> {
  let cache = cityCache.get(db);
  if (!cache) cityCache.set(db, (cache = new Map<string, CityInfo>()));
  const cached = cache.get(codeOrName);
  if (cached) return cached;
  const byCode = /^\d+$/.test(codeOrName);
  const [row] = await db
    .select({ id: cities.id, code: cities.code, name: cities.name, state: states.name })
    .from(cities)
    .innerJoin(states, eq(states.id, cities.stateId))
    .where(byCode ? eq(cities.code, codeOrName) : eq(cities.name, codeOrName))
    .orderBy(sql`${cities.population} desc`)
    .limit(1);
  if (!row) throw new Error(`factories: no city ${codeOrName} in the reference data`);
  cache.set(codeOrName, row);
  return row;
}

export async function findSection(db: Db, slug: SectionSlug): Promise<typeof sections.$inferSelect> {
  const [row] = await db.select().from(sections).where(eq(sections.slug, slug));
  if (!row) throw new Error(`factories: no section ${slug}`);
  return row;
}

export interface ModelSpec {
  /** The profile's display name (and the account's name). */
  name: string;
  /** INE code or exact name of a Spanish city; Oviedo by default. */
  city?: string;
  section?: SectionSlug;
  profileStatus?: Status;
  /** The ad's on/off switch (`is_active`). */
  adActive?: boolean;
  adStatus?: Status;
  /** Default: "{name} en {city}". */
  title?: string;
  description?: string;
  birthDate?: string | null;
  publishedAt?: Date;
  /** How many photos the ad has (rows only: no files are written). */
  photos?: number;
  /** Which of the photos is the cover; it is deliberately not forced to position 0. */
  coverIndex?: number;
  /** An existing (e.g. signed-in) model account to own the profile; a new one otherwise. */
  userId?: number;
}

export interface BuiltModel {
  userId: number;
  profileId: number;
  adId: number;
  cityId: number;
  cityName: string;
  sectionId: number;
  /** In position order. */
  mediaIds: number[];
  coverMediaId: number | null;
}

/** A model account with its profile and one ad (and optionally photos). Visible in listings by default. */
export async function buildModel(db: Db, spec: ModelSpec): Promise<BuiltModel> {
  const city = await findCity(db, spec.city ?? CITY.oviedo);
  const section = await findSection(db, spec.section ?? 'women');
  const user = spec.userId ? { id: spec.userId } : await buildUser(db, { name: spec.name, role: 'model', status: 'active' });
  const [profile] = await db
    .insert(modelProfiles)
    .values({
      userId: user.id,
      displayName: spec.name.slice(0, 60),
      status: spec.profileStatus ?? 'active',
      birthDate: spec.birthDate ?? null,
      phone: '+34600000000',
      whatsapp: true,
    })
    .returning({ id: modelProfiles.id });
  const title = (spec.title ?? `${spec.name} en ${city.name}`).slice(0, 80);
  const description = spec.description ?? 'Sesiones de fotos en estudio y exteriores.';
  const [ad] = await db
    .insert(ads)
    .values({
      modelProfileId: profile!.id,
      title,
      description,
      sectionId: section.id,
      cityId: city.id,
      isActive: spec.adActive ?? true,
      status: spec.adStatus ?? 'active',
      publishedAt: spec.publishedAt ?? new Date(),
    })
    .returning({ id: ads.id });

  const mediaIds: number[] = [];
  let coverMediaId: number | null = null;
  const photos = spec.photos ?? 0;
  const coverIndex = spec.coverIndex ?? 0;
  for (let p = 0; p < photos; p++) {
    const [m] = await db
      .insert(media)
      .values({
        adId: ad!.id,
        uid: crypto.randomUUID(),
        isCover: p === coverIndex,
        position: p,
        width: 1600,
        height: 2000,
        variants: [400, 800, 1600],
      })
      .returning({ id: media.id });
    mediaIds.push(m!.id);
    if (p === coverIndex) coverMediaId = m!.id;
  }
  return {
    userId: user.id,
    profileId: profile!.id,
    adId: ad!.id,
    cityId: city.id,
    cityName: city.name,
    sectionId: section.id,
    mediaIds,
    coverMediaId,
  };
}

export interface PublicityAdSpec {
  title?: string;
  advertiser?: string;
  isActive?: boolean;
  startsAt?: Date;
  endsAt?: Date | null;
  position?: number;
}

/** A promoted placement; active and open-ended by default. */
export async function buildPublicityAd(db: Db, spec: PublicityAdSpec = {}): Promise<{ id: number }> {
  const [row] = await db
    .insert(publicityAds)
    .values({
      title: spec.title ?? `Anuncio ${unique()}`,
      body: 'Texto del anuncio.',
      advertiser: spec.advertiser ?? 'Anunciante S.L.',
      targetUrl: 'https://example.com/',
      isActive: spec.isActive ?? true,
      startsAt: spec.startsAt ?? new Date(Date.now() - 60_000),
      endsAt: spec.endsAt ?? null,
      position: spec.position ?? 0,
    })
    .returning({ id: publicityAds.id });
  return row!;
}

export interface PublicistSpec {
  /** An existing (e.g. signed-in) publicist account; a new one otherwise. */
  userId?: number;
  name?: string;
  status?: Status;
}

/** A publicist's profile with complete trader details (EU DSA art. 30). */
export async function buildPublicist(db: Db, spec: PublicistSpec = {}): Promise<{ userId: number; publicistId: number }> {
  const user = spec.userId ? { id: spec.userId } : await buildUser(db, { role: 'publicist' });
  const [row] = await db
    .insert(publicistProfiles)
    .values({
      userId: user.id,
      displayName: spec.name ?? `Agencia ${unique()}`,
      legalName: 'Agencia de Pruebas S.L.',
      taxId: 'B12345678',
      address: 'Calle Mayor 1, 33001 Oviedo',
      phone: '+34612345678',
      phoneCountry: 'ES',
      email: `agencia-${unique()}@vitrina.test`,
      status: spec.status ?? 'active',
    })
    .returning({ id: publicistProfiles.id });
  return { userId: user.id, publicistId: row!.id };
}
