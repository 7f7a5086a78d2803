import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProfile, ModelWithAdInput } from '#contract/profiles.ts';
import { ads, cities, countries, modelProfiles } from '#server/db/schema.ts';
import { seedDemoModelAd } from '#server/db/seed/demo-model.ts';
import { newAgent, signedIn } from '#tests/agent.ts';
import { buildModel, CITY, findCity } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

type Errors = { errors: Record<string, string[]> };

let t: TestApp;
let place: { country_id: number; state_id: number; city_id: number };
let otherState: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [spain] = await db.select().from(countries).where(eq(countries.iso2, 'ES'));
  const oviedo = await findCity(db, CITY.oviedo);
  const madrid = await findCity(db, CITY.madrid);
  const stateOf = async (cityId: number) => (await db.select().from(cities).where(eq(cities.id, cityId)))[0]!.stateId;
  place = { country_id: spain!.id, state_id: await stateOf(oviedo.id), city_id: oviedo.id };
  otherState = await stateOf(madrid.id);
});
afterAll(async () => {
  await t.close();
});

const adult = () => `${new Date().getUTCFullYear() - 25}-03-14`;

function body(extra: Partial<ModelWithAdInput> = {}): ModelWithAdInput {
  return {
    display_name: 'Carlota',
    birth_date: adult(),
    phone_country: 'ES',
    phone: '612 34 56 78',
    whatsapp: true,
    ...place,
    section: 'women',
    title: 'Modelo de moda en Oviedo',
    description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
    ...extra,
  };
}

async function model() {
  return signedIn(t.app, t.database.db, { role: 'model' });
}

describe('GET /api/profile/model', () => {
  it('answers a model without a profile yet 200 with data null (a 404 was logged as a console error on every page)', async () => {
    const { agent } = await model();
    const res = await agent.get('/api/profile/model');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null });
  });

  it('is still for models only', async () => {
    const { agent: client } = await signedIn(t.app, t.database.db, { role: 'client' });
    expect((await client.get('/api/profile/model')).statusCode).toBe(403);
  });
});

describe('POST /api/profile/model-with-ad/create', () => {
  it('creates the profile (unverified) with its ad (pending review), phone in E.164', async () => {
    const { agent, user } = await model();
    const res = await agent.post('/api/profile/model-with-ad/create', body());
    expect(res.statusCode).toBe(201);
    const answer = res.json<{ message: string; data: ModelProfile }>();
    expect(answer.message).toBe('El perfil se ha creado con éxito!');
    expect(answer.data).toMatchObject({
      display_name: 'Carlota',
      phone: '+34612345678',
      phone_country: 'ES',
      whatsapp: true,
      status: 'unverified',
      user: { id: user.id },
      ad: { status: 'pending', is_active: true, is_listed: false, section: 'women', city: 'Oviedo', photos: 0 },
    });
    const mine = await agent.get('/api/profile/model');
    expect(mine.json<{ data: ModelProfile }>().data.id).toBe(answer.data.id);
    // Not public until approved.
    const listed = await t.app.inject({ method: 'GET', url: `/api/models/${answer.data.ad!.id}`, headers: XHR });
    expect(listed.statusCode).toBe(404);
  });

  it('answers the same on /api/model/create, and 409 for a second profile', async () => {
    const { agent } = await model();
    expect((await agent.post('/api/model/create', body())).statusCode).toBe(201);
    const again = await agent.post('/api/profile/model-with-ad/create', body());
    expect(again.statusCode).toBe(409);
  });

  it('refuses anyone under 18, to the day', async () => {
    const { agent } = await model();
    const now = new Date();
    const seventeen = new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);
    const res = await agent.post('/api/profile/model-with-ad/create', body({ birth_date: seventeen }));
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors.birth_date).toEqual(['Debes tener al menos 18 años.']);
    const eighteen = new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
    expect((await agent.post('/api/profile/model-with-ad/create', body({ birth_date: eighteen }))).statusCode).toBe(201);
  });

  it('refuses impossible dates and phones that do not fit the country, in the request language', async () => {
    const { agent } = await model();
    const res = await agent.request({
      method: 'POST',
      url: '/api/profile/model-with-ad/create',
      payload: body({ birth_date: '1990-02-30', phone: '12345' }),
      headers: { 'x-locale': 'en' },
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json<Errors>().errors;
    expect(errors.birth_date).toEqual(['Enter a valid date.']);
    expect(errors.phone).toEqual(['Enter a valid phone number for the chosen country.']);
  });

  it('refuses a city outside the chosen province, and changes nothing', async () => {
    const { agent } = await model();
    const res = await agent.post('/api/profile/model-with-ad/create', body({ state_id: otherState }));
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<Errors>().errors)).toEqual(['city_id']);
    expect((await agent.get('/api/profile/model')).json()).toEqual({ data: null });
  });

  it('is for verified models only', async () => {
    const { agent: client } = await signedIn(t.app, t.database.db, { role: 'client' });
    expect((await client.post('/api/profile/model-with-ad/create', body())).statusCode).toBe(403);
    const { agent: unverified } = await signedIn(t.app, t.database.db, { role: 'model', verified: false });
    expect((await unverified.post('/api/profile/model-with-ad/create', body())).json()).toMatchObject({ error: 'email_unverified' });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/profile/model-with-ad/create', headers: XHR, payload: body() });
    expect([401, 419]).toContain(anonymous.statusCode);
  });
});

describe('PUT /api/profile/model-with-ad/update/{id}', () => {
  it('updates with the current version, sends an edited ad back to review, and bumps the version', async () => {
    const { agent } = await model();
    const created = (await agent.post('/api/profile/model-with-ad/create', body())).json<{ data: ModelProfile }>().data;
    // Approve it, as staff would.
    await t.database.db.update(ads).set({ status: 'active' }).where(eq(ads.id, created.ad!.id));
    const res = await agent.put(`/api/profile/model-with-ad/update/${created.id}`, {
      ...body({ title: 'Modelo de pasarela en Oviedo' }),
      version: created.version,
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json<{ message: string; data: ModelProfile }>();
    expect(updated.message).toBe('El perfil se ha actualizado con éxito!');
    expect(updated.data.version).toBe(created.version + 1);
    expect(updated.data.ad).toMatchObject({ title: 'Modelo de pasarela en Oviedo', status: 'pending' });
  });

  it('answers 409 with the current record and the stored form values when the version is stale', async () => {
    const { agent } = await model();
    const created = (await agent.post('/api/profile/model-with-ad/create', body())).json<{ data: ModelProfile }>().data;
    const first = await agent.put(`/api/profile/model-with-ad/update/${created.id}`, {
      ...body({ display_name: 'Carlota M.' }),
      version: created.version,
    });
    expect(first.statusCode).toBe(200);
    const stale = await agent.put(`/api/profile/model-with-ad/update/${created.id}`, {
      ...body({ display_name: 'Carlota Martín' }),
      version: created.version,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      error: 'conflict',
      data: { current: { display_name: 'Carlota M.', version: created.version + 1 }, values: { display_name: 'Carlota M.' } },
    });
    const [row] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, created.id));
    expect(row!.displayName).toBe('Carlota M.');
  });

  it("refuses another model's profile (403) and unknown ids (404)", async () => {
    const { agent: owner } = await model();
    const created = (await owner.post('/api/profile/model-with-ad/create', body())).json<{ data: ModelProfile }>().data;
    const { agent: intruder } = await model();
    const res = await intruder.put(`/api/profile/model-with-ad/update/${created.id}`, { ...body({ display_name: 'Mía' }), version: 1 });
    expect(res.statusCode).toBe(403);
    expect((await intruder.put('/api/profile/model-with-ad/update/999999', { ...body(), version: 1 })).statusCode).toBe(404);
  });

  it('lets staff edit without sending the ad back to review', async () => {
    const { agent: owner } = await model();
    const created = (await owner.post('/api/profile/model-with-ad/create', body())).json<{ data: ModelProfile }>().data;
    await t.database.db.update(ads).set({ status: 'active' }).where(eq(ads.id, created.ad!.id));
    const { agent: admin } = await signedIn(t.app, t.database.db, { role: 'admin' });
    const res = await admin.put(`/api/profile/model-with-ad/update/${created.id}`, {
      ...body({ title: 'Título corregido por el equipo' }),
      version: created.version,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: ModelProfile }>().data.ad).toMatchObject({ title: 'Título corregido por el equipo', status: 'active' });
  });
});

describe('ads: activate, create, delete', () => {
  it('switches a listed ad off and on with the spec message; only the owner may', async () => {
    const m = await buildModel(t.database.db, { name: 'Rocío', city: CITY.gijon, section: 'women' });
    const { agent: intruder } = await model();
    expect((await intruder.put(`/api/profile/model/activate/${m.adId}/0`)).statusCode).toBe(403);
    const { agent: staff } = await signedIn(t.app, t.database.db, { role: 'super_admin' });
    const off = await staff.put(`/api/profile/model/activate/${m.adId}/false`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: 'El estado del anuncio ha cambiado!', data: { is_active: false, is_listed: false } });
    expect((await t.app.inject({ method: 'GET', url: `/api/models/${m.adId}`, headers: XHR })).statusCode).toBe(404);
    const on = await staff.put(`/api/profile/model/activate/${m.adId}/1`);
    expect(on.json()).toMatchObject({ data: { is_active: true, is_listed: true } });
    expect((await staff.put(`/api/profile/model/activate/${m.adId}/maybe`)).statusCode).toBe(404);
  });

  it('creates a further ad (answering its url) and deletes it with its photos', async () => {
    const { agent } = await model();
    expect(
      (await agent.post('/api/ad/create', { ...place, section: 'webcam', title: 'Videollamadas', description: 'x'.repeat(40) })).statusCode,
    ).toBe(409);
    await agent.post('/api/profile/model-with-ad/create', body());
    const res = await agent.post('/api/ad/create', {
      ...place,
      section: 'webcam',
      title: 'Videollamadas por la tarde',
      description: 'Sesiones por videollamada para marcas y fotógrafos, con cita previa.',
    });
    expect(res.statusCode).toBe(201);
    const ad = res.json<{ url: string; data: { id: number; status: string } }>();
    expect(ad.url).toBe(`/es/models/${ad.data.id}`);
    expect(ad.data.status).toBe('pending');
    const { agent: intruder } = await model();
    expect((await intruder.delete(`/api/ad/${ad.data.id}`)).statusCode).toBe(403);
    const del = await agent.delete(`/api/ad/${ad.data.id}`);
    expect(del.json()).toMatchObject({ message: 'Anuncio eliminado!' });
    expect((await agent.delete(`/api/ad/${ad.data.id}`)).statusCode).toBe(404);
  });
});

describe('demo data', () => {
  it('gives the demo model a complete, listed profile with an ad and photos', async () => {
    // Part of the demo catalogue, which server tests leave out (DEMO_ADS=0): seeded here as `npm start` does.
    await seedDemoModelAd(t.database.db, t.app.storage);
    await seedDemoModelAd(t.database.db, t.app.storage); // idempotent
    const agent = await newAgent(t.app);
    const login = await agent.post('/api/login', { email: 'model@vitrina.test', password: t.config.demoPassword });
    expect(login.statusCode).toBe(200);
    const profile = (await agent.get('/api/profile/model')).json<{ data: ModelProfile }>().data;
    expect(profile).toMatchObject({ status: 'active', phone_country: 'ES', whatsapp: true });
    expect(profile.ad).toMatchObject({ is_listed: true, photos: 2, city: 'Oviedo', section: 'women' });
  });
});

describe('forbidden words', () => {
  it('refuses to save flagged text, naming the words per field, and saves nothing', async () => {
    const { agent } = await model();
    const res = await agent.post(
      '/api/profile/model-with-ad/create',
      body({ description: 'Colegiala de 16 años, servicio completo. Sesiones de fotos en estudio y exteriores.' }),
    );
    expect(res.statusCode).toBe(422);
    const errors = res.json<Errors>().errors;
    expect(Object.keys(errors)).toEqual(['description']);
    expect(errors.description![0]).toMatch(/Colegiala/);
    expect((await agent.get('/api/profile/model')).json()).toEqual({ data: null });
  });

  it('checks edits too, and evasions with accents, spacing and digits', async () => {
    const { agent } = await model();
    const created = (await agent.post('/api/profile/model-with-ad/create', body())).json<{ data: ModelProfile }>().data;
    const res = await agent.put(`/api/profile/model-with-ad/update/${created.id}`, {
      ...body({ title: 'Modelo m e n 0 r en Oviedo' }),
      version: created.version,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<Errors>().errors)).toEqual(['title']);
  });
});
