import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, modelProfiles } from '#server/db/schema.ts';
import type { ModelList } from '#contract/listings.ts';
import { buildModel, CITY, type BuiltModel } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

/**
 * Typo-tolerant search (issue 13 point 3). The catalogue is built before any listing request (GET /api/models is
 * micro-cached per app instance); tests that change data query with words nobody else uses.
 */
let t: TestApp;
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);

let lucia: BuiltModel; // Oviedo
let lucas: BuiltModel; // Oviedo, men
let pelayo: BuiltModel; // Gijón, men
let jimena: BuiltModel; // Gijón, women
let xana: BuiltModel; // Avilés
let noa: BuiltModel; // Madrid, webcam
let marceliano: BuiltModel; // Madrid
let marcelino: BuiltModel; // Madrid

beforeAll(async () => {
  t = await createTestApp();
  const model = (spec: Parameters<typeof buildModel>[1]) => buildModel(t.database.db, spec);
  lucia = await model({ name: 'Lucía', city: CITY.oviedo, section: 'women', publishedAt: ago(9), description: 'Pasarela y moda.' });
  lucas = await model({ name: 'Lucas', city: CITY.oviedo, section: 'men', publishedAt: ago(1) });
  pelayo = await model({ name: 'Pelayo', city: CITY.gijon, section: 'men', publishedAt: ago(2) });
  jimena = await model({ name: 'Jimena', city: CITY.gijon, section: 'women', publishedAt: ago(3) });
  xana = await model({ name: 'Xana', city: CITY.aviles, section: 'women', publishedAt: ago(4) });
  noa = await model({ name: 'Noa', city: CITY.madrid, section: 'webcam', title: 'Noa por videollamada', publishedAt: ago(5) });
  marceliano = await model({ name: 'Marceliano', city: CITY.madrid, section: 'men', publishedAt: ago(7) });
  // Newer than Marceliano: without the typo tiers, recency would put him first. (Not Florentina/Florentino: the
  // Spanish stemmer reads both as "florentin", so no ranking could tell them apart.)
  marcelino = await model({ name: 'Marcelino', city: CITY.madrid, section: 'men', publishedAt: ago(6) });
});
afterAll(async () => {
  await t?.close();
});

async function list(query: string): Promise<ModelList> {
  const res = await t.app.inject({ method: 'GET', url: `/api/models?${query}`, headers: XHR });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json<ModelList>();
}
const search = (q: string, more = '') => list(`search=${encodeURIComponent(q)}${more}`);
const idsOf = (l: ModelList) => l.data.map((c) => c.id);

describe('GET /api/models: typo tolerance', () => {
  it('reads a swapped pair of letters as one typo: "luica" finds Lucía and says so', async () => {
    const l = await search('luica');
    expect(idsOf(l)).toEqual([lucia.adId]);
    expect(l.meta.corrections).toEqual([{ from: 'luica', to: 'lucía' }]);
    expect(l.meta.corrected_search).toBe('lucía');
    expect(l.meta.total).toBe(1);
  });

  it('"gihon" finds Gijón and "aviels" finds Avilés, accents and case ignored', async () => {
    const g = await search('GIHON');
    expect(idsOf(g).sort()).toEqual([pelayo.adId, jimena.adId].sort());
    expect(g.meta.corrections).toEqual([{ from: 'gihon', to: 'gijón' }]);
    expect(g.meta.corrected_search).toBe('gijón');
    const a = await search('aviels');
    expect(idsOf(a)).toEqual([xana.adId]);
    expect(a.meta.corrections).toEqual([{ from: 'aviels', to: 'avilés' }]);
  });

  it('corrects only the word that matches nothing, and keeps the filters', async () => {
    const l = await search('Jimena gihon');
    expect(idsOf(l)).toEqual([jimena.adId]);
    expect(l.meta.corrections).toEqual([{ from: 'gihon', to: 'gijón' }]);
    expect(l.meta.corrected_search).toBe('Jimena gijón');
    expect(idsOf(await search('gihon', '&section=men'))).toEqual([pelayo.adId]);
    // Corrected, and still nothing (no ad in Gijón is in the webcam section): no correction is announced.
    const none = await search('gihon', '&section=webcam');
    expect(none.meta.total).toBe(0);
    expect(none.meta.corrections).toBeUndefined();
  });

  it('leaves a word that matches something alone, even one typo away from another', async () => {
    // "lucas" matches Lucas's ad as typed: it is not corrected, and no near word (Lucía, "luca…") is brought in.
    const l = await search('lucas');
    expect(idsOf(l)).toEqual([lucas.adId]);
    expect(l.meta.corrections).toBeUndefined();
    expect(Object.keys(l.meta).sort()).toEqual(['current_page', 'from', 'last_page', 'per_page', 'to', 'total']);
    // Stems and section names match through full-text search, not the vocabulary: nothing to correct either.
    expect(idsOf(await search('videollamadas'))).toEqual([noa.adId]);
    expect((await search('videollamadas')).meta.corrections).toBeUndefined();
  });

  it('does not correct words of fewer than 5 letters', async () => {
    for (const q of ['Xaan', 'Nao', 'Lcua', 'Jmie']) {
      const l = await search(q);
      expect(l.meta.total, q).toBe(0);
      expect(l.meta.corrections, q).toBeUndefined();
    }
    // 5 letters, one typo: corrected.
    expect(idsOf(await search('Lcuas'))).toEqual([lucas.adId]);
  });

  it('allows one typo from 5 letters and two from 9, never more', async () => {
    // Two typos in a 6-letter word: too many.
    expect((await search('pleyao')).meta.total).toBe(0);
    expect((await search('peyalo')).meta.total).toBe(0);
    // Two typos in a 10-letter word: allowed (Marcelino: one letter less, one changed).
    const l = await search('marcelianx');
    expect(idsOf(l)).toContain(marcelino.adId);
    // Three: too many.
    expect((await search('mracelianxx')).meta.total).toBe(0);
  });

  it('a wrong first letter counts as two typos, as in Meilisearch', async () => {
    expect((await search('ulcia')).meta.total).toBe(0);
    expect((await search('Mucía')).meta.total).toBe(0);
  });

  it('ranks exact matches above corrected ones, and fewer typos above more', async () => {
    // An OR query: "pelayo" matches as typed, "luica" only corrected. Lucía's ad is older, Lucas's is no match.
    const or = await search('luica or pelayo');
    expect(idsOf(or)).toEqual([pelayo.adId, lucia.adId]);
    expect(or.meta.corrections).toEqual([{ from: 'luica', to: 'lucía' }]);
    // Marceliano is one typo away, Marcelino two: Marceliano comes first although the other ad is newer.
    const l = await search('marcelianx');
    expect(idsOf(l)).toEqual([marceliano.adId, marcelino.adId]);
    expect(l.meta.corrections).toEqual([{ from: 'marcelianx', to: 'marceliano' }]);
  });

  it('literal=1 searches the words as typed (the way back from a correction), cached apart', async () => {
    expect((await search('luica')).meta.total).toBe(1);
    const l = await search('luica', '&literal=1');
    expect(l.meta.total).toBe(0);
    expect(l.meta.corrections).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/api/models?search=luica&literal=yes', headers: XHR })).statusCode).toBe(422);
  });

  it('ranks only the 1,000 most recent matches, corrected or not', async () => {
    const m = await buildModel(t.database.db, { name: 'Zenobia', city: CITY.madrid, publishedAt: ago(100) });
    // 1,005 more ads of hers, set-based (the per-model limit is the app's, not the table's), each older than the last.
    await t.database.db.execute(sql`
      insert into ads (model_profile_id, title, description, section_id, city_id, status, published_at)
      select a.model_profile_id, a.title, 'Otra sesión', a.section_id, a.city_id, 'active', a.published_at - g * interval '1 minute'
      from ads a, generate_series(1, 1005) g where a.id = ${m.adId}`);
    const l = await search('zenobia', '&per_page=48');
    expect(l.meta).toMatchObject({ total: 1000, last_page: 21 });
    expect(l.data[0]!.id).toBe(m.adId);
    const typo = await search('zenobai', '&per_page=48&page=21');
    expect(typo.meta).toMatchObject({ total: 1000, from: 961, to: 1000 });
    expect(typo.meta.corrections).toEqual([{ from: 'zenobai', to: 'zenobia' }]);
    expect((await search('zenobia', '&per_page=48&page=22')).meta).toMatchObject({ total: 1000, from: null });
  });

  it('finds nothing, without error, when nothing is close', async () => {
    const l = await search('zzqxwvb');
    expect(l.meta.total).toBe(0);
    expect(l.meta.corrections).toBeUndefined();
  });
});

describe('search_words: the vocabulary follows the listed ads', () => {
  const count = async (word: string) => {
    const res = (await t.database.db.execute(sql`select ads from search_words where word = ${word}`)) as { rows: { ads: number }[] };
    return res.rows[0]?.ads ?? 0;
  };

  it('counts the listed ads using each word, accent-blind; hidden, changed and deleted ads leave it', async () => {
    const db = t.database.db;
    expect(await count('lucia')).toBe(1);
    expect(await count('oviedo')).toBe(2);
    expect(await count('gijon')).toBe(2);
    // Section names are no typo target.
    expect(await count('webcam')).toBe(0);

    const m = await buildModel(db, {
      name: 'Eufrasia',
      city: CITY.oviedo,
      section: 'women',
      title: 'Teatro en Asturias',
      description: 'Teatro clásico.',
    });
    expect(await count('eufrasia')).toBe(1);
    expect(await count('clasico')).toBe(1);
    expect(await count('oviedo')).toBe(3);
    // Unlisted (switched off): its words go.
    await db.update(ads).set({ isActive: false }).where(eq(ads.id, m.adId));
    expect(await count('eufrasia')).toBe(0);
    expect(await count('oviedo')).toBe(2);
    await db.update(ads).set({ isActive: true }).where(eq(ads.id, m.adId));
    expect(await count('eufrasia')).toBe(1);
    // The text changes: the old word goes, the new one comes.
    await db.update(ads).set({ description: 'Danza moderna.' }).where(eq(ads.id, m.adId));
    expect(await count('clasico')).toBe(0);
    expect(await count('danza')).toBe(1);
    // The profile is renamed (the ads trigger copies the name onto the ad).
    await db.update(modelProfiles).set({ displayName: 'Eustaquia' }).where(eq(modelProfiles.id, m.profileId));
    expect(await count('eufrasia')).toBe(0);
    expect(await count('eustaquia')).toBe(1);
    // A hidden profile's ad: nothing of it stays searchable for corrections.
    await db.update(modelProfiles).set({ status: 'suspended' }).where(eq(modelProfiles.id, m.profileId));
    expect(await count('eustaquia')).toBe(0);
    await db.update(modelProfiles).set({ status: 'active' }).where(eq(modelProfiles.id, m.profileId));
    expect(await count('eustaquia')).toBe(1);
    await db.delete(ads).where(eq(ads.id, m.adId));
    expect(await count('eustaquia')).toBe(0);
    expect(await count('danza')).toBe(0);
    expect(await count('oviedo')).toBe(2);
  });

  it('a correction never leads to a hidden ad', async () => {
    const db = t.database.db;
    const hidden = await buildModel(db, { name: 'Hermenegilda', city: CITY.madrid, profileStatus: 'pending' });
    expect(await count('hermenegilda')).toBe(0);
    const l = await search('hermenegilfa');
    expect(idsOf(l)).not.toContain(hidden.adId);
    expect(l.meta.total).toBe(0);
  });
});
