/**
 * The demo catalogue `npm start` seeds on a fresh database: a few hundred ads across the six sections and a dozen
 * Spanish cities (Asturias first), each with illustrative photos (see illustrations.ts), plus two promoted
 * placements. Deterministic, so screenshots and tests see the same site. Skipped when already present.
 */
import crypto from 'node:crypto';
import { inArray, like, sql } from 'drizzle-orm';
import type { Storage } from '../../plugins/storage.ts';
import { mediaKey } from '../../modules/media/images.ts';
import { hashPassword } from '../../modules/auth/passwords.ts';
import type { Db } from '../client.ts';
import { ads, cities, media, modelProfiles, publicityAds, sections, states, users } from '../schema.ts';
import { ASPECT, DEMO_CATALOGUE_PROVIDER, renderIllustration, VARIANT_WIDTHS } from './illustrations.ts';

/** INE codes; the first five are in Asturias and get most of the ads. */
const CITY_CODES = ['33044', '33024', '33004', '33037', '33031', '28079', '08019', '46250', '41091', '48020', '29067', '50297', '39075'];
const FEMALE = [
  'Lucía',
  'Sofía',
  'Martina',
  'María',
  'Julia',
  'Paula',
  'Valeria',
  'Emma',
  'Daniela',
  'Carla',
  'Alba',
  'Noa',
  'Sara',
  'Carmen',
  'Vega',
  'Olivia',
  'Irene',
  'Aitana',
  'Claudia',
  'Jimena',
  'Nerea',
  'Ainhoa',
  'Covadonga',
  'Xana',
];
const MALE = [
  'Hugo',
  'Martín',
  'Lucas',
  'Mateo',
  'Leo',
  'Daniel',
  'Alejandro',
  'Pablo',
  'Manuel',
  'Álvaro',
  'Adrián',
  'David',
  'Mario',
  'Diego',
  'Javier',
  'Marcos',
  'Pelayo',
  'Iker',
  'Bruno',
  'Nicolás',
];
const NEUTRAL = ['Alex', 'Andrea', 'Ariel', 'Dani', 'Noel', 'Cris', 'Sasha', 'Robin', 'Eider', 'Ángel'];
const SPECIALITIES = [
  'moda',
  'publicidad',
  'fotografía artística',
  'pasarela',
  'catálogo',
  'eventos y azafatas',
  'videoclips',
  'redes sociales',
];
const LANGUAGES = [
  'español',
  'español e inglés',
  'español, inglés y francés',
  'español y portugués',
  'español y asturiano',
  'español e italiano',
];
const TRAITS = [
  'Puntual y profesional',
  'Con experiencia en estudio y exteriores',
  'Acostumbrada a trabajar en equipo',
  'Disponible entre semana y fines de semana',
  'Book actualizado este año',
  'Experiencia en campañas locales',
];

interface Spec {
  name: string;
  section: string;
  city: string;
  age: number;
  status: 'active' | 'pending' | 'suspended' | 'paused' | 'rejected';
  adOn: boolean;
  photos: number;
  daysAgo: number;
  i: number;
}

function pick<T>(list: readonly T[], i: number): T {
  return list[((i % list.length) + list.length) % list.length]!;
}

function nameFor(section: string, i: number): string {
  switch (section) {
    case 'women':
      return pick(FEMALE, i * 7);
    case 'men':
    case 'gays':
      return pick(MALE, i * 5);
    case 'couples':
      return `${pick(FEMALE, i * 3)} y ${pick(MALE, i * 11)}`;
    default:
      return pick([...NEUTRAL, ...FEMALE.slice(0, 6)], i * 13);
  }
}

export function demoSpecs(count: number): Spec[] {
  const sectionCycle = ['women', 'women', 'men', 'gays', 'trans', 'webcam', 'couples', 'women', 'men'];
  return Array.from({ length: count }, (_, i) => {
    const section = pick(sectionCycle, i);
    // Asturias first: about half of the catalogue is in its five cities.
    const city = i % 2 === 0 ? pick(CITY_CODES.slice(0, 5), i / 2) : pick(CITY_CODES, (i * 7) >> 1);
    const status =
      i % 41 === 7 ? 'pending' : i % 53 === 11 ? 'suspended' : i % 59 === 13 ? 'paused' : i % 67 === 17 ? 'rejected' : 'active';
    return {
      name: nameFor(section, i),
      section,
      city,
      age: 19 + ((i * 17) % 27),
      status,
      adOn: i % 37 !== 5,
      photos: 2 + (i % 3),
      daysAgo: (i * 7) % 60,
      i,
    };
  });
}

function adText(s: Spec, cityName: string): { title: string; description: string } {
  const speciality = pick(SPECIALITIES, s.i * 3);
  const title =
    s.section === 'webcam'
      ? `${s.name}: sesiones por videollamada`
      : s.section === 'couples'
        ? `${s.name}, pareja para ${speciality}`
        : `${s.name}, modelo de ${speciality} en ${cityName}`;
  const description = [
    s.section === 'couples'
      ? `Somos ${s.name}, pareja de modelos con experiencia en ${speciality}.`
      : `Soy ${s.name}, modelo con experiencia en ${speciality}.`,
    s.section === 'webcam'
      ? 'Trabajo por videollamada para castings, pruebas de vestuario y sesiones de retrato a distancia.'
      : `Trabajo en ${cityName} y alrededores, en estudio y en exteriores.`,
    `${pick(TRAITS, s.i)}. Idiomas: ${pick(LANGUAGES, s.i * 5)}.`,
    'Contacto por teléfono o WhatsApp; respondo en el día.',
  ].join(' ');
  return { title, description };
}

function birthDate(age: number, i: number): string {
  const d = new Date(Date.UTC(new Date().getUTCFullYear() - age - 1, (i * 5) % 12, 1 + ((i * 3) % 28)));
  return d.toISOString().slice(0, 10);
}

const DEMO_CATALOGUE_SCREENING = () => ({
  provider: DEMO_CATALOGUE_PROVIDER,
  scores: { sexual_activity: 0, sexual_display: 0, erotica: 0 },
  checked_at: new Date().toISOString(),
});

export async function seedDemoCatalogue(db: Db, storage: Storage, opts: { ads: number; password: string }): Promise<void> {
  const existing = await db.select({ id: users.id }).from(users).where(like(users.email, 'demo-model-%@vitrina.test')).limit(1);
  if (existing.length) return;

  const sectionRows = await db.select().from(sections);
  const sectionBySlug = new Map(sectionRows.map((s) => [s.slug, s]));
  const cityRows = await db
    .select({ id: cities.id, code: cities.code, name: cities.name, state: states.name })
    .from(cities)
    .innerJoin(states, sql`${states.id} = ${cities.stateId}`)
    .where(inArray(cities.code, CITY_CODES));
  const cityByCode = new Map(cityRows.map((c) => [c.code, c]));

  // A small pool of illustrations per section, reused (as hard links) across ads.
  const pool = new Map<string, string[]>();
  for (const s of sectionRows) {
    const keys: string[] = [];
    for (let v = 0; v < 3; v++) {
      const variants = await renderIllustration(s.color, v + s.id * 3);
      const base = `demo/${s.slug}-${v}`;
      for (const [w, buf] of variants) await storage.put(`${base}/${w}.webp`, buf);
      keys.push(base);
    }
    pool.set(s.slug, keys);
  }

  const passwordHash = await hashPassword(opts.password);
  const specs = demoSpecs(opts.ads).filter((s) => cityByCode.has(s.city));
  const userRows = await db
    .insert(users)
    .values(
      specs.map((s) => ({
        name: s.name,
        email: `demo-model-${s.i + 1}@vitrina.test`,
        passwordHash,
        role: 'model' as const,
        status: 'active' as const,
        locale: 'es',
        emailVerifiedAt: new Date(),
      })),
    )
    .returning({ id: users.id, email: users.email });
  const userIdByIndex = new Map(userRows.map((u) => [Number(/demo-model-(\d+)@/.exec(u.email)![1]) - 1, u.id]));

  const profileRows = await db
    .insert(modelProfiles)
    .values(
      specs.map((s) => ({
        userId: userIdByIndex.get(s.i)!,
        displayName: s.name.slice(0, 60),
        status: s.status,
        birthDate: birthDate(s.age, s.i),
        phone: `+346${String(10_000_000 + s.i * 7919).slice(0, 8)}`,
        whatsapp: s.i % 3 !== 0,
        ...(s.status === 'suspended'
          ? { reasons: { codes: ['prohibited_content'], text: 'Fotos que no cumplen las normas de publicación.' } }
          : {}),
      })),
    )
    .returning({ id: modelProfiles.id, userId: modelProfiles.userId });
  const profileByUser = new Map(profileRows.map((p) => [p.userId, p.id]));

  const now = Date.now();
  const adRows = await db
    .insert(ads)
    .values(
      specs.map((s) => {
        const city = cityByCode.get(s.city)!;
        const section = sectionBySlug.get(s.section)!;
        const { title, description } = adText(s, city.name);
        return {
          modelProfileId: profileByUser.get(userIdByIndex.get(s.i)!)!,
          title: title.slice(0, 80),
          description,
          sectionId: section.id,
          cityId: city.id,
          isActive: s.adOn,
          status: 'active' as const,
          publishedAt: new Date(now - s.daysAgo * 86_400_000 - s.i * 60_000),
        };
      }),
    )
    .returning({ id: ads.id, modelProfileId: ads.modelProfileId });

  const specByProfile = new Map(specs.map((s) => [profileByUser.get(userIdByIndex.get(s.i)!)!, s]));
  const mediaValues: (typeof media.$inferInsert)[] = [];
  for (const ad of adRows) {
    const spec = specByProfile.get(ad.modelProfileId)!;
    const bases = pool.get(spec.section)!;
    for (let p = 0; p < spec.photos; p++) {
      const uid = crypto.randomUUID();
      const base = bases[(spec.i + p) % bases.length]!;
      for (const w of VARIANT_WIDTHS) await storage.link(`${base}/${w}.webp`, mediaKey(ad.id, uid, w));
      mediaValues.push({
        adId: ad.id,
        uid,
        isCover: p === 0,
        position: p,
        width: 1600,
        height: Math.round(1600 * ASPECT),
        variants: [...VARIANT_WIDTHS],
        // The demo catalogue counts as looked at: the photo queue starts with the demo review items only.
        reviewedAt: new Date(),
        // The known demo set: its few drawings are shared across the catalogue's accounts (rendering one per photo
        // would take minutes at every fresh start), so photo matching (issue 29) leaves them out — hashed, every
        // catalogue ad would match dozens of others and the staff queues would show matches for everything.
        moderation: DEMO_CATALOGUE_SCREENING(),
      });
    }
  }
  for (let i = 0; i < mediaValues.length; i += 500) await db.insert(media).values(mediaValues.slice(i, i + 500));

  const promoImages: string[] = [];
  for (const [n, color] of [
    [0, '#ffb01b'],
    [1, '#1c7ed6'],
  ] as const) {
    const variants = await renderIllustration(color, 40 + n);
    const key = `promo/${n}-${crypto.randomUUID()}.webp`;
    await storage.put(key, variants.get(800)!);
    promoImages.push(key);
  }
  await db.insert(publicityAds).values([
    {
      title: 'Estudio Luz Norte: book profesional en Oviedo',
      body: 'Sesiones de retrato y book para modelos, con maquillaje incluido. Reserva tu hora.',
      advertiser: 'Luz Norte Fotografía S.L.',
      imageKey: promoImages[0]!,
      targetUrl: 'https://example.com/luz-norte',
      position: 1,
    },
    {
      title: 'Academia Cantábrico: curso de pasarela',
      body: 'Aprende a desfilar y a posar con profesionales del sector. Grupos reducidos en Gijón.',
      advertiser: 'Academia Cantábrico S.C.',
      imageKey: promoImages[1]!,
      targetUrl: 'https://example.com/academia-cantabrico',
      position: 2,
    },
  ]);
}
