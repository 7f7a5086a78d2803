/**
 * Contact messages (issue 12 point 4): the acknowledgement to an address nobody has proved is the sender's carries no
 * text the sender wrote, and staff marking a message with the status it already has records nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contactMessages } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).agent;
});
afterAll(async () => {
  await t.close();
});

const victim = 'victima@example.test';
const bait = {
  name: 'Banco Seguro: verifica tu cuenta en https://phish.example',
  email: victim,
  subject: 'Tu cuenta será bloqueada: entra en https://phish.example/login',
  message: 'Llama al 900 000 000 y da tu PIN en https://phish.example antes de 24 horas.',
};

describe('the acknowledgement of POST /api/contact', () => {
  it('is a fixed text in the sender’s language: nothing the sender typed reaches the address', async () => {
    const agent = await newAgent(t.app);
    const res = await agent.request({
      method: 'POST',
      url: '/api/contact',
      payload: { ...bait, opened_at: Date.now() - 15_000 },
      remoteAddress: '10.9.0.1',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = t.app.mailer.outbox.find((m) => m.to === victim);
    expect(mail).toBeDefined();
    for (const part of [mail!.subject, mail!.text, mail!.html]) {
      expect(part).not.toContain('phish.example');
      expect(part).not.toContain('Banco Seguro');
      expect(part).not.toContain('900 000 000');
    }
    expect(mail!.subject).toBe('Hemos recibido tu mensaje');
    expect(mail!.text).toContain('Hemos recibido el mensaje que nos has enviado a través de Vitrina.');
    // The message itself is kept for staff as written.
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.email, victim));
    expect(row).toMatchObject({ name: bait.name, subject: bait.subject, message: bait.message });
  });
});

describe('PATCH /api/admin/contact-messages/{id}', () => {
  it('records one audit entry per real change, however often staff send the same status', async () => {
    const [row] = await t.database.db
      .insert(contactMessages)
      .values({ kind: 'contact', name: 'Ana', email: 'ana@example.test', subject: 'Hola', message: 'Una pregunta.', language: 'es' })
      .returning();
    const patch = (status: string) =>
      admin.request({ method: 'PATCH', url: `/api/admin/contact-messages/${row!.id}`, payload: { status } });
    const entries = () =>
      t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.subjectType, 'contact_message'), eq(auditLog.subjectId, row!.id)));

    const first = await patch('read');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ data: { id: row!.id, status: 'read' } });
    const second = await patch('read');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ data: { id: row!.id, status: 'read' } });
    expect((await entries()).map((e) => e.action)).toEqual(['contact_message.read']);

    await patch('archived');
    await patch('archived');
    expect((await entries()).map((e) => e.action).sort()).toEqual(['contact_message.archived', 'contact_message.read']);
  });
});
