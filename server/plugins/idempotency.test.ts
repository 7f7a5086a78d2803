import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, idempotencyKeys, media, reports } from '#server/db/schema.ts';
import { loginAs, uploadBody } from '#server/modules/media/test-helpers.ts';
import { jpeg } from '#server/modules/media/test-images.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
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
