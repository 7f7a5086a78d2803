import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UNAPPROVED_AGENCY_MODEL_LIMIT,
  type PublicistModel,
  type PublicistModelInput,
  type PublicistModelList,
  type PublicistProfile,
} from '#contract/publicists.ts';
import { seedDemoPublicist } from '#server/db/seed/demo-publicist.ts';
import { ads, auditLog, cities, countries, modelConsents, modelProfiles, publicistProfiles } from '#server/db/schema.ts';
import type { Agent } from '#tests/agent.ts';
import { newAgent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser, CITY, findCity } from '#tests/factories.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';
import { loginAs, uploadBody } from '../media/test-helpers.ts';
import { jpeg } from '../media/test-images.ts';

type Errors = { errors: Record<string, string[]> };

let t: TestApp;
let place: { country_id: number; state_id: number; city_id: number };
let madridState: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [spain] = await db.select().from(countries).where(eq(countries.iso2, 'ES'));
  const oviedo = await findCity(db, CITY.oviedo);
  const stateOf = async (cityId: number) => (await db.select().from(cities).where(eq(cities.id, cityId)))[0]!.stateId;
  place = { country_id: spain!.id, state_id: await stateOf(oviedo.id), city_id: oviedo.id };
  madridState = await stateOf((await findCity(db, CITY.madrid)).id);
});
afterAll(async () => {
  await t.close();
});

const adult = () => `${new Date().getUTCFullYear() - 24}-05-20`;
let n = 0;

function body(extra: Partial<PublicistModelInput> = {}): PublicistModelInput {
  n++;
  return {
    display_name: `Modelo ${n}`,
    birth_date: adult(),
    contact_email: `modelo-${n}-${Date.now()}@example.test`,
    whatsapp: false,
    ...place,
    section: 'women',
    title: 'Modelo de pasarela en Oviedo',
    description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
    ...extra,
  };
}

interface Publicist {
  agent: Agent;
  userId: number;
  publicistId: number;
}

async function publicist(): Promise<Publicist> {
  const db = t.database.db;
  const p = await buildPublicist(db);
  return { agent: await loginAs(t.app, db, p.userId), ...p };
}

async function createModel(p: Publicist, extra: Partial<PublicistModelInput> = {}): Promise<PublicistModel> {
  const res = await p.agent.post('/api/publicist/model/create', body(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: PublicistModel }>().data;
}

const outbox = () => t.app.mailer.outbox;
const lastMailTo = (to: string) => [...outbox()].reverse().find((m) => m.to === to);
const consentToken = (to: string) => lastMailTo(to)!.text.match(/\/es\/consent\/([A-Za-z0-9_-]{43})/)![1]!;
const withdrawToken = (to: string) => lastMailTo(to)!.text.match(/\/es\/consent\/withdraw\/([A-Za-z0-9_-]{43})/)![1]!;

async function approve(modelId: number) {
  const db = t.database.db;
  await db.update(modelProfiles).set({ status: 'active' }).where(eq(modelProfiles.id, modelId));
  await db.update(ads).set({ status: 'active' }).where(eq(ads.modelProfileId, modelId));
}

const anonymous = () => newAgent(t.app);

describe('who may manage models under responsibility', () => {
  it('401 for visitors, 403 for clients and models, 403 for a publicist without a publicist profile', async () => {
    const anon = await anonymous();
    expect((await anon.get('/api/publicist/models-under-responsibility')).statusCode).toBe(401);
    expect((await anon.post('/api/publicist/model/create', body())).statusCode).toBe(401);
    const db = t.database.db;
    for (const role of ['client', 'model'] as const) {
      const agent = await loginAs(t.app, db, (await buildUser(db, { role })).id);
      expect((await agent.get('/api/publicist/models-under-responsibility')).statusCode).toBe(403);
      expect((await agent.post('/api/publicist/model/create', body())).statusCode).toBe(403);
    }
    const bare = await loginAs(t.app, db, (await buildUser(db, { role: 'publicist' })).id);
    const res = await bare.post('/api/publicist/model/create', body());
    expect(res.statusCode).toBe(403);
    expect((await bare.get('/api/publicist/modelsUnderResponsibility')).statusCode).toBe(403);
  });
});

describe('creating models', () => {
  it('creates the model without an account, its ad pending, consent pending, and mails the consent request', async () => {
    const p = await publicist();
    const input = body({ phone_country: 'ES', phone: '612 00 11 22' });
    const res = await p.agent.post('/api/publicist/model/create', input);
    expect(res.statusCode).toBe(201);
    const model = res.json<{ data: PublicistModel }>().data;
    expect(model).toMatchObject({
      display_name: input.display_name,
      contact_email: input.contact_email,
      phone: '+34612001122',
      status: 'unverified',
      consent_status: 'pending',
      ad: { status: 'pending', is_active: true, is_listed: false, city: 'Oviedo' },
    });
    expect(model.consent_requested_at).not.toBeNull();
    const [row] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, model.id));
    expect(row).toMatchObject({ userId: null, publicistId: p.publicistId });
    const mail = lastMailTo(input.contact_email!)!;
    expect(mail.text).toMatch(/\/es\/consent\/[A-Za-z0-9_-]{43}/);
    expect(mail.text).toContain(input.display_name);
    // Only hashes are stored.
    const [consent] = await t.database.db.select().from(modelConsents).where(eq(modelConsents.modelProfileId, model.id));
    expect(consent!.tokenHash).not.toContain(consentToken(input.contact_email!));
  });

  it('answers the same on /api/publicist/model-under-responsibility/create', async () => {
    const p = await publicist();
    const input = body();
    const res = await p.agent.post('/api/publicist/model-under-responsibility/create', input);
    expect(res.statusCode).toBe(201);
    expect(lastMailTo(input.contact_email!)!.text).toMatch(/\/es\/consent\/[A-Za-z0-9_-]{43}/);
  });

  // Issue 24 point 14: a phone-only request was "sent" to our outbox addressed to the number and never reached the model.
  it('refuses a phone-only contact with a clear, translated reason, and stores and sends nothing', async () => {
    const p = await publicist();
    const sent = t.app.mailer.outbox.length;
    for (const [url, lng] of [
      ['/api/publicist/model/create', 'es'],
      ['/api/publicist/model-under-responsibility/create', 'en'],
    ] as const) {
      const res = await p.agent.request({
        method: 'POST',
        url,
        payload: body({ contact_email: '', phone_country: 'ES', phone: '622 33 44 55' }),
        headers: { 'x-locale': lng },
      });
      expect(res.statusCode, res.body).toBe(422);
      const message = res.json<Errors>().errors.contact_email?.[0] ?? '';
      expect(message).toMatch(lng === 'es' ? /correo electrónico.*teléfono solo/ : /e-mail address.*phone number alone/);
    }
    const [row] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.publicistId, p.publicistId));
    expect(row).toBeUndefined();
    expect(t.app.mailer.outbox.length).toBe(sent);
  });

  it('422 with per-field messages: no contact, bad phone, minor, place that does not fit, forbidden words', async () => {
    const p = await publicist();
    const noContact = await p.agent.post('/api/publicist/model/create', body({ contact_email: '' }));
    expect(noContact.statusCode).toBe(422);
    expect(noContact.json<Errors>().errors.contact_email).toBeDefined();
    const badPhone = await p.agent.post('/api/publicist/model/create', body({ phone_country: 'ES', phone: '12' }));
    expect(badPhone.json<Errors>().errors.phone).toBeDefined();
    const minor = await p.agent.post('/api/publicist/model/create', body({ birth_date: `${new Date().getUTCFullYear() - 16}-01-01` }));
    expect(minor.json<Errors>().errors.birth_date).toBeDefined();
    const place2 = await p.agent.post('/api/publicist/model/create', body({ state_id: madridState }));
    expect(place2.statusCode).toBe(422);
    expect(place2.json<Errors>().errors.city_id).toBeDefined();
    const words = await p.agent.post('/api/publicist/model/create', body({ title: 'Servicio completo sin condón' }));
    expect(words.statusCode).toBe(422);
    expect(words.json<Errors>().errors.title).toBeDefined();
    const [count] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.publicistId, p.publicistId));
    expect(count).toBeUndefined();
  });

  it('creates several at once, all or nothing, errors named models.{i}.{field}', async () => {
    const p = await publicist();
    const bad = await p.agent.post('/api/publicist/models-under-responsibility/create', {
      models: [body(), body({ title: 'x' }), body({ contact_email: '' })],
    });
    expect(bad.statusCode).toBe(422);
    const errors = bad.json<Errors>().errors;
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(['models.1.title', 'models.2.contact_email']));
    const none = await p.agent.get('/api/publicist/models-under-responsibility');
    expect(none.json<PublicistModelList>().meta.total).toBe(0);
    const placeBad = await p.agent.post('/api/publicist/models-under-responsibility/create', {
      models: [body(), body({ state_id: madridState })],
    });
    expect(placeBad.json<Errors>().errors['models.1.city_id']).toBeDefined();
    const good = await p.agent.post('/api/publicist/models-under-responsibility/create', { models: [body(), body()] });
    expect(good.statusCode).toBe(201);
    expect(good.json<{ data: PublicistModel[] }>().data).toHaveLength(2);
    expect(good.json<{ message: string }>().message).toBe('Modelos creadas. Hemos enviado a cada una la solicitud de consentimiento.');
    expect((await p.agent.post('/api/publicist/models-under-responsibility/create', { models: [] })).statusCode).toBe(422);
  });

  it('one model created through the bulk route is told in the singular', async () => {
    const p = await publicist();
    const one = await p.agent.post('/api/publicist/models-under-responsibility/create', { models: [body()] });
    expect(one.statusCode).toBe(201);
    expect(one.json<{ message: string }>().message).toBe('Modelo creada. Le hemos enviado la solicitud de consentimiento.');
  });
});

describe('listing models', () => {
  it('searches, sorts and pages, answering data and Laravel meta, on every path', async () => {
    const p = await publicist();
    await p.agent.post('/api/publicist/models-under-responsibility/create', {
      models: [body({ display_name: 'Bea' }), body({ display_name: 'Alba' }), body({ display_name: 'Carmen' })],
    });
    const byName = await p.agent.get('/api/publicist/models-under-responsibility?sort=name&direction=asc&per_page=2');
    expect(byName.statusCode).toBe(200);
    const list = byName.json<PublicistModelList>();
    expect(list.data.map((m) => m.display_name)).toEqual(['Alba', 'Bea']);
    expect(list.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3, from: 1, to: 2 });
    const page2 = await p.agent.get('/api/publicist/modelsUnderResponsibility?sort=name&direction=asc&per_page=2&page=2');
    expect(page2.json<PublicistModelList>().data.map((m) => m.display_name)).toEqual(['Carmen']);
    const found = await p.agent.get(`/api/publicist/models/${p.publicistId}?search=carm`);
    expect(found.json<PublicistModelList>().data.map((m) => m.display_name)).toEqual(['Carmen']);
    const none = await p.agent.get(`/api/publicist/models/${p.publicistId}?search=${encodeURIComponent('%_')}`);
    expect(none.json<PublicistModelList>().meta).toMatchObject({ total: 0, from: null, to: null });
    expect((await p.agent.get('/api/publicist/models-under-responsibility?sort=age')).statusCode).toBe(422);
    expect((await p.agent.get('/api/publicist/models-under-responsibility?per_page=500')).statusCode).toBe(422);
  });

  it('lists only the publicist own models; another publicist id is 403, an unknown one 404, staff may read any', async () => {
    const a = await publicist();
    const b = await publicist();
    await createModel(a, { display_name: 'De A' });
    await createModel(b, { display_name: 'De B' });
    const mine = (await a.agent.get('/api/publicist/models-under-responsibility')).json<PublicistModelList>();
    expect(mine.data.map((m) => m.display_name)).toEqual(['De A']);
    expect((await a.agent.get(`/api/publicist/models/${b.publicistId}`)).statusCode).toBe(403);
    expect((await a.agent.get('/api/publicist/models/99999999')).statusCode).toBe(404);
    expect((await a.agent.get('/api/publicist/models/abc')).statusCode).toBe(404);
    const db = t.database.db;
    const admin = await loginAs(t.app, db, (await buildUser(db, { role: 'admin' })).id);
    const theirs = await admin.get(`/api/publicist/models/${b.publicistId}`);
    expect(theirs.json<PublicistModelList>().data.map((m) => m.display_name)).toEqual(['De B']);
  });
});

describe('publicist A can never touch publicist B models', () => {
  it('every route answers 403 for B model, 404 for an unknown one, and nothing changes', async () => {
    const a = await publicist();
    const b = await publicist();
    const theirs = await createModel(b);
    const adId = theirs.ad!.id;
    const attempts: [string, () => Promise<{ statusCode: number }>][] = [
      ['read', () => a.agent.get(`/api/publicist/model/${theirs.id}`)],
      ['update', () => a.agent.put(`/api/publicist/model/update/${theirs.id}`, { ...body(), version: theirs.version })],
      ['activate', () => a.agent.put(`/api/publicist/model/activate/${theirs.id}/0`)],
      ['delete ad', () => a.agent.delete(`/api/publicist/model/${theirs.id}/ad`)],
      ['delete model', () => a.agent.delete(`/api/publicist/model/${theirs.id}`)],
      ['resend consent', () => a.agent.post(`/api/publicist/model/${theirs.id}/consent/resend`)],
      ['model-profiles activate', () => a.agent.put(`/api/profile/model/activate/${adId}/0`)],
      ['model-profiles delete ad', () => a.agent.delete(`/api/ad/${adId}`)],
      [
        'model-profiles update',
        () =>
          a.agent.put(`/api/profile/model-with-ad/update/${theirs.id}`, { ...body(), phone_country: 'ES', phone: '612345678', version: 1 }),
      ],
      ['photos', () => a.agent.get(`/api/getImagesByAd/${adId}`)],
      [
        'upload',
        async () => {
          const up = uploadBody(adId, [{ filename: 'a.jpg', data: await jpeg(400, 300) }]);
          return a.agent.post('/api/upload/images', up.payload, up.headers);
        },
      ],
    ];
    for (const [name, attempt] of attempts) {
      const res = await attempt();
      // The photos read answers a plain 404 to anyone who may not see an unlisted ad (it reveals nothing).
      expect(res.statusCode, name).toBe(name === 'photos' ? 404 : 403);
    }
    for (const path of ['/api/publicist/model/99999999', '/api/publicist/model/99999999/ad']) {
      expect((await a.agent.delete(path)).statusCode).toBe(404);
    }
    expect((await a.agent.get('/api/publicist/model/99999999')).statusCode).toBe(404);
    // B's model and ad are untouched.
    const still = (await b.agent.get(`/api/publicist/model/${theirs.id}`)).json<{ data: PublicistModel }>().data;
    expect(still).toMatchObject({ version: theirs.version, ad: { id: adId, is_active: true } });
  });

  it('a model own profile is not a publicist model', async () => {
    const a = await publicist();
    const own = await buildModel(t.database.db, { name: 'Independiente' });
    expect((await a.agent.get(`/api/publicist/model/${own.profileId}`)).statusCode).toBe(403);
    expect((await a.agent.put(`/api/profile/model/activate/${own.adId}/0`)).statusCode).toBe(403);
  });
});

describe('managing a model', () => {
  it('updates with a version (409 stale with the current record); a new contact asks for consent again', async () => {
    const p = await publicist();
    const model = await createModel(p);
    const first = { ...body({ display_name: model.display_name, contact_email: model.contact_email! }), version: model.version };
    const res = await p.agent.put(`/api/publicist/model/update/${model.id}`, { ...first, title: 'Nuevo título del anuncio' });
    expect(res.statusCode).toBe(200);
    const updated = res.json<{ data: PublicistModel }>().data;
    expect(updated).toMatchObject({ version: 2, consent_status: 'pending', ad: { title: 'Nuevo título del anuncio' } });
    const stale = await p.agent.put(`/api/publicist/model/update/${model.id}`, first);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ data: { current: { version: 2 }, values: { title: 'Nuevo título del anuncio' } } });
    // Consent given, then the contact changes: pending again, and the new contact gets a request.
    await p.agent.post(`/api/consent/${consentToken(model.contact_email!)}`, { decision: 'agree' });
    const newContact = `nuevo-${Date.now()}@example.test`;
    const changed = await p.agent.put(`/api/publicist/model/update/${model.id}`, { ...first, contact_email: newContact, version: 2 });
    expect(changed.json<{ data: PublicistModel }>().data).toMatchObject({ consent_status: 'pending', contact_email: newContact });
    expect(lastMailTo(newContact)).toBeDefined();
  });

  it('switches the ad off and on, deletes the ad, then the model', async () => {
    const p = await publicist();
    const model = await createModel(p);
    const off = await p.agent.put(`/api/publicist/model/activate/${model.id}/0`);
    expect(off.json<{ data: PublicistModel }>().data.ad!.is_active).toBe(false);
    // The model-profiles route accepts the responsible publicist too.
    const on = await p.agent.put(`/api/profile/model/activate/${model.ad!.id}/1`);
    expect(on.statusCode).toBe(200);
    const noAd = await p.agent.delete(`/api/publicist/model/${model.id}/ad`);
    expect(noAd.json<{ data: PublicistModel }>().data.ad).toBeNull();
    expect((await p.agent.delete(`/api/publicist/model/${model.id}`)).statusCode).toBe(200);
    expect((await p.agent.get(`/api/publicist/model/${model.id}`)).statusCode).toBe(404);
    const other = await createModel(p);
    expect((await p.agent.delete(`/api/ad/${other.ad!.id}`)).statusCode).toBe(200);
  });

  it('staff changes are audited', async () => {
    const p = await publicist();
    const model = await createModel(p);
    const db = t.database.db;
    const admin = await loginAs(t.app, db, (await buildUser(db, { role: 'admin' })).id);
    expect((await admin.put(`/api/publicist/model/activate/${model.id}/0`)).statusCode).toBe(200);
    const rows = await db.select().from(auditLog).where(eq(auditLog.subjectId, model.ad!.id));
    expect(rows.map((r) => r.action)).toContain('ad.deactivate');
  });

  it('photos: the responsible publicist uploads and sees unlisted photos, another publicist does not', async () => {
    const a = await publicist();
    const b = await publicist();
    const model = await createModel(a);
    const up = uploadBody(model.ad!.id, [{ filename: 'a.jpg', data: await jpeg(600, 400) }]);
    const res = await a.agent.post('/api/upload/images', up.payload, up.headers);
    expect(res.statusCode, res.body).toBe(201);
    const photo = res.json<{ data: { media: { url: string; media_id: number }[] } }>().data.media[0]!;
    const url = photo.url;
    // B may neither delete nor promote A's photo; A may.
    expect((await b.agent.post('/api/media/delete', { media_id: photo.media_id })).statusCode).toBe(403);
    expect((await b.agent.put(`/api/change-cover-picture/${photo.media_id}`)).statusCode).toBe(403);
    expect((await a.agent.put(`/api/change-cover-picture/${photo.media_id}`)).statusCode).toBe(200);
    expect((await a.agent.get(url)).statusCode).toBe(200);
    expect((await b.agent.get(url)).statusCode).toBe(404);
    expect((await (await anonymous()).get(url)).statusCode).toBe(404);
    expect((await a.agent.get(`/api/getImagesByAd/${model.ad!.id}`)).statusCode).toBe(200);
  });
});

describe('consent of the model', () => {
  it('shows the request publicly, agreeing lists the approved ad, withdrawing unlists it at once', async () => {
    const p = await publicist();
    const model = await createModel(p);
    await approve(model.id);
    const adUrl = `/api/models/${model.ad!.id}`;
    expect((await t.app.inject({ method: 'GET', url: adUrl, headers: XHR })).statusCode).toBe(404);

    const token = consentToken(model.contact_email!);
    const visitor = await anonymous();
    const shown = await visitor.get(`/api/consent/${token}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      data: {
        state: 'pending',
        model: { display_name: model.display_name },
        publicist: { legal_name: 'Agencia de Pruebas S.L.' },
        ad: { city: 'Oviedo' },
      },
    });
    const agreed = await visitor.post(`/api/consent/${token}`, { decision: 'agree' });
    expect(agreed.statusCode).toBe(200);
    expect(agreed.json()).toMatchObject({ data: { state: 'used' } });
    expect((await t.app.inject({ method: 'GET', url: adUrl, headers: XHR })).statusCode).toBe(200);
    const listed = (await p.agent.get(`/api/publicist/model/${model.id}`)).json<{ data: PublicistModel }>().data;
    expect(listed).toMatchObject({ consent_status: 'given', ad: { is_listed: true } });

    // Single use.
    const again = await visitor.post(`/api/consent/${token}`, { decision: 'agree' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('Este enlace ya se ha usado.');
    expect((await visitor.get(`/api/consent/${token}`)).json()).toMatchObject({ data: { state: 'used' } });

    const wt = withdrawToken(model.contact_email!);
    expect((await visitor.get(`/api/consent/withdraw/${wt}`)).json()).toMatchObject({ data: { state: 'given' } });
    const withdrawn = await visitor.post(`/api/consent/withdraw/${wt}`);
    expect(withdrawn.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: adUrl, headers: XHR })).statusCode).toBe(404);
    const [ad] = await t.database.db.select().from(ads).where(eq(ads.id, model.ad!.id));
    expect(ad!.isListed).toBe(false);
    expect((await visitor.post(`/api/consent/withdraw/${wt}`)).statusCode).toBe(409);
  });

  it('declining keeps the ads unlisted; expired and unknown links answer clearly', async () => {
    const p = await publicist();
    const declined = await createModel(p);
    const visitor = await anonymous();
    const res = await visitor.post(`/api/consent/${consentToken(declined.contact_email!)}`, { decision: 'decline' });
    expect(res.statusCode).toBe(200);
    const row = (await p.agent.get(`/api/publicist/model/${declined.id}`)).json<{ data: PublicistModel }>().data;
    expect(row.consent_status).toBe('withdrawn');

    const late = await createModel(p);
    const token = consentToken(late.contact_email!);
    await t.database.db
      .update(modelConsents)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(modelConsents.modelProfileId, late.id));
    expect((await visitor.get(`/api/consent/${token}`)).json()).toMatchObject({ data: { state: 'expired' } });
    const expired = await visitor.post(`/api/consent/${token}`, { decision: 'agree' }, { 'x-locale': 'en' });
    expect(expired.statusCode).toBe(409);
    expect(expired.json<{ message: string }>().message).toBe('This link has expired.');
    const unknown = await visitor.get(`/api/consent/${'x'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect((await visitor.get('/api/consent/short')).statusCode).toBe(404);
    expect((await visitor.post(`/api/consent/${token}`, { decision: 'maybe' })).statusCode).toBe(422);
  });

  it('re-sending is rate-limited, and a new link replaces the old one', async () => {
    const p = await publicist();
    const model = await createModel(p);
    const oldToken = consentToken(model.contact_email!);
    const tooSoon = await p.agent.post(`/api/publicist/model/${model.id}/consent/resend`);
    expect(tooSoon.statusCode).toBe(429);
    await t.database.db
      .update(modelConsents)
      .set({ createdAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(modelConsents.modelProfileId, model.id));
    const resent = await p.agent.post(`/api/publicist/model/${model.id}/consent/resend`);
    expect(resent.statusCode).toBe(200);
    const newToken = consentToken(model.contact_email!);
    expect(newToken).not.toBe(oldToken);
    const visitor = await anonymous();
    expect((await visitor.get(`/api/consent/${oldToken}`)).json()).toMatchObject({ data: { state: 'expired' } });
    expect((await visitor.post(`/api/consent/${newToken}`, { decision: 'agree' })).statusCode).toBe(200);
    expect((await p.agent.post(`/api/publicist/model/${model.id}/consent/resend`)).statusCode).toBe(409);
  });
});

describe('demo publicist', () => {
  it('has trader details and three models: two consented and listed, one pending and not listed', async () => {
    await seedDemoPublicist(t.database.db, t.app.storage);
    await seedDemoPublicist(t.database.db, t.app.storage); // idempotent
    const agent = await newAgent(t.app);
    const login = await agent.post('/api/login', { email: 'publicist@vitrina.test', password: t.config.demoPassword });
    expect(login.statusCode).toBe(200);
    const profile = await agent.get('/api/profile/publicist');
    const demo = profile.json<{ data: PublicistProfile }>().data;
    expect(demo).toMatchObject({ status: 'active', models: 3 });
    expect(demo.legal_name && demo.tax_id && demo.address && demo.phone && demo.email).toBeTruthy();
    const list = (await agent.get('/api/publicist/models-under-responsibility?sort=name&direction=asc')).json<PublicistModelList>();
    expect(list.data.map((m) => [m.display_name, m.consent_status, m.ad?.is_listed])).toEqual([
      ['Aitana', 'given', true],
      ['Bruno', 'given', true],
      ['Celia', 'pending', false],
    ]);
    expect(list.data.every((m) => (m.ad?.photos ?? 0) > 0)).toBe(true);
    const visitor = await anonymous();
    expect((await visitor.get(`/api/models/${list.data[0]!.ad!.id}`)).statusCode).toBe(200);
    expect((await visitor.get(`/api/models/${list.data[2]!.ad!.id}`)).statusCode).toBe(404);
    // The pending one can be re-sent at once (its request is old).
    expect((await agent.post(`/api/publicist/model/${list.data[2]!.id}/consent/resend`)).statusCode).toBe(200);
  });
});

describe('role × route matrix of the publicist routes', () => {
  it('anonymous 401; client and model 403; publicist A on own 2xx, on B 403; staff per route', async () => {
    const db = t.database.db;
    const a = await publicist();
    const b = await publicist();
    const ownA = await createModel(a);
    const ofB = await createModel(b);
    const agents: Record<string, Agent> = {
      anonymous: await anonymous(),
      client: await loginAs(t.app, db, (await buildUser(db, { role: 'client' })).id),
      model: await loginAs(t.app, db, (await buildUser(db, { role: 'model' })).id),
      publicistA: a.agent,
      publicistB: b.agent,
      admin: await loginAs(t.app, db, (await buildUser(db, { role: 'admin' })).id),
      super_admin: await loginAs(t.app, db, (await buildUser(db, { role: 'super_admin' })).id),
    };
    // [route, call(agent), expected per role]. Each route targets publicist A's data; read-only or reversible calls.
    type Row = [string, (agent: Agent) => Promise<{ statusCode: number }>, Record<string, number>];
    const expectFor = (own: number, staff: number): Record<string, number> => ({
      anonymous: 401,
      client: 403,
      model: 403,
      publicistA: own,
      publicistB: 403,
      admin: staff,
      super_admin: staff,
    });
    const rows: Row[] = [
      ['GET models/{id}', (g) => g.get(`/api/publicist/models/${a.publicistId}`), expectFor(200, 200)],
      [
        'GET models-under-responsibility',
        (g) => g.get('/api/publicist/models-under-responsibility'),
        { ...expectFor(200, 403), publicistB: 200 },
      ],
      [
        'GET modelsUnderResponsibility',
        (g) => g.get('/api/publicist/modelsUnderResponsibility'),
        { ...expectFor(200, 403), publicistB: 200 },
      ],
      ['GET model/{id}', (g) => g.get(`/api/publicist/model/${ownA.id}`), expectFor(200, 200)],
      ['PUT model/activate', (g) => g.put(`/api/publicist/model/activate/${ownA.id}/1`), expectFor(200, 200)],
      [
        'PUT model/update (stale version)',
        (g) => g.put(`/api/publicist/model/update/${ownA.id}`, { ...body(), version: 999 }),
        expectFor(409, 409),
      ],
      ['POST consent/resend (too soon)', (g) => g.post(`/api/publicist/model/${ownA.id}/consent/resend`), { ...expectFor(429, 403) }],
      ['GET profile/publicist', (g) => g.get('/api/profile/publicist'), { ...expectFor(200, 403), publicistB: 200 }],
      [
        'PUT profile/update (stale version)',
        (g) =>
          g.put(`/api/publicist/profile/update/${a.publicistId}`, {
            display_name: 'Agencia',
            legal_name: 'Agencia S.L.',
            tax_id: 'B12345678',
            address: 'Calle Mayor 1, Oviedo',
            phone_country: 'ES',
            phone: '612345678',
            email: 'a@example.test',
            version: 999,
          }),
        expectFor(409, 409),
      ],
    ];
    const failures: string[] = [];
    for (const [route, call, expected] of rows) {
      for (const [role, agent] of Object.entries(agents)) {
        const got = (await call(agent)).statusCode;
        if (got !== expected[role]) failures.push(`${route} as ${role}: ${got}, expected ${expected[role]}`);
      }
    }
    // Creating: only publicists with a profile (staff have no publicist profile to create under).
    for (const [role, agent] of Object.entries(agents)) {
      const got = (await agent.post('/api/publicist/model/create', body())).statusCode;
      const expected = role === 'anonymous' ? 401 : role.startsWith('publicist') ? 201 : 403;
      if (got !== expected) failures.push(`POST model/create as ${role}: ${got}, expected ${expected}`);
    }
    // B's model stays out of A's reach on the destructive routes, and A's out of B's.
    for (const [path, method] of [
      [`/api/publicist/model/${ofB.id}/ad`, 'DELETE'],
      [`/api/publicist/model/${ofB.id}`, 'DELETE'],
    ] as const) {
      const got = (await a.agent.request({ method, url: path })).statusCode;
      if (got !== 403) failures.push(`${method} ${path} as publicistA on B: ${got}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('consent by code (for a model who does not open links)', () => {
  const codeIn = (to: string) => lastMailTo(to)!.text.match(/Tu código: (\d{6})/)![1]!;
  /** Each test its own address: the route allows 10 tries a minute per IP. */
  const redeem = (agent: Agent, ip: string, payload: unknown, headers: Record<string, string> = {}) =>
    agent.request({ method: 'POST', url: '/api/consent/code', payload: payload as never, remoteAddress: ip, headers });

  it('contact + code open the same request as the link, once; the mail says where to enter it', async () => {
    const p = await publicist();
    const model = await createModel(p, { contact_email: `Codigo.${Date.now()}@Example.test` });
    await approve(model.id);
    const mail = lastMailTo(model.contact_email!)!;
    expect(mail.text).toMatch(/esta página: http:\/\/\S+\/es\/consent$/m);
    const code = codeIn(model.contact_email!);
    const link = consentToken(model.contact_email!);
    const visitor = await anonymous();

    const bad = await redeem(visitor, '10.1.0.1', { contact: 'no es un contacto', code: '12' });
    expect(bad.statusCode).toBe(422);
    // Both fields are refused at once, each with its own message; an empty contact too.
    expect(bad.json<Errors>().errors).toEqual({
      contact: ['Escribe el correo o el teléfono donde recibiste el mensaje.'],
      code: ['Escribe las 6 cifras del código.'],
    });
    const empty = await redeem(visitor, '10.1.0.1', { contact: '', code: '123456' });
    expect(empty.json<Errors>().errors).toEqual({ contact: ['Escribe el correo o el teléfono donde recibiste el mensaje.'] });
    const badContact = await redeem(visitor, '10.1.0.1', { contact: 'no es un contacto', code: '123456' }, { 'x-locale': 'en' });
    expect(badContact.json<Errors>().errors.contact).toEqual(['Enter the e-mail or phone number where you got the message.']);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await redeem(visitor, '10.1.0.1', { contact: model.contact_email!, code: wrong });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Errors>().errors.code![0]).toMatch(/^El código no es correcto/);
    // An address with no request at all answers exactly the same.
    const nobody = await redeem(visitor, '10.1.0.1', { contact: 'nadie@example.test', code });
    expect(nobody.json<Errors>()).toEqual(refused.json<Errors>());

    // Upper case and spaces as people type them.
    const ok = await redeem(visitor, '10.1.0.1', {
      contact: ` ${model.contact_email!.toUpperCase()} `,
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const token = ok.json<{ data: { token: string } }>().data.token;
    expect((await visitor.get(`/api/consent/${token}`)).json()).toMatchObject({
      data: { state: 'pending', model: { display_name: model.display_name } },
    });
    expect((await visitor.post(`/api/consent/${token}`, { decision: 'agree' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/models/${model.ad!.id}`, headers: XHR })).statusCode).toBe(200);

    // The code is spent; the mailed link now says the request was answered.
    expect((await redeem(visitor, '10.1.0.1', { contact: model.contact_email!, code })).statusCode).toBe(422);
    expect((await visitor.get(`/api/consent/${link}`)).json()).toMatchObject({ data: { state: 'used' } });
  });

  it('five wrong codes burn it, the link still works', async () => {
    const p = await publicist();
    const model = await createModel(p, { phone_country: 'ES', phone: '622 98 76 54' });
    expect(model.phone).toBe('+34622987654');
    const email = model.contact_email!;
    const code = codeIn(email);
    const visitor = await anonymous();
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect((await redeem(visitor, '10.1.0.2', { contact: email, code: wrong })).statusCode).toBe(422);
    const [row] = await t.database.db.select().from(modelConsents).where(eq(modelConsents.modelProfileId, model.id));
    expect(row).toMatchObject({ codeAttempts: 5, codeHash: null, status: 'pending' });
    expect((await redeem(visitor, '10.1.0.2', { contact: email, code })).statusCode).toBe(422);
    const link = consentToken(email);
    expect((await visitor.get(`/api/consent/${link}`)).json()).toMatchObject({ data: { state: 'pending' } });
  });

  it('is rate-limited per address', async () => {
    const visitor = await anonymous();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push((await redeem(visitor, '10.1.0.3', { contact: 'nadie@example.test', code: '000000' })).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 422)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

describe('staff editing a publicist’s model', () => {
  it('answers (no read outside the transaction it waits for) and audits only the changed fields', async () => {
    const p = await publicist();
    const model = await createModel(p);
    const staff = await loginAs(t.app, t.database.db, (await buildUser(t.database.db, { role: 'admin' })).id);
    const { contact_email, display_name, birth_date, whatsapp } = model;
    const res = await staff.put(`/api/publicist/model/update/${model.id}`, {
      ...body({ contact_email: contact_email!, display_name, birth_date: birth_date!, whatsapp }),
      title: 'Título corregido por el equipo',
      version: model.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.subjectId, model.id));
    const entry = entries.find((e) => e.action === 'model_profile.update');
    expect(entry).toMatchObject({
      subjectType: 'model_profile',
      before: { title: model.ad!.title },
      after: { title: 'Título corregido por el equipo' },
    });
    expect(Object.keys(entry!.after as object)).toEqual(['title']);
  });
});

describe('the agency’s own status', () => {
  it('suspending a publicist takes all its models’ ads down at once; reinstating brings them back', async () => {
    const p = await publicist();
    const model = await createModel(p);
    await approve(model.id);
    const visitor = await anonymous();
    expect((await visitor.post(`/api/consent/${consentToken(model.contact_email!)}`, { decision: 'agree' })).statusCode).toBe(200);
    const adUrl = `/api/models/${model.ad!.id}`;
    expect((await visitor.get(adUrl)).statusCode).toBe(200);

    const staff = await loginAs(t.app, t.database.db, (await buildUser(t.database.db, { role: 'admin' })).id);
    const suspend = await staff.post('/api/admin/decisions', {
      subject_type: 'publicist_profile',
      subject_id: p.publicistId,
      action: 'suspend',
      reason_codes: ['identity'],
      text: 'Los datos de la empresa no se corresponden con el registro.',
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect((await visitor.get(adUrl)).statusCode).toBe(404);
    const [ad] = await t.database.db.select().from(ads).where(eq(ads.id, model.ad!.id));
    expect(ad!.isListed).toBe(false);

    const reinstate = await staff.post('/api/admin/decisions', {
      subject_type: 'publicist_profile',
      subject_id: p.publicistId,
      action: 'reinstate',
    });
    expect(reinstate.statusCode, reinstate.body).toBe(200);
    expect((await visitor.get(adUrl)).statusCode).toBe(200);
  });

  it('a publicist still under review has nothing listed', async () => {
    const db = t.database.db;
    const pending = await buildPublicist(db, { status: 'pending' });
    const p = { agent: await loginAs(t.app, db, pending.userId), ...pending };
    const model = await createModel(p);
    await approve(model.id);
    const visitor = await anonymous();
    expect((await visitor.post(`/api/consent/${consentToken(model.contact_email!)}`, { decision: 'agree' })).statusCode).toBe(200);
    const [ad] = await db.select().from(ads).where(eq(ads.id, model.ad!.id));
    expect(ad).toMatchObject({ status: 'active', isActive: true, isListed: false });
  });
});

describe('an agency not yet approved', () => {
  it(`may add at most ${UNAPPROVED_AGENCY_MODEL_LIMIT} models (each one messages a stranger); nothing is created past it`, async () => {
    const db = t.database.db;
    const pending = await buildPublicist(db, { status: 'pending' });
    const p = { agent: await loginAs(t.app, db, pending.userId), ...pending };
    const batch = Array.from({ length: UNAPPROVED_AGENCY_MODEL_LIMIT - 1 }, () => body());
    const first = await p.agent.post('/api/publicist/models-under-responsibility/create', { models: batch });
    expect(first.statusCode, first.body).toBe(201);
    const sent = outbox().length;
    const over = await p.agent.post('/api/publicist/models-under-responsibility/create', { models: [body(), body()] });
    expect(over.statusCode).toBe(409);
    expect(over.json<{ message: string }>().message).toMatch(/^Hasta que aprobemos tu agencia/);
    expect(outbox().length).toBe(sent);
    const mine = await db.select().from(modelProfiles).where(eq(modelProfiles.publicistId, p.publicistId));
    expect(mine).toHaveLength(UNAPPROVED_AGENCY_MODEL_LIMIT - 1);
    await createModel(p);
    await db.update(publicistProfiles).set({ status: 'active' }).where(eq(publicistProfiles.id, p.publicistId));
    await createModel(p);
  });
});

describe('consent messages cannot be used as a mailer', () => {
  it("a model's contact changed again and again gets at most five requests a day; the sixth change is refused and changes nothing", async () => {
    const p = await publicist();
    let model = await createModel(p);
    const sentBefore = outbox().length;
    // The create sent the first; four more contact changes fill the day's five.
    for (let i = 0; i < 4; i++) {
      const res = await p.agent.put(`/api/publicist/model/update/${model.id}`, {
        ...body({ contact_email: `otra-${i}-${Date.now()}@example.test` }),
        version: model.version,
      });
      expect(res.statusCode, res.body).toBe(200);
      model = res.json<{ data: PublicistModel }>().data;
    }
    expect(outbox().length - sentBefore).toBe(4);
    const sixth = await p.agent.put(`/api/publicist/model/update/${model.id}`, {
      ...body({ contact_email: `victima-${Date.now()}@example.test` }),
      version: model.version,
    });
    expect(sixth.statusCode).toBe(429);
    expect(outbox().length - sentBefore).toBe(4);
    const resend = await p.agent.post(`/api/publicist/model/${model.id}/consent/resend`);
    expect(resend.statusCode).toBe(429);
    const unchanged = await p.agent.get(`/api/publicist/model/${model.id}`);
    expect(unchanged.json<{ data: PublicistModel }>().data.version).toBe(model.version);
  });
});
