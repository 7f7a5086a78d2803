/**
 * The demo publicist (publicist@vitrina.test) gets a complete, approved publicist profile with trader details and three
 * models under responsibility, each with an approved ad and illustrative photos: two have consented (listed), one has
 * not answered yet (not listed; the publicist can re-send the request). Skipped once the publicist has models.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { CONSENT_TTL_DAYS } from '#contract/publicists.ts';
import type { Storage } from '../../plugins/storage.ts';
import { hashToken } from '../../plugins/session.ts';
import { mediaKey } from '../../modules/media/images.ts';
import type { Db } from '../client.ts';
import { ads, cities, countries, media, modelConsents, modelProfiles, publicistProfiles, sections, users } from '../schema.ts';
import { ASPECT, renderIllustration, VARIANT_WIDTHS } from './illustrations.ts';

const MODELS = [
  {
    name: 'Aitana',
    email: 'aitana@modelos.vitrina.test',
    city: '33024',
    section: 'women',
    consent: 'given',
    title: 'Aitana, modelo de pasarela en Gijón',
    description: 'Aitana trabaja en pasarela, editorial y catálogo. Disponible para sesiones en estudio y exteriores en Asturias.',
    colors: ['#f76707', '#e8590c'],
  },
  {
    name: 'Bruno',
    email: 'bruno@modelos.vitrina.test',
    city: '33044',
    section: 'men',
    consent: 'given',
    title: 'Bruno, modelo de moda masculina en Oviedo',
    description: 'Bruno posa para moda masculina, publicidad y fotografía de producto. Experiencia en rodajes y campañas.',
    colors: ['#1c7ed6', '#1971c2'],
  },
  {
    name: 'Celia',
    email: 'celia@modelos.vitrina.test',
    city: '33004',
    section: 'women',
    consent: 'pending',
    title: 'Celia, modelo de catálogo en Avilés',
    description: 'Celia empieza en catálogo y publicidad local. Disponible los fines de semana para sesiones en Avilés.',
    colors: ['#37b24d'],
  },
] as const;

export async function seedDemoPublicist(db: Db, storage: Storage): Promise<void> {
  const [row] = await db
    .select({ publicist: publicistProfiles })
    .from(users)
    .innerJoin(publicistProfiles, eq(publicistProfiles.userId, users.id))
    .where(eq(users.email, 'publicist@vitrina.test'));
  if (!row) return;
  const publicist = row.publicist;
  const [existing] = await db
    .select({ id: modelProfiles.id })
    .from(modelProfiles)
    .where(eq(modelProfiles.publicistId, publicist.id))
    .limit(1);
  if (existing) return;

  await db
    .update(publicistProfiles)
    .set({
      status: 'active',
      legalName: publicist.legalName ?? 'Agencia Norte Representaciones S.L.',
      taxId: publicist.taxId ?? 'B33123456',
      address: publicist.address ?? 'Calle Uría 10, 33003 Oviedo, Asturias',
      phone: publicist.phone ?? '+34985000111',
      phoneCountry: publicist.phoneCountry ?? 'ES',
      email: publicist.email ?? 'contacto@agencianorte.vitrina.test',
    })
    .where(eq(publicistProfiles.id, publicist.id));

  const [spain] = await db.select({ id: countries.id }).from(countries).where(eq(countries.iso2, 'ES'));
  if (!spain) return;

  for (const [i, m] of MODELS.entries()) {
    const [city] = await db.select({ id: cities.id }).from(cities).where(eq(cities.code, m.city));
    const [section] = await db.select({ id: sections.id }).from(sections).where(eq(sections.slug, m.section));
    if (!city || !section) continue;
    const [model] = await db
      .insert(modelProfiles)
      .values({
        userId: null,
        publicistId: publicist.id,
        contactEmail: m.email,
        consentStatus: m.consent,
        displayName: m.name,
        status: 'active',
        birthDate: `${new Date().getUTCFullYear() - 23 - i}-0${i + 2}-15`,
        countryId: spain.id,
      })
      .returning({ id: modelProfiles.id });
    const now = Date.now();
    await db.insert(modelConsents).values({
      modelProfileId: model!.id,
      publicistId: publicist.id,
      contact: m.email,
      // Nobody holds these tokens: the demo publicist re-sends the pending request to get a working link.
      tokenHash: hashToken(crypto.randomBytes(32).toString('base64url')),
      codeHash: hashToken(crypto.randomBytes(8).toString('hex')),
      withdrawTokenHash: m.consent === 'given' ? hashToken(crypto.randomBytes(32).toString('base64url')) : null,
      status: m.consent,
      expiresAt: new Date(now + CONSENT_TTL_DAYS * 86_400_000),
      givenAt: m.consent === 'given' ? new Date(now - 86_400_000) : null,
      createdAt: new Date(now - 2 * 86_400_000),
    });
    const [ad] = await db
      .insert(ads)
      .values({
        modelProfileId: model!.id,
        title: m.title,
        description: m.description,
        sectionId: section.id,
        cityId: city.id,
        status: 'active',
        isActive: true,
      })
      .returning({ id: ads.id });
    for (const [position, color] of m.colors.entries()) {
      const uid = crypto.randomUUID();
      const variants = await renderIllustration(color, 120 + i * 3 + position);
      for (const w of VARIANT_WIDTHS) await storage.put(mediaKey(ad!.id, uid, w), variants.get(w)!);
      await db.insert(media).values({
        adId: ad!.id,
        uid,
        isCover: position === 0,
        position,
        width: 1600,
        height: Math.round(1600 * ASPECT),
        variants: [...VARIANT_WIDTHS],
        reviewedAt: new Date(),
      });
    }
  }
}
