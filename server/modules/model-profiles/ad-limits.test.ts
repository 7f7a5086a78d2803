/**
 * Resource limits per account (issue 12 point 4): ads per model (MAX_ADS_PER_MODEL) and models per publicist
 * (MAX_MODELS_PER_PUBLICIST). Past the cap the answer is 409 with a translated message and nothing is created, also
 * when several requests race for the last place.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicistModelInput } from '#contract/publicists.ts';
import { ads, cities, countries, modelProfiles } from '#server/db/schema.ts';
import { loginAs } from '#server/modules/media/test-helpers.ts';
import { signedIn } from '#tests/agent.ts';
import { buildModel, buildPublicist, CITY, findCity } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

const MAX_ADS = 3;
const MAX_MODELS = 4;

let t: TestApp;
let place: { country_id: number; state_id: number; city_id: number };

beforeAll(async () => {
  t = await createTestApp({ maxAdsPerModel: MAX_ADS, maxModelsPerPublicist: MAX_MODELS });
  const db = t.database.db;
  const [spain] = await db.select().from(countries).where(eq(countries.iso2, 'ES'));
  const oviedo = await findCity(db, CITY.oviedo);
  const [city] = await db.select().from(cities).where(eq(cities.id, oviedo.id));
  place = { country_id: spain!.id, state_id: city!.stateId, city_id: oviedo.id };
});
afterAll(async () => {
  await t.close();
});

const adBody = (i: number) => ({
  ...place,
  section: 'women' as const,
  title: `Otro anuncio ${i}`,
  description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
});

let n = 0;
const modelBody = (): PublicistModelInput => ({
  display_name: `Modelo ${++n}`,
  birth_date: `${new Date().getUTCFullYear() - 25}-03-14`,
  contact_email: `limite-${n}-${Date.now()}@example.test`,
  whatsapp: false,
  ...place,
  section: 'women',
  title: 'Modelo de pasarela en Oviedo',
  description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
});

async function adsOf(profileId: number): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(ads).where(eq(ads.modelProfileId, profileId));
  return Number(row!.n);
}

describe('POST /api/ad/create', () => {
  it(`adds ads up to ${MAX_ADS} per model, then answers 409 in the request language and creates nothing`, async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const { profileId } = await buildModel(t.database.db, { name: 'Carmela', userId: user.id });
    for (let i = 1; i < MAX_ADS; i++) {
      const res = await agent.post('/api/ad/create', adBody(i));
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await adsOf(profileId)).toBe(MAX_ADS);

    const over = await agent.post('/api/ad/create', adBody(99));
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      type: 'error',
      error: 'conflict',
      message: 'Tu perfil ya tiene el número máximo de anuncios. Borra uno para crear otro.',
      data: { max: MAX_ADS },
    });
    const en = await agent.request({ method: 'POST', url: '/api/ad/create', payload: adBody(100), headers: { 'x-locale': 'en' } });
    expect(en.statusCode).toBe(409);
    expect(en.json<{ message: string }>().message).toBe(
      'Your profile already has the maximum number of ads. Delete one to create another.',
    );
    expect(await adsOf(profileId)).toBe(MAX_ADS);

    // Deleting one makes room for one.
    const [last] = await t.database.db.select({ id: ads.id }).from(ads).where(eq(ads.modelProfileId, profileId)).limit(1);
    expect((await agent.delete(`/api/ad/${last!.id}`)).statusCode).toBe(200);
    expect((await agent.post('/api/ad/create', adBody(101))).statusCode).toBe(201);
    expect((await agent.post('/api/ad/create', adBody(102))).statusCode).toBe(409);
  });

  it('lets only as many racing requests through as there is room for', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const { profileId } = await buildModel(t.database.db, { name: 'Rocío', userId: user.id });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => agent.post('/api/ad/create', adBody(i))));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 409, 409, 409, 409]);
    expect(await adsOf(profileId)).toBe(MAX_ADS);
  });

  it('keeps a rename bounded: it re-derives at most the capped number of ads', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const { profileId } = await buildModel(t.database.db, { name: 'Aitana', userId: user.id });
    for (let i = 0; i < MAX_ADS + 3; i++) await agent.post('/api/ad/create', adBody(i));
    await t.database.db.update(modelProfiles).set({ displayName: 'Aitana Sol' }).where(eq(modelProfiles.id, profileId));
    const rows = await t.database.db.select({ name: ads.modelName }).from(ads).where(eq(ads.modelProfileId, profileId));
    // The trigger touched every ad of the profile, and there are no more than the cap of them.
    expect(rows).toHaveLength(MAX_ADS);
    expect(rows.every((r) => r.name === 'Aitana Sol')).toBe(true);
  });
});

describe('models per publicist', () => {
  it(`an approved agency may manage at most ${MAX_MODELS} models; nothing is created or mailed past it`, async () => {
    const db = t.database.db;
    const built = await buildPublicist(db, { status: 'active' });
    const agent = await loginAs(t.app, db, built.userId);
    const mine = async () =>
      Number((await db.select({ n: count() }).from(modelProfiles).where(eq(modelProfiles.publicistId, built.publicistId)))[0]!.n);

    const first = await agent.post('/api/publicist/models-under-responsibility/create', {
      models: [modelBody(), modelBody(), modelBody()],
    });
    expect(first.statusCode, first.body).toBe(201);
    const mails = t.app.mailer.outbox.length;

    // A batch that does not fit is refused whole.
    const over = await agent.post('/api/publicist/models-under-responsibility/create', { models: [modelBody(), modelBody()] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      error: 'conflict',
      message: 'Has llegado al número máximo de modelos que puede gestionar una agencia. Borra alguno o escríbenos para ampliarlo.',
      data: { max: MAX_MODELS },
    });
    expect(await mine()).toBe(3);
    expect(t.app.mailer.outbox.length).toBe(mails);

    // Two single creates racing for the last place: one wins.
    const racing = await Promise.all([
      agent.post('/api/publicist/model/create', modelBody()),
      agent.post('/api/publicist/model/create', modelBody()),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await mine()).toBe(MAX_MODELS);
  });
});
