import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '#contract/admin.ts';
import type { Statement, StatementList } from '#contract/statements.ts';
import { ads, appeals, auditLog, media, modelProfiles, statements, users, verificationRequests } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';
import { issueStatement } from '../statements/statements.ts';

let t: TestApp;
const as: Record<'client' | 'model' | 'publicist' | 'admin' | 'super_admin', Agent> = {} as never;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  for (const role of ['client', 'model', 'publicist', 'admin', 'super_admin'] as const) {
    const { agent, user } = await signedIn(t.app, db, { role });
    as[role] = agent;
    if (role === 'admin') adminId = user.id;
  }
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const outbox = () => t.app.mailer.outbox;
const lastMailTo = (to: string) => [...outbox()].reverse().find((m) => m.to === to);

async function emailOf(userId: number) {
  const [row] = await db().select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row!.email;
}

const STAFF_GETS = [
  '/api/admin/counts',
  '/api/admin/models',
  '/api/admin/models-under-responsibility',
  '/api/admin/publicists',
  '/api/admin/ads',
  '/api/admin/clients',
  '/api/admin/users-without-profile',
  '/api/admin/photos',
  '/api/admin/verifications',
  '/api/admin/appeals',
];
const SUPER_GETS = ['/api/super-admin/audit', '/api/super-admin/admins'];

describe('who may call the staff routes', () => {
  it.each(STAFF_GETS)('%s: 401 anonymous, 403 client/model/publicist, 200 admin and super admin', async (url) => {
    expect((await (await newAgent(t.app)).get(url)).statusCode).toBe(401);
    for (const role of ['client', 'model', 'publicist'] as const) expect((await as[role].get(url)).statusCode, role).toBe(403);
    for (const role of ['admin', 'super_admin'] as const) expect((await as[role].get(url)).statusCode, role).toBe(200);
  });

  it.each(SUPER_GETS)('%s: super admin only', async (url) => {
    expect((await (await newAgent(t.app)).get(url)).statusCode).toBe(401);
    for (const role of ['client', 'model', 'publicist', 'admin'] as const) expect((await as[role].get(url)).statusCode, role).toBe(403);
    expect((await as.super_admin.get(url)).statusCode).toBe(200);
  });

  it('decisions and appeal decisions: 401 / 403 before validation', async () => {
    for (const url of ['/api/admin/decisions', '/api/admin/appeals/1/decide']) {
      expect((await (await newAgent(t.app)).post(url, {})).statusCode).toBe(401);
      for (const role of ['client', 'model', 'publicist'] as const) expect((await as[role].post(url, {})).statusCode, role).toBe(403);
    }
  });

  it('the selfie route and a client record are staff only', async () => {
    const m = await buildModel(db(), { name: 'Selfie' });
    const [v] = await db()
      .insert(verificationRequests)
      .values({
        modelProfileId: m.profileId,
        code: 'ABC234',
        status: 'pending',
        photoKey: 'verification/x/none.webp',
        expiresAt: new Date(Date.now() + 60_000),
      })
      .returning();
    expect((await as.model.get(`/api/admin/verifications/${v!.id}/selfie`)).statusCode).toBe(403);
    // Recorded key with no file behind it: 404, never a 500.
    expect((await as.admin.get(`/api/admin/verifications/${v!.id}/selfie`)).statusCode).toBe(404);
    await db().update(verificationRequests).set({ status: 'rejected' }).where(eq(verificationRequests.id, v!.id));
  });
});

describe('validation', () => {
  it('query: unknown status or parameter is a 400', async () => {
    expect((await as.admin.get('/api/admin/models?status=bogus')).statusCode).toBe(422);
    expect((await as.admin.get('/api/admin/ads?page=0')).statusCode).toBe(422);
    expect((await as.admin.get('/api/admin/ads?nope=1')).statusCode).toBe(422);
    expect((await as.super_admin.get('/api/super-admin/audit?from=yesterday')).statusCode).toBe(422);
  });

  it('a restriction needs reason codes and an explanation (422 per field)', async () => {
    const res = await as.admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: 1, action: 'reject' });
    expect(res.statusCode).toBe(422);
    const errors = res.json<{ errors: Record<string, string[]> }>().errors;
    expect(Object.keys(errors).sort()).toEqual(['reason_codes', 'text']);
  });

  it('an action that does not apply, an unknown reason code or a bad id is a 422', async () => {
    const bad = [
      { subject_type: 'media', subject_id: 1, action: 'suspend' },
      { subject_type: 'ad', subject_id: 1, action: 'reject', reason_codes: ['bogus'], text: 'long enough text' },
      { subject_type: 'ad', subject_id: -1, action: 'approve' },
      { subject_type: 'nothing', subject_id: 1, action: 'approve' },
    ];
    for (const body of bad) expect((await as.admin.post('/api/admin/decisions', body)).statusCode, JSON.stringify(body)).toBe(422);
  });

  it('unknown ids: 404', async () => {
    expect((await as.admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: 999999, action: 'approve' })).statusCode).toBe(
      404,
    );
    expect((await as.admin.get('/api/admin/clients/999999')).statusCode).toBe(404);
    expect((await as.admin.get('/api/admin/clients/abc')).statusCode).toBe(404);
    expect((await as.admin.post('/api/admin/appeals/999999/decide', { outcome: 'upheld', text: 'long enough text' })).statusCode).toBe(404);
  });
});

describe('lists', () => {
  it('ads answer data and ads (same array), count and meta; status=pending is the review queue with photos', async () => {
    const m = await buildModel(db(), { name: 'Pendiente Lista', adStatus: 'pending', photos: 2 });
    const res = await as.admin.get('/api/admin/ads?status=pending&search=Pendiente%20Lista');
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      data: { id: number; photos: unknown[]; profile: { id: number } }[];
      ads: unknown[];
      count: number;
      meta: { total: number };
    }>();
    expect(body.ads).toEqual(body.data);
    expect(body.count).toBe(1);
    expect(body.meta.total).toBe(1);
    expect(body.data[0]!.id).toBe(m.adId);
    expect(body.data[0]!.photos).toHaveLength(2);
    expect(body.data[0]!.profile.id).toBe(m.profileId);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('models under responsibility carry the publicist; publicists carry trader details', async () => {
    const p = await buildPublicist(db(), { name: 'Agencia Lista', status: 'pending' });
    await db().insert(modelProfiles).values({ publicistId: p.publicistId, displayName: 'Modelo de Agencia', consentStatus: 'pending' });
    const models = (await as.admin.get('/api/admin/models-under-responsibility?search=Modelo%20de%20Agencia')).json<{
      data: { publicist: { display_name: string } }[];
    }>();
    expect(models.data[0]!.publicist.display_name).toBe('Agencia Lista');
    const pubs = (await as.super_admin.get('/api/admin/publicists?status=pending&search=Agencia%20Lista')).json<{
      data: { tax_id: string; legal_name: string }[];
    }>();
    expect(pubs.data[0]).toMatchObject({ tax_id: 'B12345678', legal_name: 'Agencia de Pruebas S.L.' });
  });

  it('clients, a client, users without profile, counts', async () => {
    const c = await buildUser(db(), { role: 'client', name: 'Cliente Buscado' });
    const list = (await as.admin.get('/api/admin/clients?search=Cliente%20Buscado')).json<{ data: { id: number }[] }>();
    expect(list.data.map((u) => u.id)).toEqual([c.id]);
    expect((await as.admin.get(`/api/admin/clients/${c.id}`)).json<{ data: { email: string } }>().data.email).toBe(c.email);
    // A model's id is not a client.
    const m = await buildModel(db(), { name: 'No Cliente' });
    expect((await as.admin.get(`/api/admin/clients/${m.userId}`)).statusCode).toBe(404);
    const lonely = await buildUser(db(), { role: 'model', name: 'Sin Perfil Nadie' });
    const without = (await as.admin.get('/api/admin/users-without-profile?search=Sin%20Perfil%20Nadie')).json<{ data: { id: number }[] }>();
    expect(without.data.map((u) => u.id)).toEqual([lonely.id]);
    const counts = (await as.admin.get('/api/admin/counts')).json<{ data: Record<string, number> }>().data;
    expect(Object.keys(counts).sort()).toEqual(
      [
        'agency_models_pending',
        'agency_models_unverified',
        'new_messages',
        'open_appeals',
        'open_reports',
        'pending_ads',
        'pending_publicists',
        'pending_verifications',
        'pending_photos',
      ].sort(),
    );
  });
});

describe("the dashboard counts an agency's models awaiting review", () => {
  it('counts models under responsibility per status (unverified, pending); own models and active ones do not count', async () => {
    const counts = async () => (await as.admin.get('/api/admin/counts')).json<{ data: Record<string, number> }>().data;
    const before = await counts();
    const p = await buildPublicist(db(), { name: 'Agencia Contada' });
    await db()
      .insert(modelProfiles)
      .values([
        { publicistId: p.publicistId, displayName: 'Agencia Nueva 1', consentStatus: 'pending', status: 'unverified' },
        { publicistId: p.publicistId, displayName: 'Agencia Nueva 2', consentStatus: 'pending', status: 'unverified' },
        { publicistId: p.publicistId, displayName: 'Agencia En Cola', consentStatus: 'given', status: 'pending' },
        { publicistId: p.publicistId, displayName: 'Agencia Activa', consentStatus: 'given', status: 'active' },
      ]);
    // A model's own profile is not the agency's.
    await buildModel(db(), { name: 'Propia Sin Verificar', profileStatus: 'unverified' });
    const after = await counts();
    expect(after.agency_models_unverified! - before.agency_models_unverified!).toBe(2);
    expect(after.agency_models_pending! - before.agency_models_pending!).toBe(1);
    // The super admin's dashboard reads the same counts; the list the tile links to holds the same models.
    expect((await as.super_admin.get('/api/admin/counts')).json<{ data: Record<string, number> }>().data).toEqual(after);
    const listed = (await as.admin.get('/api/admin/models-under-responsibility?status=unverified&per_page=100')).json<{
      meta: { total: number };
    }>();
    expect(listed.meta.total).toBe(after.agency_models_unverified);
  });

  it("the ads list names a publicist model's agency and consent status (null agency for a model's own ad)", async () => {
    const p = await buildPublicist(db(), { name: 'Agencia Del Anuncio' });
    const own = await buildModel(db(), { name: 'Modelo Independiente Ads', adStatus: 'pending' });
    const [profile] = await db()
      .update(modelProfiles)
      .set({ publicistId: p.publicistId, userId: null, consentStatus: 'pending' })
      .where(eq(modelProfiles.id, own.profileId))
      .returning({ id: modelProfiles.id });
    expect(profile).toBeDefined();
    const other = await buildModel(db(), { name: 'Modelo Sola Ads', adStatus: 'pending' });
    type Row = { id: number; publicist: { id: number; display_name: string } | null; profile: { consent_status: string } };
    const rows = (await as.admin.get('/api/admin/ads?status=all&per_page=100')).json<{ data: Row[] }>().data;
    const agencyAd = rows.find((r) => r.id === own.adId)!;
    expect(agencyAd.publicist).toEqual({ id: p.publicistId, display_name: 'Agencia Del Anuncio' });
    expect(agencyAd.profile.consent_status).toBe('pending');
    expect(rows.find((r) => r.id === other.adId)!.publicist).toBeNull();
  });
});

describe("a client's record lists their statements of reasons", () => {
  type ClientRecord = { data: AdminClient };

  it('401 anonymous, 403 for client, model and publicist, 200 for admin and super admin', async () => {
    const c = await buildUser(db(), { role: 'client', name: 'Cliente Protegido' });
    const url = `/api/admin/clients/${c.id}`;
    expect((await (await newAgent(t.app)).get(url)).statusCode).toBe(401);
    for (const role of ['client', 'model', 'publicist'] as const) expect((await as[role].get(url)).statusCode, role).toBe(403);
    for (const role of ['admin', 'super_admin'] as const) expect((await as[role].get(url)).statusCode, role).toBe(200);
    // The client themself gets no staff view either.
    const own = await loginAs(t.app, db(), c.id);
    expect((await own.get(url)).statusCode).toBe(403);
  });

  it("answers the statements newest first with reasons and appeal status, paged, and only that client's", async () => {
    const c = await buildUser(db(), { role: 'client', name: 'Cliente Con Historial' });
    const other = await buildUser(db(), { role: 'client', name: 'Otro Cliente' });
    const recipient = { id: c.id, name: 'Cliente Con Historial', email: c.email, locale: 'es' };
    const first = await issueStatement(db(), t.app, {
      subjectType: 'user',
      subjectId: c.id,
      decision: 'suspended',
      reasonCodes: ['spam', 'other'],
      facts: 'Mensajes repetidos a muchas modelos.',
      decidedBy: adminId,
      recipient,
    });
    await db()
      .update(statements)
      .set({ createdAt: new Date(Date.now() - 86_400_000) })
      .where(eq(statements.id, first.statement.id));
    await db().insert(appeals).values({ statementId: first.statement.id, userId: c.id, text: 'No fui yo, me robaron la cuenta.' });
    const second = await issueStatement(db(), t.app, {
      subjectType: 'user',
      subjectId: c.id,
      decision: 'paused',
      reasonCodes: ['identity'],
      facts: 'La cuenta usa la identidad de otra persona.',
      recipient,
    });
    await issueStatement(db(), t.app, {
      subjectType: 'user',
      subjectId: other.id,
      decision: 'suspended',
      reasonCodes: ['spam'],
      facts: 'Otra persona, otra historia.',
    });

    const res = await as.admin.get(`/api/admin/clients/${c.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const data = res.json<ClientRecord>().data;
    expect(data).toMatchObject({ id: c.id, email: c.email, role: 'client', statements: 2 });
    expect(data.statement_list.meta).toMatchObject({ total: 2, current_page: 1, last_page: 1, per_page: 20 });
    expect(data.statement_list.data.map((s) => s.id)).toEqual([second.statement.id, first.statement.id]);
    expect(data.statement_list.data[1]).toMatchObject({
      subject_type: 'user',
      subject_id: c.id,
      subject_label: 'Cliente Con Historial',
      decision: 'suspended',
      ground: 'spam',
      reason_codes: ['spam', 'other'],
      facts: 'Mensajes repetidos a muchas modelos.',
      automated: false,
      can_appeal: false,
      appeal: { status: 'pending', text: 'No fui yo, me robaron la cuenta.' },
    });
    expect(data.statement_list.data[0]).toMatchObject({ decision: 'paused', can_appeal: true, appeal: null });

    const page2 = (await as.super_admin.get(`/api/admin/clients/${c.id}?page=2&per_page=1`)).json<ClientRecord>().data;
    expect(page2.statements).toBe(2);
    expect(page2.statement_list.meta).toMatchObject({ current_page: 2, last_page: 2, per_page: 1, from: 2, to: 2 });
    expect(page2.statement_list.data.map((s) => s.id)).toEqual([first.statement.id]);
  });

  it('a client without statements: count 0 and an empty page; bad paging is a 400', async () => {
    const c = await buildUser(db(), { role: 'client', name: 'Cliente Sin Historial' });
    const data = (await as.admin.get(`/api/admin/clients/${c.id}`)).json<ClientRecord>().data;
    expect(data.statements).toBe(0);
    expect(data.statement_list).toMatchObject({ data: [], meta: { total: 0, from: null, to: null } });
    for (const q of ['page=0', 'per_page=51', 'status=active']) {
      expect((await as.admin.get(`/api/admin/clients/${c.id}?${q}`)).statusCode, q).toBe(422);
    }
  });
});

describe('a decision produces a statement the user can see and appeal once', () => {
  it('reject → statement + mail + audit; appeal once; admin reverses; the ad is pending again', async () => {
    const m = await buildModel(db(), { name: 'Recurrente', adStatus: 'pending' });
    const model = await loginAs(t.app, db(), m.userId);
    const email = await emailOf(m.userId);

    const res = await as.admin.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'reject',
      reason_codes: ['photo_rules', 'incomplete'],
      text: 'Las fotos no muestran a la persona del anuncio.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<{ data: { statement_id: number; before: { status: string }; after: { status: string } } }>().data;
    expect(result.before.status).toBe('pending');
    expect(result.after.status).toBe('rejected');
    const [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(ad!.status).toBe('rejected');

    const mail = lastMailTo(email)!;
    expect(mail.subject).toMatch(/Declaración de motivos/);
    expect(mail.text).toContain('Las fotos no muestran a la persona del anuncio.');
    expect(mail.text).toContain(`/es/statements/${result.statement_id}`);

    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'ad.reject'));
    expect(entry).toMatchObject({ actorId: adminId, subjectType: 'ad', subjectId: m.adId });
    expect(entry!.before).toMatchObject({ status: 'pending' });
    expect(entry!.after).toMatchObject({ status: 'rejected', statement_id: result.statement_id });

    const list = (await model.get('/api/statements')).json<StatementList>();
    expect(list.meta.total).toBe(1);
    const s = list.data[0]!;
    expect(s).toMatchObject({
      id: result.statement_id,
      subject_type: 'ad',
      subject_label: ad!.title,
      decision: 'rejected',
      ground: 'photo_rules',
      reason_codes: ['photo_rules', 'incomplete'],
      automated: false,
      can_appeal: true,
      appeal: null,
    });
    const until = new Date(s.appeal_until).getTime() - Date.now();
    expect(until).toBeGreaterThan(170 * 86_400_000);

    // Nobody else sees it.
    expect((await as.client.get(`/api/statements/${s.id}`)).statusCode).toBe(403);
    expect((await as.client.post(`/api/statements/${s.id}/appeal`, { text: 'Not mine but trying anyway' })).statusCode).toBe(403);
    expect((await model.get('/api/statements/999999')).statusCode).toBe(404);
    expect((await (await newAgent(t.app)).get('/api/statements')).statusCode).toBe(401);

    expect((await model.post(`/api/statements/${s.id}/appeal`, { text: 'corto' })).statusCode).toBe(422);
    const appealed = await model.post(`/api/statements/${s.id}/appeal`, { text: 'Las fotos son mías, puedo enviar más.' });
    expect(appealed.statusCode, appealed.body).toBe(201);
    expect(appealed.json<{ data: Statement }>().data).toMatchObject({ can_appeal: false, appeal: { status: 'pending' } });
    expect((await model.post(`/api/statements/${s.id}/appeal`, { text: 'Otra vez, por si acaso.' })).statusCode).toBe(409);

    const queue = (await as.admin.get('/api/admin/appeals')).json<{ data: { id: number; statement: { id: number } }[] }>();
    const appeal = queue.data.find((a) => a.statement.id === s.id)!;
    expect(appeal).toBeDefined();
    expect((await as.admin.post(`/api/admin/appeals/${appeal.id}/decide`, { outcome: 'maybe', text: 'long enough text' })).statusCode).toBe(
      422,
    );
    const decided = await as.super_admin.post(`/api/admin/appeals/${appeal.id}/decide`, {
      outcome: 'reversed',
      text: 'Revisadas las fotos: son de la modelo.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    // A rejection reversed on appeal approves the ad.
    const [back] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(back!.status).toBe('active');
    expect(lastMailTo(email)!.text).toContain('Revisadas las fotos: son de la modelo.');
    expect(
      (await as.admin.post(`/api/admin/appeals/${appeal.id}/decide`, { outcome: 'upheld', text: 'long enough text' })).statusCode,
    ).toBe(409);
    const [audited] = await db().select().from(auditLog).where(eq(auditLog.action, 'appeal.reversed'));
    expect(audited).toMatchObject({ subjectType: 'appeal', subjectId: appeal.id });
    const shown = (await model.get(`/api/statements/${s.id}`)).json<{ data: Statement }>().data;
    expect(shown.appeal).toMatchObject({ status: 'reversed', decision_text: 'Revisadas las fotos: son de la modelo.' });
  });

  it('an appeal after appeal_until is refused (409)', async () => {
    const m = await buildModel(db(), { name: 'Tarde' });
    const model = await loginAs(t.app, db(), m.userId);
    const res = await as.admin.post('/api/admin/decisions', {
      subject_type: 'model_profile',
      subject_id: m.profileId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'Anuncios duplicados en varias ciudades.',
    });
    expect(res.statusCode).toBe(200);
    const id = res.json<{ data: { statement_id: number } }>().data.statement_id;
    const [profile] = await db().select().from(modelProfiles).where(eq(modelProfiles.id, m.profileId));
    expect(profile!.status).toBe('suspended');
    // The ads trigger unlists the ad with its profile.
    const [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(ad!.isListed).toBe(false);
    await db()
      .update(statements)
      .set({ appealUntil: new Date(Date.now() - 1000) })
      .where(eq(statements.id, id));
    expect((await model.get(`/api/statements/${id}`)).json<{ data: Statement }>().data.can_appeal).toBe(false);
    expect((await model.post(`/api/statements/${id}/appeal`, { text: 'Demasiado tarde, lo sé.' })).statusCode).toBe(409);
    expect(await db().select().from(appeals).where(eq(appeals.statementId, id))).toHaveLength(0);
  });

  it("a publicist's model without an account: the publicist is told", async () => {
    const p = await buildPublicist(db());
    const [model] = await db()
      .insert(modelProfiles)
      .values({ publicistId: p.publicistId, displayName: 'Sin Cuenta', consentStatus: 'given', status: 'pending' })
      .returning();
    const res = await as.admin.post('/api/admin/decisions', {
      subject_type: 'model_profile',
      subject_id: model!.id,
      action: 'reject',
      reason_codes: ['identity'],
      text: 'No coincide con el documento.',
    });
    expect(res.statusCode).toBe(200);
    const [s] = await db()
      .select()
      .from(statements)
      .where(eq(statements.id, res.json<{ data: { statement_id: number } }>().data.statement_id));
    expect(s!.userId).toBe(p.userId);
  });

  it('approve / reinstate issue no statement but are audited', async () => {
    const m = await buildModel(db(), { name: 'Aprobada', adStatus: 'pending' });
    const res = await as.admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: m.adId, action: 'approve' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { statement_id: null } }>().data.statement_id).toBeNull();
    const [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(ad).toMatchObject({ status: 'active', isListed: true });
    const entries = await db().select().from(auditLog).where(eq(auditLog.subjectId, m.adId));
    expect(entries.some((e) => e.action === 'ad.approve')).toBe(true);
  });
});

describe('verifications, photos, publicists', () => {
  it('approving a verification makes the profile active; rejecting a decided one is a 409', async () => {
    const m = await buildModel(db(), { name: 'Verificada', profileStatus: 'pending' });
    const key = `verification/${m.profileId}/test.webp`;
    await t.app.storage.put(key, Buffer.from('RIFF....WEBP'));
    const [v] = await db()
      .insert(verificationRequests)
      .values({
        modelProfileId: m.profileId,
        code: 'XYZ789',
        status: 'pending',
        photoKey: key,
        submittedAt: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .returning();
    const queue = (await as.admin.get('/api/admin/verifications')).json<{ data: { id: number; selfie_url: string }[] }>();
    const item = queue.data.find((r) => r.id === v!.id)!;
    const selfie = await as.admin.get(item.selfie_url);
    expect(selfie.statusCode).toBe(200);
    expect(selfie.headers['cache-control']).toBe('private, no-store');
    // /media/* never serves private storage.
    expect((await as.admin.get(`/media/${key}`)).statusCode).toBe(404);

    const res = await as.admin.post('/api/admin/decisions', { subject_type: 'verification', subject_id: v!.id, action: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    const [profile] = await db().select().from(modelProfiles).where(eq(modelProfiles.id, m.profileId));
    expect(profile!.status).toBe('active');
    const again = await as.admin.post('/api/admin/decisions', {
      subject_type: 'verification',
      subject_id: v!.id,
      action: 'reject',
      reason_codes: ['identity'],
      text: 'La cara no coincide con las fotos.',
    });
    expect(again.statusCode).toBe(409);
  });

  it('removing a photo states the moderation scores and audits the photo', async () => {
    const m = await buildModel(db(), { name: 'Foto Quitada', photos: 2 });
    const scores = { sexual_activity: 0.01, sexual_display: 0.02, erotica: 0.3 };
    await db()
      .update(media)
      .set({ moderation: { provider: 'stub', scores, checked_at: new Date().toISOString() } })
      .where(eq(media.id, m.mediaIds[0]!));
    const photos = (await as.admin.get('/api/admin/photos')).json<{
      data: { media_id: number; moderation: { scores: unknown } | null }[];
    }>();
    expect(photos.data.find((p) => p.media_id === m.mediaIds[0])!.moderation!.scores).toEqual(scores);
    const res = await as.admin.post('/api/admin/decisions', {
      subject_type: 'media',
      subject_id: m.mediaIds[0],
      action: 'remove',
      reason_codes: ['photo_rules'],
      text: 'La foto muestra a otra persona.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().select().from(media).where(eq(media.id, m.mediaIds[0]!))).toHaveLength(0);
    // The remaining photo became the cover.
    const [rest] = await db().select().from(media).where(eq(media.id, m.mediaIds[1]!));
    expect(rest!.isCover).toBe(true);
    const [s] = await db()
      .select()
      .from(statements)
      .where(eq(statements.id, res.json<{ data: { statement_id: number } }>().data.statement_id));
    expect(s).toMatchObject({ userId: m.userId, decision: 'removed', automatedDetail: { moderation: { provider: 'stub', scores } } });
  });

  it('approving a publicist profile', async () => {
    const p = await buildPublicist(db(), { status: 'pending' });
    const res = await as.super_admin.post('/api/admin/decisions', {
      subject_type: 'publicist_profile',
      subject_id: p.publicistId,
      action: 'approve',
    });
    expect(res.statusCode).toBe(200);
    const pubs = (await as.admin.get(`/api/admin/publicists?status=active`)).json<{ data: { id: number }[] }>();
    expect(pubs.data.some((x) => x.id === p.publicistId)).toBe(true);
  });
});

describe('more decisions and their reversal', () => {
  it('a rejected verification, appealed and reversed, makes the profile active', async () => {
    const m = await buildModel(db(), { name: 'Rechazada Verif', profileStatus: 'pending' });
    const model = await loginAs(t.app, db(), m.userId);
    const [v] = await db()
      .insert(verificationRequests)
      .values({
        modelProfileId: m.profileId,
        code: 'QWE234',
        status: 'pending',
        submittedAt: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .returning();
    const res = await as.admin.post('/api/admin/decisions', {
      subject_type: 'verification',
      subject_id: v!.id,
      action: 'reject',
      reason_codes: ['identity'],
      text: 'El código de la foto no se lee.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [rejected] = await db().select().from(modelProfiles).where(eq(modelProfiles.id, m.profileId));
    expect(rejected).toMatchObject({ status: 'rejected', reasons: { codes: ['identity'], text: 'El código de la foto no se lee.' } });
    const statementId = res.json<{ data: { statement_id: number } }>().data.statement_id;
    expect((await model.post(`/api/statements/${statementId}/appeal`, { text: 'Envío otra foto más clara.' })).statusCode).toBe(201);
    const [appeal] = await db().select().from(appeals).where(eq(appeals.statementId, statementId));
    expect(
      (await as.admin.post(`/api/admin/appeals/${appeal!.id}/decide`, { outcome: 'reversed', text: 'Revisado: el código se lee.' }))
        .statusCode,
    ).toBe(200);
    const [profile] = await db().select().from(modelProfiles).where(eq(modelProfiles.id, m.profileId));
    expect(profile!.status).toBe('active');
    const [request] = await db().select().from(verificationRequests).where(eq(verificationRequests.id, v!.id));
    expect(request!.status).toBe('approved');
  });

  it('pause then reinstate an ad; upheld appeals change nothing', async () => {
    const m = await buildModel(db(), { name: 'Pausada' });
    const model = await loginAs(t.app, db(), m.userId);
    const paused = await as.admin.post('/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'pause',
      reason_codes: ['incomplete'],
      text: 'Falta la ciudad correcta del anuncio.',
    });
    expect(paused.statusCode).toBe(200);
    let [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(ad).toMatchObject({ status: 'paused', isListed: false });
    const statementId = paused.json<{ data: { statement_id: number } }>().data.statement_id;
    expect((await model.post(`/api/statements/${statementId}/appeal`, { text: 'La ciudad es la correcta.' })).statusCode).toBe(201);
    const [appeal] = await db().select().from(appeals).where(eq(appeals.statementId, statementId));
    expect(
      (await as.admin.post(`/api/admin/appeals/${appeal!.id}/decide`, { outcome: 'upheld', text: 'La ciudad no coincide con el texto.' }))
        .statusCode,
    ).toBe(200);
    [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(ad!.status).toBe('paused');
    expect((await as.admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: m.adId, action: 'reinstate' })).statusCode).toBe(
      200,
    );
    [ad] = await db().select().from(ads).where(eq(ads.id, m.adId));
    expect(ad).toMatchObject({ status: 'active', isListed: true });
  });

  it('search treats % and _ literally', async () => {
    const res = await as.admin.get('/api/admin/models?search=%25%25%25');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: unknown[] }>().data).toEqual([]);
  });
});

describe('the audit log', () => {
  it('super admins read it with filters', async () => {
    const res = await as.super_admin.get('/api/super-admin/audit?action=ad.&per_page=5');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: { action: string; actor: { email: string } }[]; meta: { per_page: number } }>();
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((e) => e.action.startsWith('ad.'))).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const byDate = (await as.super_admin.get(`/api/super-admin/audit?from=${today}&to=${today}`)).json<{ meta: { total: number } }>();
    expect(byDate.meta.total).toBeGreaterThan(0);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await as.super_admin.get(`/api/super-admin/audit?from=${tomorrow}`)).json<{ meta: { total: number } }>().meta.total).toBe(0);
    const byActor = (await as.super_admin.get(`/api/super-admin/audit?actor=${adminId}`)).json<{ data: { actor: { id: number } }[] }>();
    expect(byActor.data.every((e) => e.actor.id === adminId)).toBe(true);
  });

  it('no route edits or deletes it, and the database refuses UPDATE / DELETE', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await as.super_admin.request({ method, url: '/api/super-admin/audit' });
      expect([404, 405]).toContain(res.statusCode);
    }
    const refusal = async (q: Promise<unknown>) => {
      try {
        await q;
        return 'accepted';
      } catch (err) {
        const e = err as Error & { cause?: Error };
        return `${e.message} ${e.cause?.message ?? ''}`;
      }
    };
    expect(await refusal(db().execute(sql`update audit_log set action = 'x'`))).toMatch(/append-only/);
    expect(await refusal(db().execute(sql`delete from audit_log`))).toMatch(/append-only/);
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog);
    expect(row!.n).toBeGreaterThan(0);
  });
});
