/**
 * The listing serializes each card once per version and reuses it (card-cache.ts): these tests change, the way the
 * services write it, everything a card shows, and check that the very next listing shows the change — the card's
 * version went up (migration 0016's triggers) and the card equals a fresh serialization of the ad's current row. The
 * listing's own micro-cache is off, so every request reads the database.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelCard, ModelList } from '#contract/listings.ts';
import type { Db } from '#server/db/client.ts';
import { ads, media, modelProfiles, users } from '#server/db/schema.ts';
import { buildModel, buildUser, CITY, type BuiltModel } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import { toCard } from './cards.ts';
import { cardRows } from './listings.repository.ts';

let t: TestApp;
const db = (): Db => t.database.db;

beforeAll(async () => {
  t = await createTestApp({ listingsCacheTtlMs: 0 });
});
afterAll(async () => t.close());

async function listed(m: BuiltModel, lang = 'es'): Promise<ModelCard | undefined> {
  const res = await t.app.inject({
    url: `/api/models?city=${m.cityId}&section=gays&per_page=48`,
    headers: { ...XHR, 'accept-language': lang },
  });
  expect(res.statusCode).toBe(200);
  return res.json<ModelList>().data.find((c) => c.id === m.adId);
}

async function version(m: BuiltModel): Promise<number> {
  const [row] = await db().select({ v: ads.cardVersion }).from(ads).where(eq(ads.id, m.adId));
  return row!.v;
}

/** The card as serialized from the ad's current row, without the cache. */
async function fresh(m: BuiltModel, lang: 'es' | 'en' = 'es'): Promise<ModelCard> {
  const [row] = await cardRows(db(), [m.adId]);
  return JSON.parse(JSON.stringify(toCard(t.app.storage, row!, lang))) as ModelCard;
}

describe('a cached card follows every change to what it shows', () => {
  const changes: [string, (m: BuiltModel) => Promise<unknown>, (card: ModelCard) => void][] = [
    [
      'the ad title',
      (m) => db().update(ads).set({ title: 'Título nuevo' }).where(eq(ads.id, m.adId)),
      (c) => expect(c.title).toBe('Título nuevo'),
    ],
    [
      'the ad description (the excerpt)',
      (m) => db().update(ads).set({ description: 'Otra descripción distinta' }).where(eq(ads.id, m.adId)),
      (c) => expect(c.excerpt).toBe('Otra descripción distinta'),
    ],
    [
      'republished (its date)',
      (m) =>
        db()
          .update(ads)
          .set({ publishedAt: new Date('2026-10-01T10:00:00Z') })
          .where(eq(ads.id, m.adId)),
      (c) => expect(c.published_at).toBe('2026-10-01T10:00:00.000Z'),
    ],
    [
      "the model's name",
      (m) => db().update(modelProfiles).set({ displayName: 'Nombre Nuevo' }).where(eq(modelProfiles.id, m.profileId)),
      (c) => expect(c.name).toBe('Nombre Nuevo'),
    ],
    [
      "the model's birth date (her age)",
      (m) => db().update(modelProfiles).set({ birthDate: '1990-01-01' }).where(eq(modelProfiles.id, m.profileId)),
      (c) => expect(c.age).toBeGreaterThan(30),
    ],
    [
      'the profile moved to another account',
      async (m) => {
        const other = await buildUser(db(), { role: 'model', status: 'active' });
        await db().update(modelProfiles).set({ userId: other.id }).where(eq(modelProfiles.id, m.profileId));
      },
      (c) => expect(c.user_id).not.toBeNull(),
    ],
    [
      'another photo made the cover',
      async (m) => {
        await db().update(media).set({ isCover: false }).where(eq(media.adId, m.adId));
        await db().update(media).set({ isCover: true }).where(eq(media.id, m.mediaIds[1]!));
      },
      (c) => expect(c.cover?.media_id).toBeDefined(),
    ],
    [
      "the cover's sizes re-encoded",
      (m) =>
        db()
          .update(media)
          .set({ variants: [400, 800] })
          .where(eq(media.id, m.coverMediaId!)),
      (c) => expect(c.cover?.srcset.split(',')).toHaveLength(2),
    ],
    ['the cover deleted', (m) => db().delete(media).where(eq(media.id, m.coverMediaId!)), (c) => expect(c.cover).toBeNull()],
    [
      'a photo added to an ad without one',
      async (m) => {
        await db().delete(media).where(eq(media.adId, m.adId));
        await listed(m);
        await db()
          .insert(media)
          .values({ adId: m.adId, uid: crypto.randomUUID(), isCover: true, position: 0, width: 800, height: 1000, variants: [400, 800] });
      },
      (c) => expect(c.cover?.width).toBe(800),
    ],
  ];

  it.each(changes)('%s', async (_name, change, check) => {
    const m = await buildModel(db(), { name: 'Casimira', city: CITY.gijon, section: 'gays', photos: 2, birthDate: '2000-05-05' });
    const before = await listed(m);
    expect(before).toEqual(await fresh(m));
    const v = await version(m);
    await change(m);
    expect(await version(m)).toBeGreaterThan(v);
    const after = await listed(m);
    expect(after).toEqual(await fresh(m));
    expect(after).not.toEqual(before);
    check(after!);
  });

  it("a suspended account's card leaves the page, and comes back as it is now", async () => {
    const m = await buildModel(db(), { name: 'Herminia', city: CITY.gijon, section: 'gays' });
    expect(await listed(m)).toBeDefined();
    await db().update(users).set({ status: 'suspended' }).where(eq(users.id, m.userId));
    expect(await listed(m)).toBeUndefined();
    await db().update(users).set({ status: 'active' }).where(eq(users.id, m.userId));
    expect(await listed(m)).toEqual(await fresh(m));
  });

  it('the same card in another language names the section in that language', async () => {
    const m = await buildModel(db(), { name: 'Leonor', city: CITY.gijon, section: 'gays' });
    const es = await listed(m, 'es');
    const en = await listed(m, 'en');
    expect(es).toEqual(await fresh(m, 'es'));
    expect(en).toEqual(await fresh(m, 'en'));
    const names = (await db().execute(sql`select names from sections where slug = 'gays'`)) as {
      rows: { names: Record<string, string> }[];
    };
    expect([es!.section.name, en!.section.name]).toEqual([names.rows[0]!.names.es, names.rows[0]!.names.en]);
  });

  it('a cached card is reused, and its age is worked out again on the next day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2031-05-04T12:00:00Z'));
      const m = await buildModel(db(), { name: 'Eulalia', city: CITY.gijon, section: 'gays', birthDate: '2000-05-05' });
      expect((await listed(m))!.age).toBe(30);
      expect((await listed(m))!.age).toBe(30);
      vi.setSystemTime(new Date('2031-05-05T12:00:00Z'));
      expect((await listed(m))!.age).toBe(31);
    } finally {
      vi.useRealTimers();
    }
  });
});
