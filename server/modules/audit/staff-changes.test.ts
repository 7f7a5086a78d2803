/**
 * The audit log holds every change staff make to someone else's data (issue: who, what, when, before/after), and
 * nothing for the owners' own changes. Each case runs the same route twice: staff on another user's data → exactly one
 * entry with the change; the owner (or the responsible publicist) → none.
 */
import { asc, eq, gt, max } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelWithAdInput } from '#contract/profiles.ts';
import { ads, auditLog, cities, countries, media, modelProfiles, users } from '#server/db/schema.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { newAgent, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser, CITY, findCity, type UserSpec } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { uploadBody } from '../media/test-helpers.ts';
import { jpeg } from '../media/test-images.ts';

const PASSWORD = 'a long enough audit test secret 3';

let t: TestApp;
let passwordHash: string;
let place: { country_id: number; state_id: number; city_id: number };
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
  const [spain] = await db().select().from(countries).where(eq(countries.iso2, 'ES'));
  const oviedo = await findCity(db(), CITY.oviedo);
  const [city] = await db().select().from(cities).where(eq(cities.id, oviedo.id));
  place = { country_id: spain!.id, state_id: city!.stateId, city_id: oviedo.id };
});
afterAll(async () => {
  await t.close();
});

/** A real session (and the known password, for routes that ask to confirm it) for an existing account. */
async function signIn(userId: number): Promise<Agent> {
  const [user] = await db().update(users).set({ passwordHash }).where(eq(users.id, userId)).returning({ email: users.email });
  const agent = await newAgent(t.app);
  const res = await agent.post('/api/login', { email: user!.email, password: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return agent;
}

async function account(spec: UserSpec) {
  const user = await buildUser(db(), spec);
  return { ...user, agent: await signIn(user.id) };
}

const admin = () => account({ role: 'admin' });

let n = 0;
async function model(spec: { photos?: number } = {}) {
  const m = await buildModel(db(), { name: `Modelo auditada ${++n}`, ...spec });
  return { ...m, agent: await signIn(m.userId) };
}

/** The request's answer and the audit entries written while it ran (tests in a file run one after another). */
async function audited(request: () => Promise<LightMyRequestResponse>) {
  const [last] = await db()
    .select({ id: max(auditLog.id) })
    .from(auditLog);
  const res = await request();
  const entries = await db()
    .select()
    .from(auditLog)
    .where(gt(auditLog.id, last?.id ?? 0))
    .orderBy(asc(auditLog.id));
  return { res, entries };
}

describe('accounts (auth routes)', () => {
  it('POST /api/admin/create: the new admin is recorded with who created it; a refused attempt records nothing', async () => {
    const boss = await account({ role: 'super_admin' });
    const email = `nuevo-admin-${Date.now()}@vitrina.test`;
    const body = { name: 'Nueva Admin', email, password: PASSWORD, password_confirmation: PASSWORD };
    const { res, entries } = await audited(() => boss.agent.post('/api/admin/create', body));
    expect(res.statusCode, res.body).toBe(201);
    const [created] = await db().select().from(users).where(eq(users.email, email));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: boss.id,
      actorRole: 'super_admin',
      actorEmail: boss.email,
      action: 'user.create_admin',
      subjectType: 'user',
      subjectId: created!.id,
      before: null,
      after: { name: 'Nueva Admin', email, role: 'admin' },
    });
    expect(JSON.stringify(entries[0])).not.toContain(created!.passwordHash);

    const plain = await admin();
    const refused = await audited(() => plain.agent.post('/api/admin/create', { ...body, email: `otro-${email}` }));
    expect(refused.res.statusCode).toBe(403);
    expect(refused.entries).toEqual([]);
  });

  it("DELETE /api/profile/delete/{id}: staff deleting someone's account is recorded; deleting one's own is not", async () => {
    const staff = await admin();
    const victim = await buildUser(db(), { role: 'client', name: 'Cliente Borrada' });
    const { res, entries } = await audited(() => staff.agent.delete(`/api/profile/delete/${victim.id}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      actorRole: 'admin',
      action: 'user.delete',
      subjectType: 'user',
      subjectId: victim.id,
      // Erasure: the entry keeps what the account was, not who the person was.
      before: { role: 'client', status: 'active' },
      after: null,
    });

    const self = await account({ role: 'client' });
    expect((await self.agent.post('/api/user/confirm-password', { password: PASSWORD })).statusCode).toBe(201);
    const own = await audited(() => self.agent.delete(`/api/profile/delete/${self.id}`));
    expect(own.res.statusCode).toBe(200);
    expect(own.entries).toEqual([]);
  });
});

describe('model profiles and ads', () => {
  const form = (extra: Partial<ModelWithAdInput> & { version: number }) => ({
    display_name: 'Carlota',
    birth_date: `${new Date().getUTCFullYear() - 25}-03-14`,
    phone_country: 'ES',
    phone: '612 34 56 78',
    whatsapp: true,
    ...place,
    section: 'women',
    title: 'Modelo de moda en Oviedo',
    description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
    ...extra,
  });

  it('PUT /api/profile/model-with-ad/update/{id}: staff edits record only the changed fields; the owner and no-op saves record nothing', async () => {
    const m = await model();
    const url = `/api/profile/model-with-ad/update/${m.profileId}`;
    const own = await audited(() => m.agent.put(url, form({ version: 1 })));
    expect(own.res.statusCode, own.res.body).toBe(200);
    expect(own.entries).toEqual([]);

    const staff = await admin();
    const { res, entries } = await audited(() =>
      staff.agent.put(url, form({ version: 2, title: 'Editado por el equipo', whatsapp: false })),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      action: 'model_profile.update',
      subjectType: 'model_profile',
      subjectId: m.profileId,
    });
    expect(entries[0]!.before).toEqual({ title: 'Modelo de moda en Oviedo', whatsapp: true });
    expect(entries[0]!.after).toEqual({ title: 'Editado por el equipo', whatsapp: false });

    const unchanged = await audited(() => staff.agent.put(url, form({ version: 3, title: 'Editado por el equipo', whatsapp: false })));
    expect(unchanged.res.statusCode).toBe(200);
    expect(unchanged.entries).toEqual([]);
  });

  it('PUT /api/profile/model/activate/{id}/{value}: staff switching an ad is recorded; the owner switching it is not', async () => {
    const m = await model();
    const own = await audited(() => m.agent.put(`/api/profile/model/activate/${m.adId}/0`));
    expect(own.res.statusCode, own.res.body).toBe(200);
    expect(own.entries).toEqual([]);

    const staff = await admin();
    const { res, entries } = await audited(() => staff.agent.put(`/api/profile/model/activate/${m.adId}/1`));
    expect(res.statusCode, res.body).toBe(200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      action: 'ad.activate',
      subjectType: 'ad',
      subjectId: m.adId,
      before: { is_active: false },
      after: { is_active: true },
    });
  });

  it('DELETE /api/ad/{id}: staff deleting an ad is recorded with what it held; the owner deleting theirs is not', async () => {
    const mine = await model();
    const own = await audited(() => mine.agent.delete(`/api/ad/${mine.adId}`));
    expect(own.res.statusCode, own.res.body).toBe(200);
    expect(own.entries).toEqual([]);

    const m = await model();
    const [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    const staff = await admin();
    const { res, entries } = await audited(() => staff.agent.delete(`/api/ad/${m.adId}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      action: 'ad.delete',
      subjectType: 'ad',
      subjectId: m.adId,
      before: { model_profile_id: m.profileId, title: ad!.title, description: ad!.description, status: 'active', is_active: true },
      after: null,
    });
  });
});

describe('photos (media routes)', () => {
  const upload = async (agent: Agent, adId: number) => {
    const body = uploadBody(adId, [{ filename: 'foto.jpg', data: await jpeg(600, 400) }]);
    return agent.post('/api/upload/images', body.payload, body.headers);
  };

  it("POST /api/upload/images: staff adding a photo to someone's ad is recorded; the owner adding one is not", async () => {
    const m = await model();
    const own = await audited(() => upload(m.agent, m.adId));
    expect(own.res.statusCode, own.res.body).toBe(201);
    expect(own.entries).toEqual([]);

    const staff = await admin();
    const { res, entries } = await audited(() => upload(staff.agent, m.adId));
    expect(res.statusCode, res.body).toBe(201);
    const photo = res.json<{ data: { media: { media_id: number; uid: string }[] } }>().data.media[0]!;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      action: 'media.upload',
      subjectType: 'media',
      subjectId: photo.media_id,
      before: null,
      after: { ad_id: m.adId, uid: photo.uid, is_cover: false },
    });
  });

  it("POST /api/media/delete: staff deleting someone's photo is recorded; the owner deleting theirs is not", async () => {
    const m = await model({ photos: 2 });
    const [first, second] = m.mediaIds as [number, number];
    const own = await audited(() => m.agent.post('/api/media/delete', { media_id: second }));
    expect(own.res.statusCode, own.res.body).toBe(200);
    expect(own.entries).toEqual([]);

    const [photo] = await db().select().from(media).where(eq(media.id, first));
    const staff = await admin();
    const { res, entries } = await audited(() => staff.agent.post('/api/media/delete', { media_id: first }));
    expect(res.statusCode, res.body).toBe(200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      action: 'media.delete',
      subjectType: 'media',
      subjectId: first,
      before: { ad_id: m.adId, uid: photo!.uid, is_cover: true, position: 0 },
      after: null,
    });
  });

  it('PUT /api/change-cover-picture/{id}: staff changing the cover is recorded; the owner or the responsible publicist is not', async () => {
    const m = await model({ photos: 3 });
    const [a, b, c] = m.mediaIds as [number, number, number];
    const own = await audited(() => m.agent.put(`/api/change-cover-picture/${b}`));
    expect(own.res.statusCode, own.res.body).toBe(200);
    expect(own.entries).toEqual([]);

    // The same ad under a publicist's responsibility: the publicist's own change is not a staff action either.
    const p = await buildPublicist(db());
    await db().update(modelProfiles).set({ userId: null, publicistId: p.publicistId }).where(eq(modelProfiles.id, m.profileId));
    const publicist = await signIn(p.userId);
    const managed = await audited(() => publicist.put(`/api/change-cover-picture/${c}`));
    expect(managed.res.statusCode, managed.res.body).toBe(200);
    expect(managed.entries).toEqual([]);

    const staff = await admin();
    const { res, entries } = await audited(() => staff.agent.put(`/api/change-cover-picture/${a}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: staff.id,
      action: 'ad.change_cover',
      subjectType: 'ad',
      subjectId: m.adId,
      before: { cover_media_id: c },
      after: { cover_media_id: a },
    });

    // Choosing the photo that already is the cover changes nothing.
    const again = await audited(() => staff.agent.put(`/api/change-cover-picture/${a}`));
    expect(again.res.statusCode).toBe(200);
    expect(again.entries).toEqual([]);
  });
});
