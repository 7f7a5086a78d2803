/**
 * A few items waiting for staff on `npm start`, so the review queues are not empty: a model (nerea@vitrina.test) whose
 * edited ad waits for review, a model (sara@vitrina.test) whose verification selfie waits, and an agency
 * (agencia-sur@vitrina.test) whose profile waits. Same password as the other demo accounts; skipped once seeded.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Storage } from '../../plugins/storage.ts';
import { hashPassword } from '../../modules/auth/passwords.ts';
import { findUserByEmail } from '../../modules/auth/users.repository.ts';
import { mediaKey } from '../../modules/media/images.ts';
import { hashImage, storeHashes } from '../../modules/media/photo-hashes.ts';
import type { Db } from '../client.ts';
import { ads, cities, countries, media, modelProfiles, publicistProfiles, sections, users, verificationRequests } from '../schema.ts';
import { ASPECT, renderIllustration, VARIANT_WIDTHS } from './illustrations.ts';

export const DEMO_REVIEW_ACCOUNTS = {
  pendingAd: 'nerea@vitrina.test',
  pendingVerification: 'sara@vitrina.test',
  pendingPublicist: 'agencia-sur@vitrina.test',
} as const;

async function account(db: Db, email: string, name: string, role: 'model' | 'publicist', passwordHash: string) {
  const [user] = await db
    .insert(users)
    .values({ email, name, role, passwordHash, status: 'active', locale: 'es', emailVerifiedAt: new Date() })
    .returning({ id: users.id });
  return user!.id;
}

async function photos(db: Db, storage: Storage, adId: number, colors: string[], variation: number) {
  for (const [position, color] of colors.entries()) {
    const uid = crypto.randomUUID();
    const variants = await renderIllustration(color, variation + position);
    for (const w of VARIANT_WIDTHS) await storage.put(mediaKey(adId, uid, w), variants.get(w)!);
    await db.insert(media).values({
      adId,
      uid,
      isCover: position === 0,
      position,
      width: 1600,
      height: Math.round(1600 * ASPECT),
      variants: [...VARIANT_WIDTHS],
      moderation: {
        provider: 'demo',
        scores: { sexual_activity: 0.01, sexual_display: 0.02 + position / 50, erotica: 0.12 },
        checked_at: new Date().toISOString(),
      },
    });
  }
}

export async function seedDemoReviewQueue(db: Db, storage: Storage, password: string): Promise<void> {
  if (await findUserByEmail(db, DEMO_REVIEW_ACCOUNTS.pendingAd)) return;
  const [spain] = await db.select({ id: countries.id }).from(countries).where(eq(countries.iso2, 'ES'));
  const [gijon] = await db.select({ id: cities.id }).from(cities).where(eq(cities.code, '33024'));
  const [women] = await db.select({ id: sections.id }).from(sections).where(eq(sections.slug, 'women'));
  if (!spain || !gijon || !women) return;
  const passwordHash = await hashPassword(password);
  const birthDate = `${new Date().getUTCFullYear() - 29}-09-03`;

  // An approved model whose ad was edited: back in the queue of new and edited ads.
  const nerea = await account(db, DEMO_REVIEW_ACCOUNTS.pendingAd, 'Nerea', 'model', passwordHash);
  const [nereaProfile] = await db
    .insert(modelProfiles)
    .values({
      userId: nerea,
      displayName: 'Nerea',
      status: 'active',
      birthDate,
      phone: '+34612000222',
      phoneCountry: 'ES',
      countryId: spain.id,
    })
    .returning({ id: modelProfiles.id });
  const [nereaAd] = await db
    .insert(ads)
    .values({
      modelProfileId: nereaProfile!.id,
      title: 'Nerea, modelo de catálogo en Gijón',
      description: 'Modelo de catálogo y publicidad en Gijón. Sesiones en estudio y exteriores; disponible los fines de semana.',
      sectionId: women.id,
      cityId: gijon.id,
      status: 'pending',
      isActive: true,
      version: 2,
    })
    .returning({ id: ads.id });
  await photos(db, storage, nereaAd!.id, ['#0ca678', '#1c7ed6'], 150);

  // A model who sent her verification selfie.
  const sara = await account(db, DEMO_REVIEW_ACCOUNTS.pendingVerification, 'Sara', 'model', passwordHash);
  const [saraProfile] = await db
    .insert(modelProfiles)
    .values({
      userId: sara,
      displayName: 'Sara',
      status: 'pending',
      birthDate,
      phone: '+34612000333',
      phoneCountry: 'ES',
      countryId: spain.id,
    })
    .returning({ id: modelProfiles.id });
  const [saraAd] = await db
    .insert(ads)
    .values({
      modelProfileId: saraProfile!.id,
      title: 'Sara, modelo de moda en Gijón',
      description: 'Modelo de moda con experiencia en pasarela. Book actualizado y disponibilidad entre semana en Asturias.',
      sectionId: women.id,
      cityId: gijon.id,
      status: 'pending',
      isActive: true,
    })
    .returning({ id: ads.id });
  await photos(db, storage, saraAd!.id, ['#f08c00'], 160);
  const selfie = (await renderIllustration('#f08c00', 161)).get(VARIANT_WIDTHS.at(-1)!)!;
  const selfieKey = `verification/${saraProfile!.id}/${crypto.randomUUID()}.webp`;
  await storage.put(selfieKey, selfie);
  const [request] = await db
    .insert(verificationRequests)
    .values({
      modelProfileId: saraProfile!.id,
      code: 'DEMO42',
      status: 'pending',
      photoKey: selfieKey,
      submittedAt: new Date(),
      expiresAt: new Date(Date.now() + 15 * 60_000),
    })
    .returning({ id: verificationRequests.id });
  // Hashed as a sent selfie is (issue 29), so the verification queue shows its matches like any other.
  const selfieHashes = await hashImage(selfie);
  if (selfieHashes) await storeHashes(db, { verificationId: request!.id }, saraProfile!.id, selfieHashes);

  // An agency waiting for approval, with its trader details.
  const sur = await account(db, DEMO_REVIEW_ACCOUNTS.pendingPublicist, 'Agencia Sur', 'publicist', passwordHash);
  await db.insert(publicistProfiles).values({
    userId: sur,
    displayName: 'Agencia Sur',
    status: 'pending',
    legalName: 'Agencia Sur Modelos S.L.',
    taxId: 'B87654321',
    address: 'Calle Corrida 10, 33206 Gijón',
    phone: '+34985000111',
    phoneCountry: 'ES',
    email: 'contacto@agencia-sur.test',
  });
}
