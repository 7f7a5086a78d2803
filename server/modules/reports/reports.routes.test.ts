import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ReportList } from '#contract/reports.ts';
import { auditLog, reports } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let listedAd: number;
let hiddenAd: number;
let admin: Agent;
let ipCounter = 0;

/** Each test writes from its own address, so the per-IP limits of one do not spill into another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function visitor(ip = freshIp()): Promise<{ agent: Agent; ip: string }> {
  return { agent: await newAgent(t.app), ip };
}

function post(agent: Agent, ip: string, body: Record<string, unknown>) {
  return agent.request({ method: 'POST', url: '/api/reports', payload: body, remoteAddress: ip });
}

const notice = (extra: Record<string, unknown> = {}) => ({
  ad_id: listedAd,
  reason: 'spam',
  details: 'El mismo anuncio aparece repetido con otro nombre.',
  opened_at: Date.now() - 10_000,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  listedAd = (await buildModel(db, { name: 'Reportada', photos: 2 })).adId;
  hiddenAd = (await buildModel(db, { name: 'Oculta', adStatus: 'pending' })).adId;
  admin = (await signedIn(t.app, db, { role: 'admin' })).agent;
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/reports', () => {
  it('takes a notice without an account, answers a receipt, stores a snapshot and an IP hash (never the IP)', async () => {
    const { agent, ip } = await visitor();
    const res = await post(agent, ip, notice({ contact: 'testigo@example.test' }));
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json<{ data: { receipt: string } }>().data.receipt;
    expect(receipt).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    const [row] = await t.database.db.select().from(reports).where(eq(reports.receipt, receipt));
    expect(row).toMatchObject({ adId: listedAd, reason: 'spam', priority: 2, escalate: false, status: 'open', reporterUserId: null });
    const snapshot = row!.adSnapshot as { title: string; model_name: string; photo_ids: number[] };
    expect(snapshot.model_name).toBe('Reportada');
    expect(snapshot.title.length).toBeGreaterThan(0);
    expect(snapshot.photo_ids).toHaveLength(2);
    expect(row!.ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(ip);
    const mail = t.app.mailer.outbox.find((m) => m.to === 'testigo@example.test');
    expect(mail?.subject).toContain(receipt);
  });

  it('a phone left as contact gets the receipt as a message addressed to the number in E.164 (the outbox stands in for SMS)', async () => {
    const { agent, ip } = await visitor();
    const res = await post(agent, ip, notice({ contact: '+34 611 22 33 44' }));
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json<{ data: { receipt: string } }>().data.receipt;
    const message = t.app.mailer.outbox.find((m) => m.to === '+34611223344');
    expect(message?.subject).toContain(receipt);
  });

  it('marks suspected minors and trafficking as urgent and flagged for escalation', async () => {
    for (const reason of ['minor_suspected', 'trafficking_suspected'] as const) {
      const { agent, ip } = await visitor();
      const res = await post(agent, ip, notice({ reason, details: `Motivo urgente: ${reason}, parece muy joven.` }));
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await t.database.db
        .select()
        .from(reports)
        .where(eq(reports.receipt, res.json<{ data: { receipt: string } }>().data.receipt));
      expect(row).toMatchObject({ priority: 0, escalate: true });
    }
  });

  it('records the reporter when signed in', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db);
    const res = await agent.request({
      method: 'POST',
      url: '/api/reports',
      payload: notice({ details: 'Reportado con sesión iniciada.' }),
      remoteAddress: freshIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(reports)
      .where(eq(reports.receipt, res.json<{ data: { receipt: string } }>().data.receipt));
    expect(row!.reporterUserId).toBe(user.id);
  });

  it('refuses bad input with per-field messages and stores nothing', async () => {
    const before = (await t.database.db.select().from(reports)).length;
    const { agent, ip } = await visitor();
    const res = await post(agent, ip, { ad_id: listedAd, reason: 'because', details: 'corto', contact: 'no es contacto' });
    expect(res.statusCode).toBe(422);
    const errors = res.json<{ errors: Record<string, string[]> }>().errors;
    expect(Object.keys(errors).sort()).toEqual(['contact', 'details', 'reason']);
    expect((await post(agent, ip, { ...notice(), extra: 1 })).statusCode).toBe(422);
    expect((await post(agent, ip, { ...notice(), ad_id: 'x' })).statusCode).toBe(422);
    expect((await t.database.db.select().from(reports)).length).toBe(before);
  });

  it('answers 404 for an unknown or unlisted ad', async () => {
    const { agent, ip } = await visitor();
    expect((await post(agent, ip, notice({ ad_id: 99_999_999 }))).statusCode).toBe(404);
    expect((await post(agent, ip, notice({ ad_id: hiddenAd }))).statusCode).toBe(404);
  });

  it('drops automated sends (honeypot, sent too fast) with the same answer, storing nothing', async () => {
    const before = (await t.database.db.select().from(reports)).length;
    const { agent, ip } = await visitor();
    const honeypot = await post(agent, ip, notice({ website: 'http://spam.example', details: 'Soy un robot que rellena todo.' }));
    const tooFast = await post(agent, ip, notice({ opened_at: Date.now() - 200, details: 'Soy un robot muy rápido.' }));
    expect(honeypot.statusCode).toBe(201);
    expect(tooFast.statusCode).toBe(201);
    expect((await t.database.db.select().from(reports)).length).toBe(before);
  });

  it('collapses an identical repeat into the first notice (same receipt)', async () => {
    const { agent, ip } = await visitor();
    const body = notice({ details: 'Repetida por un doble clic sin querer.' });
    const a = await post(agent, ip, body);
    const b = await post(agent, ip, body);
    expect(b.statusCode).toBe(201);
    expect(b.json<{ data: { receipt: string } }>().data.receipt).toBe(a.json<{ data: { receipt: string } }>().data.receipt);
  });

  it('limits notices per address: 429 in the envelope with Retry-After', async () => {
    const { agent, ip } = await visitor();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await post(agent, ip, notice({ details: `Denuncia número ${i} de la misma dirección.` }))).statusCode);
    expect(codes.slice(0, 3)).toEqual([201, 201, 201]);
    // Three a day about the same ad from one address.
    expect(codes[3]).toBe(429);
    const last = await post(agent, ip, notice({ details: 'Una más, por encima del límite.' }));
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
    expect(last.json()).toMatchObject({ type: 'error', error: 'too_many_requests' });
  });
});

describe('staff queue and decisions', () => {
  it('is for staff only', async () => {
    const anon = await newAgent(t.app);
    expect((await anon.get('/api/admin/reports')).statusCode).toBe(401);
    for (const role of ['client', 'model', 'publicist'] as const) {
      const { agent } = await signedIn(t.app, t.database.db, { role });
      expect((await agent.get('/api/admin/reports')).statusCode).toBe(403);
      expect((await agent.post('/api/admin/reports/1/decide', { outcome: 'dismissed', text: 'no' })).statusCode).toBe(403);
    }
    const { agent: superAdmin } = await signedIn(t.app, t.database.db, { role: 'super_admin' });
    expect((await superAdmin.get('/api/admin/reports')).statusCode).toBe(200);
  });

  it('lists open notices urgent first, then oldest first; filters by reason and escalation', async () => {
    const res = await admin.get('/api/admin/reports');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const list = res.json<ReportList>();
    expect(list.meta.total).toBeGreaterThanOrEqual(3);
    const priorities = list.data.map((r) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(list.data[0]!.escalate).toBe(true);
    const urgent = (await admin.get('/api/admin/reports?escalate=1')).json<ReportList>();
    expect(urgent.data.every((r) => r.escalate)).toBe(true);
    const spam = (await admin.get('/api/admin/reports?reason=spam')).json<ReportList>();
    expect(spam.data.every((r) => r.reason === 'spam')).toBe(true);
    expect((await admin.get('/api/admin/reports?status=nope')).statusCode).toBe(422);
    expect((await admin.get('/api/admin/reports?page=0')).statusCode).toBe(422);
  });

  it('decides once, mails the reporter who left an e-mail, and audits the decision', async () => {
    const { agent, ip } = await visitor();
    const filed = await post(agent, ip, notice({ contact: 'vecina@example.test', details: 'Las fotos son de otra persona conocida.' }));
    const receipt = filed.json<{ data: { receipt: string } }>().data.receipt;
    const [row] = await t.database.db.select().from(reports).where(eq(reports.receipt, receipt));
    const one = await admin.get(`/api/admin/reports/${row!.id}`);
    expect(one.json<{ data: Report }>().data).toMatchObject({ receipt, contact: 'vecina@example.test', status: 'open' });

    expect((await admin.post(`/api/admin/reports/${row!.id}/decide`, { outcome: 'maybe', text: 'x' })).statusCode).toBe(422);
    const res = await admin.post(`/api/admin/reports/${row!.id}/decide`, { outcome: 'actioned', text: 'Hemos retirado las fotos.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: Report }>().data).toMatchObject({ status: 'actioned', decision_text: 'Hemos retirado las fotos.' });
    const again = await admin.post(`/api/admin/reports/${row!.id}/decide`, { outcome: 'dismissed', text: 'Cambio de idea.' });
    expect(again.statusCode).toBe(409);

    const mail = [...t.app.mailer.outbox].reverse().find((m) => m.to === 'vecina@example.test');
    expect(mail?.subject).toContain(receipt);
    expect(mail?.text).toContain('Hemos retirado las fotos.');
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.subjectId, row!.id));
    expect(audit.find((a) => a.subjectType === 'report')).toMatchObject({ action: 'report.action', after: { status: 'actioned' } });
    expect((await admin.get('/api/admin/reports/99999999')).statusCode).toBe(404);
    expect((await admin.get('/api/admin/reports/abc')).statusCode).toBe(404);
  });
});

describe('the mails to the reporter name the ad and the redress', () => {
  it('the receipt names the ad by its title and model; the decision names it and says where to go next', async () => {
    const db = t.database.db;
    const ad = (await buildModel(db, { name: 'Lola Titulada', title: 'Masajes junto al mar' })).adId;
    const { agent, ip } = await visitor();
    const filed = await post(agent, ip, notice({ ad_id: ad, contact: 'nombrada@example.test' }));
    expect(filed.statusCode, filed.body).toBe(201);
    const receipt = filed.json<{ data: { receipt: string } }>().data.receipt;
    const received = t.app.mailer.outbox.find((m) => m.to === 'nombrada@example.test')!;
    expect(received.text).toContain('sobre el anuncio «Masajes junto al mar» de Lola Titulada');
    expect(received.text).not.toContain(`el anuncio ${ad}.`);

    // The decision goes in the reporter's language: German here.
    const [row] = await db.update(reports).set({ language: 'de' }).where(eq(reports.receipt, receipt)).returning();
    const res = await admin.post(`/api/admin/reports/${row!.id}/decide`, { outcome: 'dismissed', text: 'Kein Verstoß gefunden.' });
    expect(res.statusCode, res.body).toBe(200);
    const decided = [...t.app.mailer.outbox].reverse().find((m) => m.to === 'nombrada@example.test')!;
    expect(decided.subject).toContain(receipt);
    expect(decided.text).toContain('zur Anzeige „Masajes junto al mar“ von Lola Titulada');
    expect(decided.text).toContain('außergerichtliche Streitbeilegungsstelle (Art. 21');
    expect(decided.text).toContain('/de/contact');
    expect(decided.html).toContain('/de/contact');
  });

  it('in Spanish the decision offers the contact page and out-of-court dispute settlement', async () => {
    const { agent, ip } = await visitor();
    const filed = await post(agent, ip, notice({ contact: 'recurso@example.test', details: 'Texto copiado de otra web conocida.' }));
    const receipt = filed.json<{ data: { receipt: string } }>().data.receipt;
    const [row] = await t.database.db.select().from(reports).where(eq(reports.receipt, receipt));
    expect((await admin.post(`/api/admin/reports/${row!.id}/decide`, { outcome: 'actioned', text: 'Retirado.' })).statusCode).toBe(200);
    const mail = [...t.app.mailer.outbox].reverse().find((m) => m.to === 'recurso@example.test')!;
    expect(mail.text).toContain('página de contacto');
    expect(mail.text).toContain('resolución extrajudicial de litigios (art. 21');
    expect(mail.text).toMatch(/Página de contacto: http\S+\/es\/contact/);
  });
});
