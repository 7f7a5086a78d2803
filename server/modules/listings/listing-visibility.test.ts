/**
 * Whether an ad is shown is denormalised onto its row (`ads.is_listed`, kept by triggers, migrations 0004–0013) and the
 * listing reads only that flag (listing_page(), the ranked search, the model page, the typo vocabulary). These tests
 * change every status that decides it, the way the services write it, and check every way a visitor could still meet
 * the ad — the filtered page and its count (and listing_counts, which the count is read from), the search, the model page, the vocabulary — against the rule itself
 * (SPEC §4), computed here from the raw statuses: ad switched on and approved, profile active, consent given when an
 * agency listed her, agency active, neither account suspended. Then the change is undone and the ad must come back.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDetail, ModelList } from '#contract/listings.ts';
import type { Db } from '#server/db/client.ts';
import { ads, modelProfiles, publicistProfiles, searchWords, users } from '#server/db/schema.ts';
import { buildModel, buildPublicist, CITY, type BuiltModel } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import { eraseAccount } from '../data-rights/erasure.ts';

let t: TestApp;
const db = (): Db => t.database.db;
let seq = 0;

beforeAll(async () => {
  // No micro-cache: every request below reads the database.
  t = await createTestApp({ listingsCacheTtlMs: 0 });
});
afterAll(async () => t.close());

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const res = await t.app.inject({ url, headers: XHR });
  return { status: res.statusCode, body: res.json<T>() };
}

/** A model with a word of her own (in her description), so the search and the vocabulary can be checked for her alone. */
async function model(
  extra: { publicist?: boolean } = {},
): Promise<BuiltModel & { word: string; publicistId?: number; publicistUserId?: number }> {
  const word = `vizcondesa${String.fromCharCode(97 + (seq % 26))}${String.fromCharCode(97 + Math.floor(seq / 26))}`;
  seq++;
  const built = await buildModel(db(), {
    name: 'Leocadia',
    city: CITY.aviles,
    section: 'trans',
    description: `Sesiones ${word} en estudio.`,
  });
  if (!extra.publicist) return { ...built, word };
  const agency = await buildPublicist(db());
  await db()
    .update(modelProfiles)
    .set({ publicistId: agency.publicistId, consentStatus: 'given' })
    .where(eq(modelProfiles.id, built.profileId));
  return { ...built, word, publicistId: agency.publicistId, publicistUserId: agency.userId };
}

/** SPEC §4's rule, from the raw statuses (not from is_listed): how many ads of Avilés × trans should be listed. */
async function expectedTotal(m: BuiltModel): Promise<number> {
  const res = (await db().execute(sql`
    select count(*)::int as n from ads a
      join model_profiles p on p.id = a.model_profile_id
      left join publicist_profiles pp on pp.id = p.publicist_id
      left join users u on u.id = p.user_id
      left join users pu on pu.id = pp.user_id
     where a.city_id = ${m.cityId} and a.section_id = ${m.sectionId}
       and a.is_active and a.status = 'active' and p.status = 'active'
       and p.consent_status in ('not_required', 'given') and (p.publicist_id is null or pp.status = 'active')
       and coalesce(u.status, '') <> 'suspended' and coalesce(pu.status, '') <> 'suspended'`)) as { rows: { n: number }[] };
  return res.rows[0]!.n;
}

/** listing_counts (migration 0016, the listing's totals) against a recount of every listed ad, for every city and section. */
async function expectCountsExact() {
  const kept = (await db().execute(sql`select city_id, section_id, ads from listing_counts order by 1, 2`)) as { rows: unknown[] };
  const recount = (await db().execute(
    sql`select city_id, section_id, count(*)::int as ads from ads where is_listed group by 1, 2 order by 1, 2`,
  )) as { rows: unknown[] };
  expect(kept.rows).toEqual(recount.rows);
}

/** Every way a visitor meets the ad. */
async function seen(m: BuiltModel & { word: string }) {
  const [row] = await db().select({ listed: ads.isListed }).from(ads).where(eq(ads.id, m.adId));
  const list = await get<ModelList>(`/api/models?city=${m.cityId}&section=trans&per_page=48`);
  const found = await get<ModelList>(`/api/models?search=${m.word}`);
  const page = await get<ModelDetail>(`/api/models/${m.adId}`);
  const [vocabulary] = await db().select({ ads: searchWords.ads }).from(searchWords).where(eq(searchWords.word, m.word));
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  expect(list.body.meta.total).toBe(await expectedTotal(m));
  await expectCountsExact();
  return {
    listed: row?.listed ?? false,
    inList: list.body.data.some((c) => c.id === m.adId),
    inSearch: found.body.data.some((c) => c.id === m.adId),
    page: page.status,
    vocabulary: vocabulary?.ads ?? 0,
  };
}

const SHOWN = { listed: true, inList: true, inSearch: true, page: 200, vocabulary: 1 };
const HIDDEN = { listed: false, inList: false, inSearch: false, page: 404, vocabulary: 0 };

describe('an ad disappears from every listing when what decides its visibility changes, and comes back', () => {
  const cases: [
    string,
    (m: Awaited<ReturnType<typeof model>>) => Promise<unknown>,
    (m: Awaited<ReturnType<typeof model>>) => Promise<unknown>,
    { publicist?: boolean }?,
  ][] = [
    [
      'ad switched off',
      (m) => db().update(ads).set({ isActive: false }).where(eq(ads.id, m.adId)),
      (m) => db().update(ads).set({ isActive: true }).where(eq(ads.id, m.adId)),
    ],
    [
      'ad paused',
      (m) => db().update(ads).set({ status: 'paused' }).where(eq(ads.id, m.adId)),
      (m) => db().update(ads).set({ status: 'active' }).where(eq(ads.id, m.adId)),
    ],
    [
      'ad suspended',
      (m) => db().update(ads).set({ status: 'suspended' }).where(eq(ads.id, m.adId)),
      (m) => db().update(ads).set({ status: 'active' }).where(eq(ads.id, m.adId)),
    ],
    [
      'profile rejected',
      (m) => db().update(modelProfiles).set({ status: 'rejected' }).where(eq(modelProfiles.id, m.profileId)),
      (m) => db().update(modelProfiles).set({ status: 'active' }).where(eq(modelProfiles.id, m.profileId)),
    ],
    [
      'profile back to pending review',
      (m) => db().update(modelProfiles).set({ status: 'pending' }).where(eq(modelProfiles.id, m.profileId)),
      (m) => db().update(modelProfiles).set({ status: 'active' }).where(eq(modelProfiles.id, m.profileId)),
    ],
    [
      "the model's own account suspended",
      (m) => db().update(users).set({ status: 'suspended' }).where(eq(users.id, m.userId)),
      (m) => db().update(users).set({ status: 'active' }).where(eq(users.id, m.userId)),
    ],
    [
      'her agency (publicist) suspended',
      (m) => db().update(publicistProfiles).set({ status: 'suspended' }).where(eq(publicistProfiles.id, m.publicistId!)),
      (m) => db().update(publicistProfiles).set({ status: 'active' }).where(eq(publicistProfiles.id, m.publicistId!)),
      { publicist: true },
    ],
    [
      "her agency owner's account suspended",
      (m) => db().update(users).set({ status: 'suspended' }).where(eq(users.id, m.publicistUserId!)),
      (m) => db().update(users).set({ status: 'active' }).where(eq(users.id, m.publicistUserId!)),
      { publicist: true },
    ],
    [
      'consent withdrawn (a model listed by an agency)',
      (m) => db().update(modelProfiles).set({ consentStatus: 'withdrawn' }).where(eq(modelProfiles.id, m.profileId)),
      (m) => db().update(modelProfiles).set({ consentStatus: 'given' }).where(eq(modelProfiles.id, m.profileId)),
      { publicist: true },
    ],
  ];

  it.each(cases)('%s', async (_name, hide, restore, extra) => {
    const m = await model(extra);
    expect(await seen(m)).toEqual(SHOWN);
    await hide(m);
    expect(await seen(m)).toEqual(HIDDEN);
    await restore(m);
    expect(await seen(m)).toEqual(SHOWN);
  });

  it('an erased account takes its ads with it (listing, count, search, model page, vocabulary)', async () => {
    const m = await model();
    expect(await seen(m)).toEqual(SHOWN);
    await db().transaction((tx) => eraseAccount(tx as unknown as Db, m.userId));
    expect(
      await db()
        .select({ id: ads.id })
        .from(ads)
        .where(and(eq(ads.id, m.adId))),
    ).toEqual([]);
    expect(await seen(m)).toEqual(HIDDEN);
  });

  it('an ad moved to another city and section is counted there and no longer where it was', async () => {
    const m = await model();
    const one = async <T>(q: ReturnType<typeof sql>) => ((await db().execute(q)) as { rows: T[] }).rows[0]!;
    const gijon = await one<{ id: number }>(sql`select id from cities where code = ${CITY.gijon}`);
    const women = await one<{ id: number }>(sql`select id from sections where slug = 'women'`);
    const total = async (city: number, section: string) =>
      (await get<ModelList>(`/api/models?city=${city}&section=${section}`)).body.meta.total;
    const [here, there] = [await total(m.cityId, 'trans'), await total(gijon.id, 'women')];
    await db().update(ads).set({ cityId: gijon.id, sectionId: women.id }).where(eq(ads.id, m.adId));
    expect([await total(m.cityId, 'trans'), await total(gijon.id, 'women')]).toEqual([here - 1, there + 1]);
    await expectCountsExact();
    await db().update(ads).set({ cityId: m.cityId, sectionId: m.sectionId }).where(eq(ads.id, m.adId));
    expect([await total(m.cityId, 'trans'), await total(gijon.id, 'women')]).toEqual([here, there]);
    await expectCountsExact();
  });

  it('a suspended account stays hidden while its ad is edited (the flag is derived again on every write)', async () => {
    const m = await model();
    await db().update(users).set({ status: 'suspended' }).where(eq(users.id, m.userId));
    await db().update(ads).set({ title: 'Leocadia, nuevas fotos', status: 'active', isActive: true }).where(eq(ads.id, m.adId));
    expect(await seen(m)).toEqual(HIDDEN);
  });
});
