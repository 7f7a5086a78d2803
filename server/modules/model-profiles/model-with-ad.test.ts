/**
 * The shared model-with-ad service called directly, without HTTP (the routes' answers are in
 * model-profiles.routes.test.ts and publicists.routes.test.ts): the review rule and the version check.
 */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProfile } from '#contract/profiles.ts';
import { ads, auditLog, cities, countries, modelProfiles, users } from '#server/db/schema.ts';
import { AppError } from '#server/errors.ts';
import { buildModel, buildUser, CITY } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { modelFormValues } from './model-profiles.ts';
import { toModelProfile, type AdRow } from './model-profiles.repository.ts';
import { adChange, updateModelWithAd, type ModelWithAdValues } from './model-with-ad.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** What a service needs of a request: the app, a translator, the language and an IP for the audit log. */
const request = () => ({ server: t.app, t: t.app.tFor('es'), lang: 'es', ip: '127.0.0.1' }) as unknown as FastifyRequest;

async function userRow(id: number) {
  return (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
}

/** A model with an approved ad, and the form as it would be sent unchanged. */
async function approvedModel() {
  const db = t.database.db;
  const m = await buildModel(db, { name: 'Inés', city: CITY.oviedo, adStatus: 'active' });
  const [profile] = await db.select().from(modelProfiles).where(eq(modelProfiles.id, m.profileId));
  const [city] = await db.select().from(cities).where(eq(cities.id, m.cityId));
  const [spain] = await db.select().from(countries).where(eq(countries.iso2, 'ES'));
  const [ad] = await db.select().from(ads).where(eq(ads.id, m.adId));
  const form: ModelWithAdValues & { version: number } = {
    display_name: profile!.displayName,
    birth_date: `${new Date().getUTCFullYear() - 30}-05-01`,
    phone_country: 'ES',
    phone: '+34600000000',
    whatsapp: true,
    country_id: spain!.id,
    state_id: city!.stateId,
    city_id: m.cityId,
    section: 'women',
    title: ad!.title,
    description: ad!.description,
    version: profile!.version,
  };
  return { m, profile: profile!, form, owner: await userRow(m.userId) };
}

const edit = (user: Awaited<ReturnType<typeof userRow>>, profile: Awaited<ReturnType<typeof approvedModel>>['profile']) => ({
  user,
  profile,
  view: (db: typeof t.database.db, p: typeof profile) => toModelProfile(db, p, 'es'),
  formValues: modelFormValues,
});

async function adOf(adId: number): Promise<AdRow> {
  return (await t.database.db.select().from(ads).where(eq(ads.id, adId)))[0]!;
}

describe('the review rule', () => {
  it('adChange: changed text, section or city goes back to pending unless staff edit it; unchanged text is no change', () => {
    const ad = { title: 'Modelo en Oviedo', description: 'd'.repeat(40), sectionId: 1, cityId: 7, status: 'active', version: 3 } as AdRow;
    const same = { country_id: 1, state_id: 2, city_id: 7, section: 'women' as const, title: ad.title, description: ad.description };
    expect(adChange(ad, same, 1, { role: 'model' })).toBeNull();
    expect(adChange(ad, { ...same, title: 'Otro título' }, 1, { role: 'model' })).toMatchObject({ status: 'pending', version: 4 });
    expect(adChange(ad, { ...same, city_id: 8 }, 1, { role: 'publicist' })).toMatchObject({ status: 'pending', cityId: 8 });
    expect(adChange(ad, same, 2, { role: 'model' })).toMatchObject({ status: 'pending', sectionId: 2 });
    expect(adChange(ad, { ...same, title: 'Otro título' }, 1, { role: 'admin' })).toMatchObject({ status: 'active', version: 4 });
  });

  it("the owner's edited title sends the approved ad back to review; saving it unchanged does not", async () => {
    const { m, profile, form, owner } = await approvedModel();
    await updateModelWithAd(request(), edit(owner, profile), form);
    expect(await adOf(m.adId)).toMatchObject({ status: 'active' });
    const [saved] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, profile.id));
    await updateModelWithAd(request(), edit(owner, saved!), { ...form, title: 'Modelo de pasarela en Oviedo', version: saved!.version });
    expect(await adOf(m.adId)).toMatchObject({ status: 'pending', title: 'Modelo de pasarela en Oviedo' });
  });

  it("staff editing someone else's ad keep its status, and the change is audited field by field", async () => {
    const { m, profile, form } = await approvedModel();
    const staff = await userRow((await buildUser(t.database.db, { role: 'admin' })).id);
    await updateModelWithAd(request(), edit(staff, profile), { ...form, title: 'Título corregido por el equipo' });
    expect(await adOf(m.adId)).toMatchObject({ status: 'active', title: 'Título corregido por el equipo' });
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.subjectId, profile.id));
    const entry = entries.find((e) => e.action === 'model_profile.update' && e.actorId === staff.id);
    expect(entry?.after).toMatchObject({ title: 'Título corregido por el equipo' });
    expect(Object.keys(entry!.after!)).not.toContain('display_name');
  });
});

describe('the version check', () => {
  it('a stale version is a 409 with the current record and its form values, and nothing is written', async () => {
    const { m, profile, form, owner } = await approvedModel();
    await updateModelWithAd(request(), edit(owner, profile), { ...form, display_name: 'Inés M.' });
    // The row as it now is, and a form based on the old version, as a second tab would still send it.
    const [fresh] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, profile.id));
    const stale = await updateModelWithAd(request(), edit(owner, fresh!), {
      ...form,
      display_name: 'Inés Martín',
      title: 'Otro título',
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(stale).toBeInstanceOf(AppError);
    expect(stale).toMatchObject({ status: 409, code: 'conflict' });
    const data = (stale as AppError).data as { current: ModelProfile; values: Record<string, unknown> };
    expect(data.current).toMatchObject({ display_name: 'Inés M.', version: profile.version + 1 });
    expect(data.values).toMatchObject({ display_name: 'Inés M.', title: form.title });
    const [row] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, profile.id));
    expect(row).toMatchObject({ displayName: 'Inés M.', version: profile.version + 1 });
    expect(await adOf(m.adId)).toMatchObject({ title: form.title, status: 'active' });
  });

  it('the version sent with a fresh row that changed meanwhile still loses (the check is in the UPDATE)', async () => {
    const { profile, form, owner } = await approvedModel();
    // The row as read says version N, but the database moved on before the write.
    await t.database.db
      .update(modelProfiles)
      .set({ version: profile.version + 1 })
      .where(eq(modelProfiles.id, profile.id));
    await expect(updateModelWithAd(request(), edit(owner, profile), { ...form, display_name: 'Inés R.' })).rejects.toMatchObject({
      status: 409,
    });
    const [row] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, profile.id));
    expect(row!.displayName).toBe('Inés');
  });
});
