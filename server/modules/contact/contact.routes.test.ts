import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactList } from '#contract/contact.ts';
import { auditLog, contactMessages } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let admin: Agent;
let n = 0;
const ip = () => `10.1.0.${++n}`;

const message = (extra: Record<string, unknown> = {}) => ({
  name: 'Lucía Pérez',
  email: 'lucia@example.test',
  subject: 'Pregunta sobre anuncios',
  message: '¿Cómo puedo anunciar mi agencia en Oviedo?',
  opened_at: Date.now() - 15_000,
  ...extra,
});

function send(agent: Agent, body: unknown, from = ip()) {
  return agent.request({ method: 'POST', url: '/api/contact', payload: body as Record<string, unknown>, remoteAddress: from });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).agent;
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/contact', () => {
  it('stores a visitor message and acknowledges it by mail', async () => {
    const res = await send(await newAgent(t.app), message());
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'lucia@example.test'));
    expect(row).toMatchObject({ kind: 'contact', userId: null, status: 'new', subject: 'Pregunta sobre anuncios' });
    expect(t.app.mailer.outbox.some((m) => m.to === 'lucia@example.test')).toBe(true);
  });

  it('refuses bad input per field and stores nothing', async () => {
    const before = (await t.database.db.select().from(contactMessages)).length;
    const res = await send(await newAgent(t.app), { name: '', email: 'nope', subject: 'a', message: 'corto' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual(['email', 'message', 'name', 'subject']);
    expect((await t.database.db.select().from(contactMessages)).length).toBe(before);
  });

  it('drops a filled honeypot with the same answer', async () => {
    const before = (await t.database.db.select().from(contactMessages)).length;
    const res = await send(await newAgent(t.app), message({ website: 'x', email: 'bot@example.test' }));
    expect(res.statusCode).toBe(201);
    expect((await t.database.db.select().from(contactMessages)).length).toBe(before);
  });

  it('limits messages per address', async () => {
    const agent = await newAgent(t.app);
    const from = ip();
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await send(agent, message({ subject: `Asunto ${i}` }), from)).statusCode);
    expect(codes).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('POST /api/contact/sendMessageToAdmin', () => {
  it('needs an account and takes the name and address from it', async () => {
    const anon = await newAgent(t.app);
    expect(
      (await anon.post('/api/contact/sendMessageToAdmin', { subject: 'Hola', message: 'Necesito ayuda con mi perfil.' })).statusCode,
    ).toBe(401);
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const res = await agent.post('/api/contact/sendMessageToAdmin', { subject: 'Ayuda', message: 'Necesito ayuda con mi perfil.' });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.userId, user.id));
    expect(row).toMatchObject({ kind: 'admin', email: user.email });
    expect((await agent.post('/api/contact/sendMessageToAdmin', { subject: 'x', message: '' })).statusCode).toBe(422);
    const ack = t.app.mailer.outbox.find((m) => m.to === user.email);
    expect(ack).toBeDefined();
  });

  it('limits messages per user, whatever the address: 429 in the envelope', async () => {
    const { agent } = await signedIn(t.app, t.database.db, { role: 'client' });
    const codes = [];
    for (let i = 0; i < 5; i++) {
      const res = await agent.request({
        method: 'POST',
        url: '/api/contact/sendMessageToAdmin',
        payload: { subject: `Asunto ${i}`, message: 'Necesito ayuda con mi cuenta.' },
        remoteAddress: ip(),
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 201, 201]);
    const limited = await agent.request({
      method: 'POST',
      url: '/api/contact/sendMessageToAdmin',
      payload: { subject: 'Otro', message: 'Necesito ayuda con mi cuenta.' },
      remoteAddress: ip(),
    });
    expect(limited.statusCode).toBe(429);
    const body = limited.json<{ type: string; error: string; message: string }>();
    expect(body.type).toBe('error');
    expect(body.error.length).toBeGreaterThan(0);
    expect(body.message.length).toBeGreaterThan(0);
  });
});

describe('staff list', () => {
  it('is for staff only, new first, and marks read or archived with an audit entry', async () => {
    expect((await (await newAgent(t.app)).get('/api/admin/contact-messages')).statusCode).toBe(401);
    const { agent: client } = await signedIn(t.app, t.database.db);
    expect((await client.get('/api/admin/contact-messages')).statusCode).toBe(403);

    const list = (await admin.get('/api/admin/contact-messages')).json<ContactList>();
    expect(list.data.length).toBeGreaterThan(0);
    const first = list.data[0]!;
    expect(first.status).toBe('new');
    const res = await admin.request({ method: 'PATCH', url: `/api/admin/contact-messages/${first.id}`, payload: { status: 'archived' } });
    expect(res.statusCode, res.body).toBe(200);
    const archived = (await admin.get('/api/admin/contact-messages?status=archived')).json<ContactList>();
    expect(archived.data.map((m) => m.id)).toContain(first.id);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.subjectType, 'contact_message'));
    expect(audit.find((a) => a.subjectId === first.id)).toMatchObject({ action: 'contact_message.archived' });
    const bad = await admin.request({ method: 'PATCH', url: `/api/admin/contact-messages/${first.id}`, payload: { status: 'deleted' } });
    expect(bad.statusCode).toBe(422);
    expect(
      (await admin.request({ method: 'PATCH', url: '/api/admin/contact-messages/9999999', payload: { status: 'read' } })).statusCode,
    ).toBe(404);
  });
});
