import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdStats } from '#contract/ad-stats.ts';
import { API } from '#contract/routes.ts';
import { loadConfig, TEST_APP_KEY } from '#server/config.ts';
import { ads, adStatsWeekly, favourites, modelProfiles } from '#server/db/schema.ts';
import { ROOT_ELEMENT } from '#server/plugins/first-screen.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser, CITY, type BuiltModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';
import { adStatsCounter, weekOf } from './ad-counter.ts';
import { weeksBack } from './ad-stats.service.ts';

const SHELL = `<!doctype html><html><head><title>Vitrina</title></head><body>${ROOT_ELEMENT}</body></html>`;

let t: TestApp;
let distDir: string;
/** Her own account's ad (Gijón, so a listing by city holds only this file's ads). */
let ana: BuiltModel;
let anaAgent: Agent;
/** A second ad of another model, same city. */
let bea: BuiltModel;
/** An agency's model (no account of its own) and the agency. */
let carla: BuiltModel;
let agency: { userId: number; publicistId: number; agent: Agent };
let visitor: Agent;

const thisWeek = () => weekOf(new Date());

async function numbers(adId: number) {
  await adStatsCounter(t.app).flush();
  const [row] = await t.database.db
    .select()
    .from(adStatsWeekly)
    .where(and(eq(adStatsWeekly.adId, adId), eq(adStatsWeekly.week, thisWeek())));
  return { impressions: row?.impressions ?? 0, opens: row?.opens ?? 0, calls: row?.calls ?? 0, messages: row?.messages ?? 0 };
}

const gijonListing = () => `${API.models}?city=${ana.cityId}`;
/** What the app's own screens send (src/lib/api-client.ts): only those are views. */
const APP = { 'x-locale': 'es' };

beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-ad-stats-test-'));
  fs.writeFileSync(path.join(distDir, 'index.html'), SHELL);
  t = await createTestApp({ distDir });
  const db = t.database.db;
  ana = await buildModel(db, { name: 'Ana Estadística', city: CITY.gijon });
  anaAgent = await loginAs(t.app, db, ana.userId);
  bea = await buildModel(db, { name: 'Bea Estadística', city: CITY.gijon });
  const a = await buildPublicist(db);
  agency = { ...a, agent: await loginAs(t.app, db, a.userId) };
  carla = await buildModel(db, { name: 'Carla de Agencia', city: CITY.aviles });
  await db
    .update(modelProfiles)
    .set({ publicistId: a.publicistId, userId: null, contactEmail: 'carla@example.test', consentStatus: 'given' })
    .where(eq(modelProfiles.id, carla.profileId));
  visitor = await newAgent(t.app);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

describe('counting', () => {
  it('a listing page served counts an impression for each of its ads, once per serving (micro-cached or not)', async () => {
    const before = [await numbers(ana.adId), await numbers(bea.adId), await numbers(carla.adId)];
    const res = await visitor.get(gijonListing(), APP);
    expect(res.statusCode).toBe(200);
    const ids = res.json<{ data: { id: number }[] }>().data.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([ana.adId, bea.adId]));
    expect((await numbers(ana.adId)).impressions).toBe(before[0]!.impressions + 1);
    expect((await numbers(bea.adId)).impressions).toBe(before[1]!.impressions + 1);
    // Served again from the listing's few-second cache: still a page a visitor was shown.
    await visitor.get(gijonListing(), APP);
    expect((await numbers(ana.adId)).impressions).toBe(before[0]!.impressions + 2);
    // Not on that page, not counted.
    expect((await numbers(carla.adId)).impressions).toBe(before[2]!.impressions);
  });

  it('the server-rendered home counts its listing once (the browser takes that answer from the page, no second fetch)', async () => {
    const before = await numbers(ana.adId);
    const page = await t.app.inject({ method: 'GET', url: '/es' });
    expect(page.statusCode).toBe(200);
    const block = page.body.match(/<script type="application\/json" id="first-screen">([^<]*)<\/script>/);
    const answers = JSON.parse(block![1]!) as { answers: Record<string, { data: { id: number }[] }> };
    expect(answers.answers[`${API.models}?`]!.data.map((c) => c.id)).toContain(ana.adId);
    expect((await numbers(ana.adId)).impressions).toBe(before.impressions + 1);
  });

  it('a model page served (API or first screen) counts an open; the gallery does not', async () => {
    const before = await numbers(bea.adId);
    expect((await visitor.get(API.model(bea.adId), APP)).statusCode).toBe(200);
    expect((await visitor.get(API.imagesByAd(bea.adId), APP)).statusCode).toBe(200);
    expect((await numbers(bea.adId)).opens).toBe(before.opens + 1);
    expect((await t.app.inject({ method: 'GET', url: `/es/models/${bea.adId}` })).statusCode).toBe(200);
    expect((await numbers(bea.adId)).opens).toBe(before.opens + 2);
  });

  it("an owner's own views are not counted: the model's on her ad, the agency's on its model's ad", async () => {
    const anaBefore = await numbers(ana.adId);
    const beaBefore = await numbers(bea.adId);
    const carlaBefore = await numbers(carla.adId);
    expect((await anaAgent.get(API.model(ana.adId), APP)).statusCode).toBe(200);
    expect((await anaAgent.get(gijonListing(), APP)).statusCode).toBe(200);
    expect((await agency.agent.get(API.model(carla.adId), APP)).statusCode).toBe(200);
    expect((await agency.agent.get(`${API.models}?city=${carla.cityId}`, APP)).statusCode).toBe(200);
    expect(await numbers(ana.adId)).toEqual(anaBefore);
    expect(await numbers(carla.adId)).toEqual(carlaBefore);
    // Another model's ad on the same page is counted for her.
    expect((await numbers(bea.adId)).impressions).toBe(beaBefore.impressions + 1);
  });

  it("an owner's own full page load (server-rendered first screen) is not an open; a visitor's is", async () => {
    const before = await numbers(ana.adId);
    const page = (agent: Agent) =>
      t.app.inject({ method: 'GET', url: `/es/models/${ana.adId}`, cookies: Object.fromEntries(agent.cookies) });
    const own = await page(anaAgent);
    expect(own.statusCode).toBe(200);
    // The page still carries the anonymous answer (the same for everyone).
    expect(own.body).toContain('id="first-screen"');
    expect(await numbers(ana.adId)).toEqual(before);
    // Nor the home's impressions of her own ad, loaded by her.
    expect((await page(anaAgent)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/es', cookies: Object.fromEntries(anaAgent.cookies) })).statusCode).toBe(200);
    expect(await numbers(ana.adId)).toEqual(before);
    // The agency's load of its model's page neither.
    const carlaBefore = await numbers(carla.adId);
    expect(
      (await t.app.inject({ method: 'GET', url: `/es/models/${carla.adId}`, cookies: Object.fromEntries(agency.agent.cookies) }))
        .statusCode,
    ).toBe(200);
    expect(await numbers(carla.adId)).toEqual(carlaBefore);
    // A visitor's load (signed in or not) counts once.
    expect((await page(visitor)).statusCode).toBe(200);
    expect((await numbers(ana.adId)).opens).toBe(before.opens + 1);
  });

  it("a prefetch, the service worker's own fetches and other API clients are not views", async () => {
    const before = await numbers(bea.adId);
    for (const headers of [{ purpose: 'prefetch' }, { 'sec-purpose': 'prefetch;prerender' }] as Record<string, string>[]) {
      expect((await visitor.get(gijonListing(), { ...APP, ...headers })).statusCode).toBe(200);
      expect((await visitor.get(API.model(bea.adId), { ...APP, ...headers })).statusCode).toBe(200);
    }
    // Without the app's language header: the service worker's own fetches (sw/sw.ts, sw/push.ts), other API clients.
    expect((await visitor.get(gijonListing())).statusCode).toBe(200);
    expect((await visitor.get(API.model(bea.adId), { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' })).statusCode).toBe(
      200,
    );
    expect(await numbers(bea.adId)).toEqual(before);
    // The same requests from the app count.
    expect((await visitor.get(API.model(bea.adId), APP)).statusCode).toBe(200);
    expect((await numbers(bea.adId)).opens).toBe(before.opens + 1);
  });

  it('a hidden ad is a 404 and counts nothing', async () => {
    const hidden = await buildModel(t.database.db, { name: 'Oculta', adStatus: 'paused', city: CITY.gijon });
    expect((await visitor.get(API.model(hidden.adId), APP)).statusCode).toBe(404);
    expect(await numbers(hidden.adId)).toEqual({ impressions: 0, opens: 0, calls: 0, messages: 0 });
  });
});

describe('contact taps (POST /api/analytics/contact-tap)', () => {
  it('a tap without the consent is refused with 422 and not counted', async () => {
    const before = await numbers(bea.adId);
    for (const payload of [
      { ad_id: bea.adId, kind: 'call' },
      { ad_id: bea.adId, kind: 'call', consent: 'rejected' },
    ]) {
      const res = await visitor.post(API.adContactTap, payload, { 'x-locale': 'en' });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.consent?.length).toBeGreaterThan(0);
    }
    expect(await numbers(bea.adId)).toEqual(before);
  });

  it('a consented call and a WhatsApp tap count once each; tapping again within the hour adds nothing', async () => {
    const before = await numbers(bea.adId);
    for (let i = 0; i < 3; i++) {
      expect((await visitor.post(API.adContactTap, { ad_id: bea.adId, kind: 'call', consent: 'accepted' })).statusCode).toBe(204);
    }
    expect((await visitor.post(API.adContactTap, { ad_id: bea.adId, kind: 'message', consent: 'accepted' })).statusCode).toBe(204);
    expect(await numbers(bea.adId)).toEqual({ ...before, calls: before.calls + 1, messages: before.messages + 1 });
    // The same visitor (IP) on another ad is another count.
    const anaBefore = await numbers(ana.adId);
    expect((await visitor.post(API.adContactTap, { ad_id: ana.adId, kind: 'call', consent: 'accepted' })).statusCode).toBe(204);
    expect((await numbers(ana.adId)).calls).toBe(anaBefore.calls + 1);
  });

  it("the owner's own tap is not counted; an unknown or hidden ad is a 404; CSRF is required", async () => {
    const before = await numbers(carla.adId);
    expect((await agency.agent.post(API.adContactTap, { ad_id: carla.adId, kind: 'message', consent: 'accepted' })).statusCode).toBe(204);
    expect(await numbers(carla.adId)).toEqual(before);
    const hidden = await buildModel(t.database.db, { name: 'Pausada', adStatus: 'paused' });
    for (const adId of [hidden.adId, 2_000_000_000]) {
      const res = await visitor.post(API.adContactTap, { ad_id: adId, kind: 'call', consent: 'accepted' });
      expect(res.statusCode).toBe(404);
    }
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: API.adContactTap,
      payload: { ad_id: carla.adId, kind: 'call', consent: 'accepted' },
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(noCsrf.statusCode).toBe(419);
    expect(await numbers(carla.adId)).toEqual(before);
  });
});

describe('the flush', () => {
  it('adds to the stored counts, and skips an ad deleted since it was counted without losing the others', async () => {
    const gone = await buildModel(t.database.db, { name: 'Borrada', city: CITY.gijon });
    const before = await numbers(bea.adId);
    const counter = adStatsCounter(t.app);
    counter.count('impressions', [gone.adId, bea.adId]);
    counter.count('opens', [bea.adId]);
    await t.database.db.delete(ads).where(eq(ads.id, gone.adId));
    expect(await numbers(bea.adId)).toEqual({ ...before, impressions: before.impressions + 1, opens: before.opens + 1 });
    expect(await numbers(gone.adId)).toEqual({ impressions: 0, opens: 0, calls: 0, messages: 0 });
  });
});

describe('GET /api/ad-stats', () => {
  it('is for models and publicists: 401 signed out, 403 for a client', async () => {
    const anonymous = await newAgent(t.app);
    expect((await anonymous.get(API.adStats)).statusCode).toBe(401);
    const client = (await signedIn(t.app, t.database.db, { role: 'client' })).agent;
    expect((await client.get(API.adStats)).statusCode).toBe(403);
  });

  it("the model gets her ad only, every week of the range newest first with zeros, and this week's numbers", async () => {
    const res = await anaAgent.get(`${API.adStats}?weeks=3`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = res.json<{ data: AdStats[] }>().data;
    expect(list.map((a) => a.ad_id)).toEqual([ana.adId]);
    const [mine] = list;
    expect(mine!.weeks.map((w) => w.week)).toEqual(weeksBack(3));
    expect(mine!.weeks[0]!.week).toBe(thisWeek());
    const stored = await numbers(ana.adId);
    expect(mine!.weeks[0]).toMatchObject({ impressions: stored.impressions, opens: stored.opens, calls: 1, messages: 0 });
    expect(stored.impressions).toBeGreaterThan(0);
    expect(mine!.weeks.slice(1)).toEqual(
      weeksBack(3)
        .slice(1)
        .map((week) => ({ week, impressions: 0, opens: 0, favourites: 0, calls: 0, messages: 0 })),
    );
    // Eight weeks unless told.
    expect((await anaAgent.get(API.adStats)).json<{ data: AdStats[] }>().data[0]!.weeks).toHaveLength(8);
  });

  it('favourites per week by when they were added, and the standing total, without saying who', async () => {
    const db = t.database.db;
    const [u1, u2, u3] = [await buildUser(db), await buildUser(db), await buildUser(db)];
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    await db.insert(favourites).values([
      { userId: u1.id, adId: ana.adId },
      { userId: u2.id, adId: ana.adId },
      { userId: u3.id, adId: ana.adId, createdAt: lastWeek },
      { userId: u1.id, adId: bea.adId },
    ]);
    const res = await anaAgent.get(`${API.adStats}?weeks=2`);
    const [mine] = res.json<{ data: AdStats[] }>().data;
    expect(mine!.favourites_total).toBe(3);
    expect(mine!.weeks.map((w) => w.favourites)).toEqual([2, 1]);
    expect(mine!.totals).toEqual({
      impressions: mine!.weeks[0]!.impressions,
      opens: mine!.weeks[0]!.opens,
      favourites: 3,
      calls: 1,
      messages: 0,
    });
    expect(res.body).not.toContain(u1.email);
    expect(JSON.stringify(Object.keys(mine!))).not.toMatch(/user/);
  });

  it("the publicist gets her agency's models' ads and nobody else's; another publicist gets none of them", async () => {
    const res = await agency.agent.get(API.adStats);
    expect(res.statusCode).toBe(200);
    const list = res.json<{ data: AdStats[] }>().data;
    expect(list.map((a) => a.ad_id)).toEqual([carla.adId]);
    expect(list[0]).toMatchObject({ title: 'Carla de Agencia en Avilés', model_name: 'Carla de Agencia' });
    const other = await buildPublicist(t.database.db);
    const otherAgent = await loginAs(t.app, t.database.db, other.userId);
    expect((await otherAgent.get(API.adStats)).json<{ data: AdStats[] }>().data).toEqual([]);
  });

  it('refuses a range outside 1–26 weeks with 422 and a field message', async () => {
    for (const weeks of ['0', '27', 'x', '-1', '3.5']) {
      const res = await anaAgent.get(`${API.adStats}?weeks=${weeks}`, { 'x-locale': 'es' });
      expect(res.statusCode, weeks).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.weeks?.length).toBeGreaterThan(0);
    }
    expect((await anaAgent.get(`${API.adStats}?other=1`)).statusCode).toBe(422);
  });
});

describe('AD_STATS_FLUSH_MS (server/config.ts)', () => {
  it('defaults to a minute, is read as a number of ms, and a bad value stops the start naming it', () => {
    const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: ':memory:', APP_KEY: TEST_APP_KEY, ...env });
    expect(load({}).adStatsFlushMs).toBe(60_000);
    expect(load({ AD_STATS_FLUSH_MS: '500' }).adStatsFlushMs).toBe(500);
    expect(load({ AD_STATS_FLUSH_MS: '0' }).adStatsFlushMs).toBe(0);
    expect(() => load({ AD_STATS_FLUSH_MS: 'soon' })).toThrow(/AD_STATS_FLUSH_MS/);
    expect(() => load({ AD_STATS_FLUSH_MS: '-1' })).toThrow(/AD_STATS_FLUSH_MS/);
    // The server tests' app writes nothing behind a test's back.
    expect(t.app.config.adStatsFlushMs).toBe(0);
  });
});

describe('weeks', () => {
  it('weekOf is the Monday of the ISO week (UTC), weeksBack the Mondays newest first', () => {
    expect(weekOf(new Date('2026-11-29T23:59:00Z'))).toBe('2026-11-23'); // a Sunday
    expect(weekOf(new Date('2026-11-30T00:00:00Z'))).toBe('2026-11-30'); // a Monday
    expect(weekOf(new Date('2027-01-01T12:00:00Z'))).toBe('2026-12-28');
    expect(weeksBack(3, new Date('2026-11-25T10:00:00Z'))).toEqual(['2026-11-23', '2026-11-16', '2026-11-09']);
  });
});
