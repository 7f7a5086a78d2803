/**
 * The demo model (model@vitrina.test) gets a complete, approved profile with a listed ad and two illustrative
 * photos, so a new user of `npm start` can open "Mi perfil" and edit right away. Skipped once the ad exists.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Storage } from '../../plugins/storage.ts';
import { mediaKey } from '../../modules/media/images.ts';
import type { Db } from '../client.ts';
import { ads, cities, countries, media, modelProfiles, sections, users } from '../schema.ts';
import { ASPECT, renderIllustration, VARIANT_WIDTHS } from './illustrations.ts';

export async function seedDemoModelAd(db: Db, storage: Storage): Promise<void> {
  const [row] = await db
    .select({ profileId: modelProfiles.id })
    .from(users)
    .innerJoin(modelProfiles, eq(modelProfiles.userId, users.id))
    .where(eq(users.email, 'model@vitrina.test'));
  if (!row) return;
  const [existing] = await db.select({ id: ads.id }).from(ads).where(eq(ads.modelProfileId, row.profileId)).limit(1);
  if (existing) return;

  const [spain] = await db.select({ id: countries.id }).from(countries).where(eq(countries.iso2, 'ES'));
  const [oviedo] = await db.select({ id: cities.id }).from(cities).where(eq(cities.code, '33044'));
  const [women] = await db.select({ id: sections.id }).from(sections).where(eq(sections.slug, 'women'));
  if (!spain || !oviedo || !women) return;

  await db
    .update(modelProfiles)
    .set({
      displayName: 'Lucía',
      status: 'active',
      birthDate: `${new Date().getUTCFullYear() - 27}-04-12`,
      phone: '+34612000111',
      phoneCountry: 'ES',
      whatsapp: true,
      countryId: spain.id,
    })
    .where(eq(modelProfiles.id, row.profileId));
  const [ad] = await db
    .insert(ads)
    .values({
      modelProfileId: row.profileId,
      title: 'Lucía, modelo de moda y publicidad en Oviedo',
      description:
        'Soy Lucía, modelo con experiencia en moda, catálogo y publicidad. Trabajo en estudio y en exteriores por ' +
        'toda Asturias. Book actualizado y disponibilidad entre semana; escríbeme para tu próxima sesión.',
      sectionId: women.id,
      cityId: oviedo.id,
      status: 'active',
      isActive: true,
    })
    .returning({ id: ads.id });

  for (const [position, color] of (['#e64980', '#7048e8'] as const).entries()) {
    const uid = crypto.randomUUID();
    const variants = await renderIllustration(color, 90 + position);
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
