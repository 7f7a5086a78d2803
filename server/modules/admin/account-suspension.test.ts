/**
 * Account-level suspension (issue 12 point 9, issue 24 point 11): staff suspend a client, model or publicist account
 * with reasons; the account's sessions are restricted at once (not ended: the open page shows why), its websockets
 * end, its content leaves the listings and it gets a statement of reasons (mailed, and notified before its sockets
 * close). The person is signed in to a restricted view only (403 `account_suspended` elsewhere), where they read the
 * statement, appeal, write to support and browse what any visitor may. Reinstating (or reversing on appeal) lifts it
 * and the content is listed again as it was.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENT, userPusherChannel } from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import type { Conversation, Message } from '#contract/support-chat.ts';
import { ads, auditLog, modelProfiles, notifications, sessions, statements, users } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { ACCOUNT_SUSPENDED_PATH } from '#contract/statements.ts';
import { hashPassword } from '../auth/passwords.ts';
import { loginAs } from '../media/test-helpers.ts';

let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  const s = await signedIn(t.app, t.database.db, { role: 'admin' });
  admin = s.agent;
  adminId = s.user.id;
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const PASSWORD = 'suspension test secret 2026';
const FACTS = 'Publica anuncios de otra persona sin su permiso.';

const suspend = (userId: number, body: Record<string, unknown> = {}) =>
  admin.post('/api/admin/decisions', {
    subject_type: 'user',
    subject_id: userId,
    action: 'suspend',
    reason_codes: ['identity', 'spam'],
    text: FACTS,
    ...body,
  });
const reinstate = (userId: number, text = '') =>
  admin.post('/api/admin/decisions', { subject_type: 'user', subject_id: userId, action: 'reinstate', text });

async function listed(adId: number) {
  const [row] = await db().select({ isListed: ads.isListed, status: ads.status }).from(ads).where(eq(ads.id, adId));
  return row!;
}
async function statusOf(userId: number) {
  const [row] = await db().select({ status: users.status, email: users.email }).from(users).where(eq(users.id, userId));
  return row!;
}
const sessionsOf = async (userId: number) => (await db().select().from(sessions).where(eq(sessions.userId, userId))).length;
const lastMailTo = (to: string) => [...t.app.mailer.outbox].reverse().find((m) => m.to === to);

describe('suspending an account', () => {
  it('restricts every session at once, unlists the model’s ads, issues and mails a statement, and is audited', async () => {
    const m = await buildModel(db(), { name: 'Modelo Suspendida' });
    const other = await buildModel(db(), { name: 'Modelo Ajena' });
    const phone = await loginAs(t.app, db(), m.userId);
    const laptop = await loginAs(t.app, db(), m.userId);
    expect((await phone.get('/api/profile/model')).statusCode).toBe(200);
    expect(await sessionsOf(m.userId)).toBe(2);
    expect((await listed(m.adId)).isListed).toBe(true);

    const res = await suspend(m.userId);
    expect(res.statusCode, res.body).toBe(200);
    const statementId = res.json<{ data: { statement_id: number } }>().data.statement_id;
    expect(statementId).toBeGreaterThan(0);

    expect(await statusOf(m.userId)).toMatchObject({ status: 'suspended' });
    // The open sessions stay signed in, to the restricted view only: the page says why instead of a sign-in form.
    expect(await sessionsOf(m.userId)).toBe(2);
    const me = await laptop.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json<{ data: { status: string } }>().data.status).toBe('suspended');
    expect((await laptop.get('/api/profile/model')).json()).toMatchObject({ error: 'account_suspended' });
    expect((await phone.get(`/api/statements/${statementId}`)).statusCode).toBe(200);
    // Unlisted, but the ad keeps its own status: reinstating brings it back as it was.
    expect(await listed(m.adId)).toEqual({ isListed: false, status: 'active' });
    expect((await listed(other.adId)).isListed).toBe(true);
    expect((await (await newAgent(t.app)).get(`/api/models/${m.adId}`)).statusCode).toBe(404);
    expect((await (await newAgent(t.app)).get(`/api/models/${other.adId}`)).statusCode).toBe(200);

    const [s] = await db().select().from(statements).where(eq(statements.id, statementId));
    expect(s).toMatchObject({ userId: m.userId, subjectType: 'user', subjectId: m.userId, decision: 'suspended', ground: 'identity' });
    expect(s!.reasonCodes).toEqual(['identity', 'spam']);
    const mail = lastMailTo((await statusOf(m.userId)).email)!;
    expect(mail.text).toContain('Modelo Suspendida');
    expect(mail.text).toContain(FACTS);
    expect(mail.text).toContain(`/es/statements/${statementId}`);

    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.suspend'), eq(auditLog.subjectId, m.userId)));
    expect(entry).toMatchObject({ actorId: adminId, subjectType: 'user' });
    expect(entry!.before).toEqual({ status: 'active' });
    expect(entry!.after).toMatchObject({ status: 'suspended', statement_id: statementId });
  });

  it('a publicist’s suspension unlists every model of the agency', async () => {
    const p = await buildPublicist(db());
    const m = await buildModel(db(), { name: 'Modelo de Agencia Suspendida' });
    await db()
      .update(modelProfiles)
      .set({ publicistId: p.publicistId, userId: null, contactEmail: 'agencia-modelo@example.test', consentStatus: 'given' })
      .where(eq(modelProfiles.id, m.profileId));
    await db().delete(users).where(eq(users.id, m.userId));
    expect((await listed(m.adId)).isListed).toBe(true);
    expect((await suspend(p.userId)).statusCode).toBe(200);
    expect((await listed(m.adId)).isListed).toBe(false);
    expect((await reinstate(p.userId)).statusCode).toBe(200);
    expect((await listed(m.adId)).isListed).toBe(true);
  });

  it('the staff lists show the account’s own status beside the profile’s', async () => {
    const m = await buildModel(db(), { name: 'Modelo en Lista' });
    const p = await buildPublicist(db(), { name: 'Agencia en Lista' });
    await suspend(m.userId);
    await suspend(p.userId);
    const email = (await statusOf(m.userId)).email;
    type Row = { id: number; status: string; user: { id: number; status: string } };
    const models = (await admin.get(`/api/admin/models?status=all&search=${encodeURIComponent(email)}`)).json<{ data: Row[] }>().data;
    expect(models.map((r) => [r.id, r.status, r.user.id, r.user.status])).toEqual([[m.profileId, 'active', m.userId, 'suspended']]);
    const publicists = (await admin.get('/api/admin/publicists?status=all&search=Agencia%20en%20Lista')).json<{ data: Row[] }>().data;
    expect(publicists.map((r) => [r.id, r.user.id, r.user.status])).toEqual([[p.publicistId, p.userId, 'suspended']]);
  });

  it('a client account can be suspended; staff accounts cannot; a restriction needs reasons and facts', async () => {
    const client = await buildUser(db(), { role: 'client' });
    expect((await suspend(client.id, { reason_codes: [] })).statusCode).toBe(422);
    expect((await suspend(client.id, { text: 'corto' })).statusCode).toBe(422);
    expect((await statusOf(client.id)).status).toBe('active');
    expect((await suspend(client.id)).statusCode).toBe(200);
    // Twice is no second decision.
    expect((await suspend(client.id)).statusCode).toBe(409);

    const otherAdmin = await buildUser(db(), { role: 'admin' });
    const refused = await suspend(otherAdmin.id);
    expect(refused.statusCode).toBe(403);
    expect((await statusOf(otherAdmin.id)).status).toBe('active');
    expect((await suspend(999_999)).statusCode).toBe(404);
  });

  it('only staff may suspend', async () => {
    const victim = await buildUser(db(), { role: 'client' });
    const { agent } = await signedIn(t.app, db(), { role: 'publicist' });
    const res = await agent.post('/api/admin/decisions', {
      subject_type: 'user',
      subject_id: victim.id,
      action: 'suspend',
      reason_codes: ['spam'],
      text: FACTS,
    });
    expect(res.statusCode).toBe(403);
    expect((await statusOf(victim.id)).status).toBe('active');
  });
});

describe('the suspended person signs in to a restricted view', () => {
  // The defect: a suspended account was refused at sign-in, so it could never read or appeal its statement.
  it('signs in, reads the statement and appeals it', async () => {
    const m = await buildModel(db(), { name: 'Modelo que Recurre' });
    const statementId = (await suspend(m.userId)).json<{ data: { statement_id: number } }>().data.statement_id;
    const agent = await loginAs(t.app, db(), m.userId);

    const me = await agent.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json<{ data: { status: string } }>().data.status).toBe('suspended');
    const list = await agent.get('/api/statements');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: { id: number }[] }>().data.map((s) => s.id)).toContain(statementId);
    const one = await agent.get(`/api/statements/${statementId}`);
    expect(one.json<{ data: unknown }>().data).toMatchObject({ subject_type: 'user', decision: 'suspended', can_appeal: true });

    const appeal = await agent.post(`/api/statements/${statementId}/appeal`, { text: 'Las fotos son mías, puedo demostrarlo.' });
    expect(appeal.statusCode, appeal.body).toBe(201);
    expect((await agent.get('/api/language/es')).statusCode).toBe(200);
    expect((await agent.get('/api/sections')).statusCode).toBe(200);
    expect((await agent.post('/api/logout', {})).statusCode).toBe(200);
  });

  it('the sign-in answers a warning that leads to the restricted page; a wrong password is still refused', async () => {
    const client = await buildUser(db(), { role: 'client' });
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, client.id));
    await suspend(client.id);
    const agent = await newAgent(t.app);
    expect((await agent.post('/api/login', { email: client.email, password: 'not the password 123' })).statusCode).toBe(422);
    const res = await agent.post('/api/login', { email: client.email, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'warning', redirect: ACCOUNT_SUSPENDED_PATH, data: { user: { status: 'suspended' } } });
    expect(await sessionsOf(client.id)).toBe(1);
  });

  it('every other route answers 403 account_suspended, translated, and changes nothing', async () => {
    const m = await buildModel(db(), { name: 'Modelo Restringida' });
    await suspend(m.userId);
    const agent = await loginAs(t.app, db(), m.userId);
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', '/api/profile/model'],
      ['GET', '/api/notifications'],
      ['PUT', `/api/profile/model/activate/${m.adId}/0`],
      ['POST', '/api/contact/sendMessageToAdmin', { subject: 'Hola', message: 'Quiero hablar con vosotros.' }],
      // Public writes stay closed too: the account cannot act through them while suspended.
      ['POST', '/api/contact', { name: 'Modelo', email: 'modelo@example.test', subject: 'Hola', message: 'Quiero hablar con vosotros.' }],
      ['POST', '/api/reports', { ad_id: m.adId, reason: 'spam', details: 'Es un anuncio repetido varias veces.' }],
      ['POST', '/broadcasting/auth', { socket_id: '1.1', channel_name: `private-App.Models.User.${m.userId}` }],
      ['PUT', '/api/user/profile-information', { name: 'Otro Nombre', email: 'otro@example.test' }],
      ['POST', '/api/profile/model/verification/code', {}],
    ];
    for (const [method, url, payload] of calls) {
      const res = await agent.request({ method, url, ...(payload ? { payload: payload } : {}), headers: { 'x-locale': 'en' } });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ type: 'error', error: 'account_suspended' });
      expect(res.json<{ message: string }>().message).toContain('suspended');
    }
    const [ad] = await db().select({ isActive: ads.isActive }).from(ads).where(eq(ads.id, m.adId));
    expect(ad!.isActive).toBe(true);
    expect((await statusOf(m.userId)).email).not.toBe('otro@example.test');
  });
});

describe('what a suspended account keeps (issue 24 point 11)', () => {
  it('an open page hears about it before its websockets close, so it can show why at once', async () => {
    const m = await buildModel(db(), { name: 'Modelo con la Página Abierta' });
    const order: string[] = [];
    const trigger = vi.spyOn(t.app.broadcaster, 'trigger').mockImplementation(async (channels, event) => {
      if (channels.includes(userPusherChannel(m.userId)) && event === NOTIFICATION_EVENT) order.push('notification');
    });
    const terminate = vi.spyOn(t.app.broadcaster, 'terminateUserConnections').mockImplementation(async (id) => {
      if (id === String(m.userId)) order.push('terminate');
    });
    try {
      expect((await suspend(m.userId)).statusCode).toBe(200);
    } finally {
      trigger.mockRestore();
      terminate.mockRestore();
    }
    expect(order).toEqual(['notification', 'terminate']);
  });

  it('browses what any visitor may see and writes to support; a staff reply reaches it', async () => {
    const m = await buildModel(db(), { name: 'Modelo que Pregunta' });
    const other = await buildModel(db(), { name: 'Modelo Visible' });
    await suspend(m.userId);
    const agent = await loginAs(t.app, db(), m.userId);
    for (const url of ['/api/models', `/api/models/${other.adId}`, '/api/models/map', '/api/sections', '/api/config']) {
      const res = await agent.get(url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    }
    // Its own ad is not listed, for it as for anyone.
    expect((await agent.get(`/api/models/${m.adId}`)).statusCode).toBe(404);

    const opened = await agent.post(API.supportConversations, {});
    expect(opened.statusCode, opened.body).toBe(201);
    const conversation = opened.json<{ data: Conversation }>().data;
    const sent = await agent.post(API.supportMessages(conversation.id), { content: '¿Por qué han bloqueado mi cuenta?' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await agent.get(API.supportStatus)).statusCode).toBe(200);
    expect((await agent.get(API.supportUnread)).statusCode).toBe(200);

    const reply = await admin.post(API.supportMessages(conversation.id), { content: 'Lee la declaración de motivos; puedes recurrirla.' });
    expect(reply.statusCode, reply.body).toBe(201);
    const page = await agent.get(API.supportMessages(conversation.id));
    expect(page.statusCode).toBe(200);
    expect(page.json<{ data: Message[] }>().data.map((x) => x.content)).toContain('Lee la declaración de motivos; puedes recurrirla.');
    expect((await agent.post(API.supportRead(conversation.id), { seq: 2 })).statusCode).toBe(200);
    // Staff routes stay staff-only.
    expect((await agent.post(API.supportResolve(conversation.id), {})).statusCode).toBe(403);
  });

  it('a client is told without mention of ads, which it has none of', async () => {
    const client = await buildUser(db(), { role: 'client' });
    await suspend(client.id);
    expect((await reinstate(client.id)).statusCode).toBe(200);
    const mail = lastMailTo(client.email)!;
    expect(mail.subject).toBe('Hemos reactivado tu cuenta');
    expect(mail.text).not.toMatch(/anuncio/i);
    const [n] = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, client.id), eq(notifications.kind, 'account.reinstated')));
    expect(n!.description).toBeTruthy();
    expect(n!.description).not.toMatch(/anuncio/i);

    // A model's still says her ads are back.
    const m = await buildModel(db(), { name: 'Modelo Vuelve' });
    await suspend(m.userId);
    await reinstate(m.userId);
    expect(lastMailTo((await statusOf(m.userId)).email)!.text).toMatch(/anuncios/);
  });
});

describe('reinstating', () => {
  it('lifts the suspension: ads listed again as they were, audited, mailed; the person is back to normal', async () => {
    const m = await buildModel(db(), { name: 'Modelo Reactivada' });
    // A second ad the model had switched off herself.
    const [first] = await db().select().from(ads).where(eq(ads.id, m.adId));
    const [switchedOff] = await db()
      .insert(ads)
      .values({
        modelProfileId: m.profileId,
        title: 'Segundo anuncio apagado',
        description: first!.description,
        sectionId: first!.sectionId,
        cityId: first!.cityId,
        isActive: false,
        status: 'active',
        publishedAt: new Date(),
      })
      .returning({ adId: ads.id });
    await suspend(m.userId);
    expect((await listed(m.adId)).isListed).toBe(false);

    const res = await reinstate(m.userId, 'Hemos comprobado su identidad.');
    expect(res.statusCode, res.body).toBe(200);
    expect((await statusOf(m.userId)).status).toBe('active');
    expect((await listed(m.adId)).isListed).toBe(true);
    // What the model had switched off stays off.
    expect((await listed(switchedOff!.adId)).isListed).toBe(false);
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.reinstate'), eq(auditLog.subjectId, m.userId)));
    expect(entry).toMatchObject({ before: { status: 'suspended' }, after: { status: 'active' } });
    const mail = lastMailTo((await statusOf(m.userId)).email)!;
    expect(mail.subject).toBe('Hemos reactivado tu cuenta');
    expect(mail.text).toContain('Hemos comprobado su identidad.');

    const agent = await loginAs(t.app, db(), m.userId);
    expect((await agent.get('/api/profile/model')).statusCode).toBe(200);
    // Reinstating an account that is not suspended is no decision.
    expect((await reinstate(m.userId)).statusCode).toBe(409);
  });

  it('an appeal reversed by staff restores the account and its listings', async () => {
    const m = await buildModel(db(), { name: 'Modelo Recurso Estimado' });
    const statementId = (await suspend(m.userId)).json<{ data: { statement_id: number } }>().data.statement_id;
    const agent = await loginAs(t.app, db(), m.userId);
    const appeal = await agent.post(`/api/statements/${statementId}/appeal`, { text: 'No he hecho nada de lo que dice.' });
    const appealId = appeal.json<{ data: { appeal: { id: number } } }>().data.appeal.id;
    const decided = await admin.post(`/api/admin/appeals/${appealId}/decide`, { outcome: 'reversed', text: 'Tenía razón, lo sentimos.' });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json<{ data: { restored: unknown } }>().data.restored).toEqual({ status: 'active' });
    expect((await statusOf(m.userId)).status).toBe('active');
    expect((await listed(m.adId)).isListed).toBe(true);
    expect((await agent.get('/api/profile/model')).statusCode).toBe(200);
  });
});
