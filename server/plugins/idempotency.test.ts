import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProfile, ModelWithAdInput } from '#contract/profiles.ts';
import type { PublicistModel, PublicistModelInput } from '#contract/publicists.ts';
import { API } from '#contract/routes.ts';
import {
  ads,
  cities,
  contactMessages,
  countries,
  idempotencyKeys,
  media,
  modelProfiles,
  reports,
  supportMessages,
} from '#server/db/schema.ts';
import { loginAs, multipart, uploadBody } from '#server/modules/media/test-helpers.ts';
import { jpeg } from '#server/modules/media/test-images.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, CITY, findCity } from '#tests/factories.ts';
import { answerOnce } from './idempotency.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let adId: number;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  adId = (await buildModel(t.database.db, { name: 'Idempotente' })).adId;
});
afterAll(async () => {
  await t.close();
});

const key = () => `${crypto.randomUUID()}`;
const ip = () => `10.9.0.${++n}`;

function sendWith(agent: Agent, k: string | undefined, body: Record<string, unknown>, url = '/api/contact', from = '10.9.1.1') {
  return agent.request({ method: 'POST', url, payload: body, remoteAddress: from, ...(k ? { headers: { 'idempotency-key': k } } : {}) });
}

const contact = (subject: string) => ({
  name: 'Reintento',
  email: 'reintento@example.test',
  subject,
  message: 'Un mensaje que el móvil reenvía al recuperar la red.',
  opened_at: Date.now() - 10_000,
});

const countBySubject = async (subject: string) =>
  (await t.database.db.select().from(contactMessages).where(eq(contactMessages.subject, subject))).length;

describe('Idempotency-Key', () => {
  it('a retry with the same key and body replays the first answer and changes nothing', async () => {
    const agent = await newAgent(t.app);
    const k = key();
    const from = ip();
    const body = contact('Uno solo');
    const first = await sendWith(agent, k, body, '/api/contact', from);
    expect(first.statusCode).toBe(201);
    const again = await sendWith(agent, k, body, '/api/contact', from);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countBySubject('Uno solo')).toBe(1);
  });

  it('without the header, two sends are two messages (behaviour unchanged)', async () => {
    const agent = await newAgent(t.app);
    const from = ip();
    await sendWith(agent, undefined, contact('Dos veces'), '/api/contact', from);
    await sendWith(agent, undefined, contact('Dos veces'), '/api/contact', from);
    expect(await countBySubject('Dos veces')).toBe(2);
  });

  it('the same key with another body is a 422 and changes nothing', async () => {
    const agent = await newAgent(t.app);
    const k = key();
    const from = ip();
    expect((await sendWith(agent, k, contact('Primero'), '/api/contact', from)).statusCode).toBe(201);
    const other = await sendWith(agent, k, contact('Otro distinto'), '/api/contact', from);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ type: 'error', error: 'idempotency_mismatch' });
    expect(await countBySubject('Otro distinto')).toBe(0);
  });

  it('a retry while the first is still running is a 409', async () => {
    const agent = await newAgent(t.app);
    const k = key();
    const from = ip();
    const body = contact('En curso');
    const first = await sendWith(agent, k, body, '/api/contact', from);
    // What a first request leaves while its handler runs: recorded, no answer yet.
    await t.database.db.update(idempotencyKeys).set({ statusCode: null, responseBody: null }).where(eq(idempotencyKeys.key, k));
    const again = await sendWith(agent, k, body, '/api/contact', from);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'idempotency_in_progress' });
  });

  it('keys belong to their actor: another visitor or user with the same key is a new request', async () => {
    const k = key();
    const a = await newAgent(t.app);
    const b = await newAgent(t.app);
    expect((await sendWith(a, k, contact('Actor A'), '/api/contact', ip())).statusCode).toBe(201);
    const res = await sendWith(b, k, contact('Actor A'), '/api/contact', ip());
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await countBySubject('Actor A')).toBe(2);

    const { agent: user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const body = { subject: 'Con cuenta', message: 'Mensaje a los administradores, reenviado.' };
    const one = await user.request({
      method: 'POST',
      url: '/api/contact/sendMessageToAdmin',
      payload: body,
      headers: { 'idempotency-key': k },
    });
    const two = await user.request({
      method: 'POST',
      url: '/api/contact/sendMessageToAdmin',
      payload: body,
      headers: { 'idempotency-key': k },
    });
    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(await countBySubject('Con cuenta')).toBe(1);
  });

  it('an error answer is replayed too, but a rate limit (429) is not stored', async () => {
    const agent = await newAgent(t.app);
    const k = key();
    const from = ip();
    const bad = { ...contact('x'), email: 'no-es-correo' };
    expect((await sendWith(agent, k, bad, '/api/contact', from)).statusCode).toBe(422);
    const again = await sendWith(agent, k, bad, '/api/contact', from);
    expect(again.statusCode).toBe(422);
    // Validation runs before the key is recorded: a refused body leaves no row.
    expect((await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, k))).length).toBe(0);

    const reporter = await newAgent(t.app);
    const rFrom = ip();
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await sendWith(
        reporter,
        `report-${k}-${i}`,
        { ad_id: adId, reason: 'spam', details: `Denuncia repetida número ${i}.`, opened_at: Date.now() - 10_000 },
        '/api/reports',
        rFrom,
      );
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429]);
    expect(
      (
        await t.database.db
          .select()
          .from(idempotencyKeys)
          .where(eq(idempotencyKeys.key, `report-${k}-3`))
      ).length,
    ).toBe(0);
    expect((await t.database.db.select().from(reports).where(eq(reports.adId, adId))).length).toBe(3);
  });

  it('a malformed key is a 400 and nothing runs', async () => {
    const agent = await newAgent(t.app);
    const res = await sendWith(agent, 'short', contact('Clave mala'), '/api/contact', ip());
    expect(res.statusCode).toBe(400);
    expect(await countBySubject('Clave mala')).toBe(0);
  });

  it('a photo upload sent twice (the outbox replaying it) stores the photo once', async () => {
    const model = await buildModel(t.database.db, { name: 'Subida doble' });
    const agent = await loginAs(t.app, t.database.db, model.userId);
    const k = key();
    const data = await jpeg(400, 300);
    // Each send builds its own multipart body, as a browser does for the same FormData.
    const send = () => {
      const body = uploadBody(model.adId, [{ filename: 'foto.jpg', data }]);
      return agent.request({
        method: 'POST',
        url: '/api/upload/images',
        payload: body.payload,
        headers: { ...body.headers, 'idempotency-key': k },
      });
    };
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await t.database.db.select().from(media).where(eq(media.adId, model.adId))).length).toBe(1);
  });
});

describe('Idempotency-Key on a photo upload: the parts count, not the framing (issue 24 A5)', () => {
  it('a replay with a longer boundary gets the stored answer; another file or field is a 422', async () => {
    const model = await buildModel(t.database.db, { name: 'Otra frontera' });
    const other = await buildModel(t.database.db, { name: 'Otro anuncio' });
    const agent = await loginAs(t.app, t.database.db, model.userId);
    const k = key();
    const photo = await jpeg(400, 300);
    const send = (boundary: string, ad = model.adId, data = photo, filename = 'foto.jpg') => {
      const body = multipart(
        [
          { name: 'ad_id', value: String(ad) },
          { name: 'images', filename, data },
        ],
        boundary,
      );
      return agent.request({
        method: 'POST',
        url: '/api/upload/images',
        payload: body.payload,
        headers: { ...body.headers, 'idempotency-key': k },
      });
    };
    const first = await send('----WebKitFormBoundaryA1b2C3d4E5f6G7h8');
    expect(first.statusCode, first.body).toBe(201);
    // What a browser sends for the same FormData the next time: a new boundary, here one character longer.
    const again = await send('----WebKitFormBoundaryZ9y8X7w6V5u4T3s2x');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await t.database.db.select().from(media).where(eq(media.adId, model.adId))).length).toBe(1);

    const otherFile = await send('----WebKitFormBoundaryQ1', model.adId, await jpeg(401, 300));
    expect(otherFile.statusCode).toBe(422);
    expect(otherFile.json()).toMatchObject({ error: 'idempotency_mismatch' });
    const otherName = await send('----WebKitFormBoundaryQ2', model.adId, photo, 'otra.jpg');
    expect(otherName.statusCode).toBe(422);
    const otherField = await send('----WebKitFormBoundaryQ3', other.adId);
    expect(otherField.statusCode).toBe(422);
    expect(otherField.json()).toMatchObject({ error: 'idempotency_mismatch' });
    expect((await t.database.db.select().from(media).where(eq(media.adId, model.adId))).length).toBe(1);
    expect((await t.database.db.select().from(media).where(eq(media.adId, other.adId))).length).toBe(0);
  });

  it('an upload with a key answers as one without: limits, refusals and a malformed body', async () => {
    const model = await buildModel(t.database.db, { name: 'Con clave' });
    const agent = await loginAs(t.app, t.database.db, model.userId);
    const good = uploadBody(model.adId, [
      { filename: 'a.jpg', data: await jpeg(300, 200) },
      { filename: 'b.txt', data: Buffer.from('no es una foto'), contentType: 'text/plain' },
    ]);
    const res = await agent.request({
      method: 'POST',
      url: '/api/upload/images',
      payload: good.payload,
      headers: { ...good.headers, 'idempotency-key': key() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json<{ data: { media: unknown[]; refused: { file: string }[] } }>().data;
    expect(data.media).toHaveLength(1);
    expect(data.refused.map((r) => r.file)).toEqual(['b.txt']);
    const broken = await agent.request({
      method: 'POST',
      url: '/api/upload/images',
      payload: good.payload.subarray(0, 200),
      headers: { ...good.headers, 'idempotency-key': key() },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'malformed_multipart' });
  });
});

describe('Idempotency-Key: the answer commits in the same transaction as the change', () => {
  const adult = () => `${new Date().getUTCFullYear() - 25}-03-14`;
  let place: { country_id: number; state_id: number; city_id: number };
  beforeAll(async () => {
    const db = t.database.db;
    const [spain] = await db.select().from(countries).where(eq(countries.iso2, 'ES'));
    const oviedo = await findCity(db, CITY.oviedo);
    const [city] = await db.select().from(cities).where(eq(cities.id, oviedo.id));
    place = { country_id: spain!.id, state_id: city!.stateId, city_id: oviedo.id };
  });

  const form = (extra: Partial<ModelWithAdInput> = {}): ModelWithAdInput => ({
    display_name: 'Reintentos',
    birth_date: adult(),
    phone_country: 'ES',
    phone: '612 34 56 78',
    whatsapp: true,
    ...place,
    section: 'women',
    title: 'Modelo que edita sin red',
    description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
    ...extra,
  });

  /** A model with a profile and its ad, and a way to send the form with a key. */
  async function modelWithProfile() {
    const { agent } = await signedIn(t.app, t.database.db, { role: 'model' });
    const created = (await agent.post('/api/profile/model-with-ad/create', form())).json<{ data: ModelProfile }>().data;
    const edit = (k: string, extra: Partial<ModelWithAdInput>, version = created.version) =>
      agent.request({
        method: 'PUT',
        url: `/api/profile/model-with-ad/update/${created.id}`,
        payload: { ...form(extra), version },
        headers: { 'idempotency-key': k },
      });
    const versions = async () => {
      const [profile] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, created.id));
      const [ad] = await t.database.db.select().from(ads).where(eq(ads.id, created.ad!.id));
      return { profile: profile!.version, ad: ad!.version, title: ad!.title };
    };
    return { agent, created, edit, versions };
  }

  it('an edit replayed answers the very bytes of the first answer, and the version moves once', async () => {
    const { created, edit, versions } = await modelWithProfile();
    const before = await versions();
    const k = key();
    const first = await edit(k, { title: 'Título cambiado sin red' });
    expect(first.statusCode, first.body).toBe(200);
    const again = await edit(k, { title: 'Título cambiado sin red' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await versions()).toEqual({ profile: before.profile + 1, ad: before.ad + 1, title: 'Título cambiado sin red' });
    expect(first.json<{ data: ModelProfile }>().data.version).toBe(created.version + 1);
  });

  it('the same key sent twice at once makes one change', async () => {
    const { edit, versions } = await modelWithProfile();
    const before = await versions();
    const k = key();
    const answers = await Promise.all([edit(k, { title: 'Dos envíos a la vez' }), edit(k, { title: 'Dos envíos a la vez' })]);
    const codes = answers.map((a) => a.statusCode).sort();
    // The second either waits its turn (409 in progress) or comes after the first answer (replayed); never a 2nd edit.
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(codes);
    expect(await versions()).toEqual({ profile: before.profile + 1, ad: before.ad + 1, title: 'Dos envíos a la vez' });
    const later = await edit(k, { title: 'Dos envíos a la vez' });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.body).toBe(answers.find((a) => a.statusCode === 200)!.body);
  });

  it('the same key with another edit is a 422 and changes nothing', async () => {
    const { edit, versions } = await modelWithProfile();
    const k = key();
    expect((await edit(k, { title: 'La primera edición' })).statusCode).toBe(200);
    const after = await versions();
    const other = await edit(k, { title: 'Otra edición distinta' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ error: 'idempotency_mismatch' });
    expect(await versions()).toEqual(after);
  });

  it('when the answer cannot be stored the change rolls back with it (5xx, nothing kept), and the retry makes it once', async () => {
    const db = t.database.db;
    const { edit, versions } = await modelWithProfile();
    const before = await versions();
    // Storing this key's answer fails inside the edit's transaction, as a lost connection at that moment would.
    await db.execute(
      sql.raw(`CREATE OR REPLACE FUNCTION test_refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.key LIKE 'boom-%' AND NEW.status_code IS NOT NULL THEN RAISE EXCEPTION 'answer refused by the test'; END IF; RETURN NEW; END $$`),
    );
    await db.execute(
      sql.raw('CREATE TRIGGER test_refuse_answer BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION test_refuse_answer()'),
    );
    const k = `boom-${key()}`;
    try {
      const failed = await edit(k, { title: 'Un cambio que no se guarda' });
      expect(failed.statusCode).toBe(500);
      expect(await versions()).toEqual(before);
      expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, k))).toEqual([]);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER test_refuse_answer ON idempotency_keys'));
    }
    const retry = await edit(k, { title: 'Un cambio que no se guarda' });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await versions()).toEqual({ profile: before.profile + 1, ad: before.ad + 1, title: 'Un cambio que no se guarda' });
  });

  it('the ad switch, a cover change, a photo deletion and a chat message replay their answer and act once', async () => {
    const model = await buildModel(t.database.db, { name: 'Cuatro reintentos', photos: 3 });
    const agent = await loginAs(t.app, t.database.db, model.userId);
    const twice = async (method: string, url: string, payload?: unknown) => {
      const k = key();
      const send = () =>
        agent.request({ method, url, headers: { 'idempotency-key': k }, ...(payload === undefined ? {} : { payload: payload as object }) });
      const first = await send();
      const again = await send();
      expect(first.statusCode, first.body).toBeLessThan(300);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect([again.statusCode, again.body]).toEqual([first.statusCode, first.body]);
      return first;
    };

    await twice('PUT', `/api/profile/model/activate/${model.adId}/0`);
    const [ad] = await t.database.db.select().from(ads).where(eq(ads.id, model.adId));
    expect(ad!.isActive).toBe(false);

    const [, second, third] = model.mediaIds;
    await twice('PUT', `/api/change-cover-picture/${third}`);
    const deleted = await twice('POST', '/api/media/delete', { media_id: second });
    const rows = await t.database.db.select().from(media).where(eq(media.adId, model.adId));
    expect(rows.map((m) => m.id).sort()).toEqual(model.mediaIds.filter((id) => id !== second).sort());
    expect(rows.find((m) => m.isCover)?.id).toBe(third);
    expect(deleted.json<{ data: { media: unknown[] } }>().data.media).toHaveLength(2);

    const conversation = (await agent.post(API.supportConversations, {})).json<{ data: { id: number } }>().data;
    await twice('POST', API.supportMessages(conversation.id), { content: 'Escrito en un túnel, enviado al salir.' });
    const messages = await t.database.db.select().from(supportMessages).where(eq(supportMessages.conversationId, conversation.id));
    expect(messages.map((m) => m.content)).toEqual(['Escrito en un túnel, enviado al salir.']);
  });

  it('adding an ad and deleting one replay their answer: one new ad, and the retried delete is no 404', async () => {
    const { agent, created } = await modelWithProfile();
    const send = (k: string, method: string, url: string, payload?: object) =>
      agent.request({ method, url, headers: { 'idempotency-key': k }, ...(payload ? { payload } : {}) });
    const adsOf = async () => (await t.database.db.select().from(ads).where(eq(ads.modelProfileId, created.id))).length;
    const k = key();
    const {
      display_name: _name,
      birth_date: _birth,
      phone_country: _pc,
      phone: _phone,
      whatsapp: _wa,
      ...adForm
    } = form({
      title: 'Un segundo anuncio sin red',
    });
    const first = await send(k, 'POST', '/api/ad/create', adForm);
    expect(first.statusCode, first.body).toBe(201);
    const again = await send(k, 'POST', '/api/ad/create', adForm);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect([again.statusCode, again.body]).toEqual([201, first.body]);
    expect(await adsOf()).toBe(2);

    const d = key();
    const adId = first.json<{ data: { id: number } }>().data.id;
    const gone = await send(d, 'DELETE', `/api/ad/${adId}`);
    expect(gone.statusCode, gone.body).toBe(200);
    const goneAgain = await send(d, 'DELETE', `/api/ad/${adId}`);
    expect(goneAgain.headers['idempotent-replayed']).toBe('true');
    expect([goneAgain.statusCode, goneAgain.body]).toEqual([200, gone.body]);
    expect(await adsOf()).toBe(1);
  });

  it("a publicist's edit of their model and its ad switch replay their answer and act once", async () => {
    const db = t.database.db;
    const p = await buildPublicist(db);
    const agent = await loginAs(t.app, db, p.userId);
    const model: PublicistModelInput = {
      display_name: 'Modelo de agencia',
      birth_date: adult(),
      contact_email: `agencia-${Date.now()}@example.test`,
      whatsapp: false,
      ...place,
      section: 'women',
      title: 'Modelo de agencia en Oviedo',
      description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo. Disponible entre semana.',
    };
    const created = (await agent.post('/api/publicist/model/create', model)).json<{ data: PublicistModel }>().data;
    const send = (k: string, method: string, url: string, payload?: object) =>
      agent.request({ method, url, headers: { 'idempotency-key': k }, ...(payload ? { payload } : {}) });

    const k = key();
    const edit = { ...model, title: 'Editado por la agencia sin red', version: created.version };
    const first = await send(k, 'PUT', `/api/publicist/model/update/${created.id}`, edit);
    expect(first.statusCode, first.body).toBe(200);
    const again = await send(k, 'PUT', `/api/publicist/model/update/${created.id}`, edit);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect([again.statusCode, again.body]).toEqual([200, first.body]);
    const [profile] = await db.select().from(modelProfiles).where(eq(modelProfiles.id, created.id));
    expect(profile!.version).toBe(created.version + 1);

    const s = key();
    const off = await send(s, 'PUT', `/api/publicist/model/activate/${created.id}/0`);
    expect(off.statusCode, off.body).toBe(200);
    const offAgain = await send(s, 'PUT', `/api/publicist/model/activate/${created.id}/0`);
    expect(offAgain.headers['idempotent-replayed']).toBe('true');
    expect(offAgain.body).toBe(off.body);
    const [ad] = await db.select().from(ads).where(eq(ads.modelProfileId, created.id));
    expect(ad!.isActive).toBe(false);
  });

  it('a first attempt whose key a retry has taken over (abandoned) cannot commit its change', async () => {
    const db = t.database.db;
    const k = key();
    const claimedAt = new Date(Date.now() - 3 * 60_000);
    await db
      .insert(idempotencyKeys)
      .values({ key: k, actor: 'test', method: 'POST', path: '/api/contact', requestHash: 'x', createdAt: claimedAt });
    // The retry, after two minutes without an answer, dropped that claim and made its own.
    await db.update(idempotencyKeys).set({ createdAt: new Date() }).where(eq(idempotencyKeys.key, k));
    const req = { idempotency: { key: k, actor: 'test', createdAt: claimedAt, route: 'POST /api/contact' }, server: t.app };
    const reply = { code: () => reply, serialize: (body: unknown) => JSON.stringify(body) };
    const once = answerOnce(req as never, reply as never, 201, (subject: string) => ({ subject }));
    const late = db.transaction(async (tx) => {
      await tx
        .insert(contactMessages)
        .values({ kind: 'contact', name: 'Tarde', email: 'tarde@example.test', subject: 'Primer intento tardío', message: 'x' });
      await once.commit!(tx, 'Primer intento tardío');
    });
    await expect(late).rejects.toMatchObject({ status: 409, code: 'idempotency_in_progress' });
    expect(await countBySubject('Primer intento tardío')).toBe(0);
  });
});
