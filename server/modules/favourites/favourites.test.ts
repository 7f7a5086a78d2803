import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAVOURITES, type Favourite, type FavouriteStates } from '#contract/favourites.ts';
import { API } from '#contract/routes.ts';
import { ads, favourites, modelProfiles, users } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
const db = () => t.database.db;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const model = (spec: Partial<Parameters<typeof buildModel>[1]> = {}) => buildModel(db(), { name: `Fav Model ${++n}`, photos: 1, ...spec });
const client = () => signedIn(t.app, db(), { role: 'client' });

async function list(agent: Agent): Promise<Favourite[]> {
  const res = await agent.get(API.favourites);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Favourite[] }>().data;
}

describe('saving and removing', () => {
  it('PUT saves a listed ad once (twice = one row, first date kept) with its card; DELETE is idempotent', async () => {
    const { agent, user } = await client();
    const m = await model();
    const first = await agent.put(API.favourite(m.adId));
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json<{ data: Favourite; message: string }>();
    expect(saved.message).toBe('Guardada en favoritas');
    expect(saved.data).toMatchObject({ ad_id: m.adId, state: 'available', card: { id: m.adId } });
    expect(saved.data.card?.name).toMatch(/^Fav Model/);
    expect(saved.data.card?.cover).not.toBeNull();
    const again = await agent.put(API.favourite(m.adId));
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: Favourite }>().data.saved_at).toBe(saved.data.saved_at);
    const rows = await db().select().from(favourites).where(eq(favourites.userId, user.id));
    expect(rows).toHaveLength(1);

    expect((await agent.delete(API.favourite(m.adId))).statusCode).toBe(200);
    expect((await agent.delete(API.favourite(m.adId))).statusCode).toBe(200);
    expect(await list(agent)).toEqual([]);
  });

  it('the same Idempotency-Key replays the stored answer and changes nothing more', async () => {
    const { agent, user } = await client();
    const m = await model();
    const key = crypto.randomUUID();
    const put = () => agent.request({ method: 'PUT', url: API.favourite(m.adId), headers: { 'idempotency-key': key } });
    const a = await put();
    const b = await put();
    expect(a.statusCode).toBe(200);
    expect(b.body).toBe(a.body);
    const del = await agent.request({ method: 'DELETE', url: API.favourite(m.adId), headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(del.statusCode).toBe(200);
    // The PUT replayed after the DELETE (an outbox retry) answers as it did and does not save it again.
    const replay = await put();
    expect(replay.body).toBe(a.body);
    expect(await db().select().from(favourites).where(eq(favourites.userId, user.id))).toHaveLength(0);
  });

  it('an ad that does not exist or is not listed is 404 (translated) and saves nothing; a malformed id is 404', async () => {
    const { agent, user } = await client();
    const paused = await model({ adActive: false });
    for (const id of [paused.adId, 2_000_000_000]) {
      const res = await agent.put(API.favourite(id));
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toBe('Este anuncio no está disponible: no se puede guardar en favoritas.');
    }
    const en = await agent.request({ method: 'PUT', url: API.favourite(paused.adId), headers: { 'x-locale': 'en' } });
    expect(en.json<{ message: string }>().message).toBe('This ad is not available: it cannot be saved to favourites.');
    expect((await agent.put(API.favourite('abc'))).statusCode).toBe(404);
    expect((await agent.put(API.favourite('0x3'))).statusCode).toBe(404);
    expect(await db().select().from(favourites).where(eq(favourites.userId, user.id))).toHaveLength(0);
  });

  it(`past ${MAX_FAVOURITES} favourites a PUT is 422 and adds nothing`, async () => {
    const { agent, user } = await client();
    await db()
      .insert(favourites)
      .values(Array.from({ length: MAX_FAVOURITES }, (_, i) => ({ userId: user.id, adId: 1_000_000 + i })));
    const m = await model();
    const res = await agent.put(API.favourite(m.adId));
    expect(res.statusCode).toBe(422);
    expect(res.json<{ error: string }>().error).toBe('validation_failed');
    const [row] = await db()
      .select()
      .from(favourites)
      .where(and(eq(favourites.userId, user.id), eq(favourites.adId, m.adId)));
    expect(row).toBeUndefined();
  });

  it('needs a session: a visitor gets 401 on the account routes', async () => {
    const visitor = await newAgent(t.app);
    expect((await visitor.get(API.favourites)).statusCode).toBe(401);
    expect((await visitor.put(API.favourite(1))).statusCode).toBe(401);
    expect((await visitor.post(API.favouritesMerge, { favourites: [] })).statusCode).toBe(401);
  });
});

describe('states', () => {
  it('paused, suspended and removed ads stay in the list, say so, and carry no card (no photo)', async () => {
    const { agent, user } = await client();
    const [off, susp, rejected, gone, accountSuspended, fine] = await Promise.all([model(), model(), model(), model(), model(), model()]);
    for (const m of [off, susp, rejected, gone, accountSuspended, fine])
      expect((await agent.put(API.favourite(m.adId))).statusCode).toBe(200);
    await db().update(ads).set({ isActive: false }).where(eq(ads.id, off.adId));
    await db().update(ads).set({ status: 'suspended' }).where(eq(ads.id, susp.adId));
    await db().update(ads).set({ status: 'rejected' }).where(eq(ads.id, rejected.adId));
    await db().delete(ads).where(eq(ads.id, gone.adId));
    await db().update(users).set({ status: 'suspended' }).where(eq(users.id, accountSuspended.userId));
    const items = new Map((await list(agent)).map((f) => [f.ad_id, f]));
    expect(items.size).toBe(6);
    expect(items.get(off.adId)).toMatchObject({ state: 'paused', card: null });
    expect(items.get(susp.adId)).toMatchObject({ state: 'suspended', card: null });
    expect(items.get(rejected.adId)).toMatchObject({ state: 'removed', card: null });
    expect(items.get(gone.adId)).toMatchObject({ state: 'removed', card: null });
    expect(items.get(accountSuspended.adId)).toMatchObject({ state: 'suspended', card: null });
    expect(items.get(fine.adId)).toMatchObject({ state: 'available', card: { id: fine.adId } });
    // A paused profile pauses the ad.
    await db().update(modelProfiles).set({ status: 'paused' }).where(eq(modelProfiles.id, fine.profileId));
    await db().update(ads).set({ modelProfileId: fine.profileId }).where(eq(ads.id, fine.adId));
    expect((await list(agent)).find((f) => f.ad_id === fine.adId)).toMatchObject({ state: 'paused', card: null });
    expect((await db().select().from(favourites).where(eq(favourites.userId, user.id))).length).toBe(6);
  });

  it("a deleted ad's favourite can still be removed; then its id names nothing (404, like any such path)", async () => {
    const { agent } = await client();
    const gone = await model();
    expect((await agent.put(API.favourite(gone.adId))).statusCode).toBe(200);
    await db().delete(ads).where(eq(ads.id, gone.adId));
    expect((await agent.delete(API.favourite(gone.adId))).statusCode).toBe(200);
    expect((await agent.delete(API.favourite(gone.adId))).statusCode).toBe(404);
    expect((await agent.delete(API.favourite(2_147_483_647))).statusCode).toBe(404);
  });

  it('a publicist model whose consent was withdrawn is removed', async () => {
    const pub = await buildPublicist(db());
    const m = await model();
    await db()
      .update(modelProfiles)
      .set({ userId: null, publicistId: pub.publicistId, consentStatus: 'withdrawn' })
      .where(eq(modelProfiles.id, m.profileId));
    await db().update(ads).set({ modelProfileId: m.profileId }).where(eq(ads.id, m.adId));
    const res = await (await newAgent(t.app)).get(`${API.favouriteStates}?ids=${m.adId}`);
    expect(res.json<FavouriteStates>().data).toEqual([{ ad_id: m.adId, state: 'removed', card: null }]);
  });

  it('GET states is public, cacheable briefly, answers every id asked (unknown ones removed) and refuses bad lists', async () => {
    const visitor = await newAgent(t.app);
    const a = await model();
    const b = await model({ adStatus: 'suspended' });
    const res = await visitor.get(`${API.favouriteStates}?ids=${a.adId},${b.adId},1999999999,${a.adId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    const data = res.json<FavouriteStates>().data;
    expect(data.map((d) => [d.ad_id, d.state])).toEqual([
      [a.adId, 'available'],
      [b.adId, 'suspended'],
      [1999999999, 'removed'],
    ]);
    expect(data[0]!.card?.id).toBe(a.adId);
    for (const bad of ['', 'ids=', 'ids=a', 'ids=1,,2', `ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 'ids=1&x=2']) {
      const r = await visitor.get(`${API.favouriteStates}?${bad}`);
      expect(r.statusCode, bad).toBe(422);
    }
  });
});

describe('merging the device list', () => {
  it('adds the device favourites to an account that has some: no duplicates, nothing lost, earliest date kept', async () => {
    const { agent, user } = await client();
    const [a, b, c] = await Promise.all([model(), model(), model()]);
    await agent.put(API.favourite(a.adId));
    const [before] = await db()
      .select()
      .from(favourites)
      .where(and(eq(favourites.userId, user.id), eq(favourites.adId, a.adId)));
    const early = new Date(Date.now() - 86_400_000).toISOString();
    const res = await agent.post(API.favouritesMerge, {
      favourites: [
        { ad_id: a.adId, saved_at: early },
        { ad_id: b.adId, saved_at: new Date(Date.now() - 3_600_000).toISOString() },
        { ad_id: b.adId },
        { ad_id: c.adId },
        { ad_id: 1_999_999_999 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const merged = res.json<{ data: Favourite[] }>().data;
    expect(merged.map((f) => f.ad_id).sort()).toEqual([a.adId, b.adId, c.adId].sort());
    expect(new Date(merged.find((f) => f.ad_id === a.adId)!.saved_at).getTime()).toBe(new Date(early).getTime());
    expect(before!.createdAt.getTime()).toBeGreaterThan(new Date(early).getTime());
    // Newest first.
    expect(merged[0]!.ad_id).toBe(c.adId);
    // Merging the same list again changes nothing.
    const again = await agent.post(API.favouritesMerge, { favourites: [{ ad_id: a.adId }, { ad_id: c.adId }] });
    expect(again.json<{ data: Favourite[] }>().data).toEqual(merged);
    expect(await db().select().from(favourites).where(eq(favourites.userId, user.id))).toHaveLength(3);
  });

  it('keeps a device favourite whose ad is paused now (it exists) and refuses malformed bodies with 422', async () => {
    const { agent } = await client();
    const paused = await model({ adActive: false });
    const res = await agent.post(API.favouritesMerge, { favourites: [{ ad_id: paused.adId }] });
    expect(res.json<{ data: Favourite[] }>().data).toEqual([expect.objectContaining({ ad_id: paused.adId, state: 'paused', card: null })]);
    for (const body of [
      {},
      { favourites: [{ ad_id: 0 }] },
      { favourites: [{ ad_id: 1, saved_at: 'yesterday' }] },
      { favourites: [{ ad_id: 1, x: 1 }] },
    ]) {
      expect((await agent.post(API.favouritesMerge, body)).statusCode, JSON.stringify(body)).toBe(422);
    }
    const tooMany = { favourites: Array.from({ length: MAX_FAVOURITES + 1 }, (_, i) => ({ ad_id: i + 1 })) };
    expect((await agent.post(API.favouritesMerge, tooMany)).statusCode).toBe(422);
  });

  it('registration keeps the device favourites for the new account (verified on another device, nothing is lost)', async () => {
    const visitor = await newAgent(t.app);
    const [a, b] = await Promise.all([model(), model()]);
    const email = `fav-register-${Date.now()}@example.test`;
    const res = await visitor.post(API.userCreate, {
      name: 'Visitante',
      email,
      password: 'a long enough test secret 42',
      password_confirmation: 'a long enough test secret 42',
      role: 'client',
      favourites: [{ ad_id: a.adId, saved_at: new Date(Date.now() - 60_000).toISOString() }, { ad_id: b.adId }, { ad_id: 1_999_999_998 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [created] = await db().select().from(users).where(eq(users.email, email));
    const rows = await db().select().from(favourites).where(eq(favourites.userId, created!.id));
    expect(rows.map((r) => r.adId).sort()).toEqual([a.adId, b.adId].sort());
  });
});

describe('privacy', () => {
  it("a user's list is theirs alone: another user's GET, PUT and DELETE never touch it", async () => {
    const ana = await client();
    const bea = await client();
    const m = await model();
    await ana.agent.put(API.favourite(m.adId));
    expect(await list(bea.agent)).toEqual([]);
    await bea.agent.delete(API.favourite(m.adId));
    expect((await list(ana.agent)).map((f) => f.ad_id)).toEqual([m.adId]);
    await bea.agent.put(API.favourite(m.adId));
    expect((await list(ana.agent)).map((f) => f.ad_id)).toEqual([m.adId]);
    expect((await list(bea.agent)).map((f) => f.ad_id)).toEqual([m.adId]);
  });

  it('the model whose ad was saved learns nothing of who saved it (no route names the savers)', async () => {
    const m = await model();
    const fan = await client();
    await fan.agent.put(API.favourite(m.adId));
    const owner = await signedIn(t.app, db(), { role: 'model' });
    // Her own list is empty; the public states answer carries no user.
    expect(await list(owner.agent)).toEqual([]);
    const states = await owner.agent.get(`${API.favouriteStates}?ids=${m.adId}`);
    expect(states.body).not.toContain(fan.user.email);
    expect(states.body).not.toContain(`"user_id":${fan.user.id}`);
  });
});
