import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { API } from '#contract/routes.ts';
import type { Conversation, ConversationList, Message, MessagePage } from '#contract/support-chat.ts';
import { jobs, notifications, supportConversations, supportMessages, users } from '#server/db/schema.ts';
import type { Broadcaster } from '#server/realtime/broadcaster.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildUser } from '#tests/factories.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';
import { chatEmailKey } from './support-chat.ts';

let t: TestApp;
const db = () => t.database.db;
let admin: { agent: Agent; user: { id: number } };
let admin2: { agent: Agent; user: { id: number } };
let superAdmin: { agent: Agent; user: { id: number } };
let trigger: MockInstance<Broadcaster['trigger']>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.app, db(), { role: 'admin', name: 'Ana Staff' });
  admin2 = await signedIn(t.app, db(), { role: 'admin', name: 'Bea Staff' });
  superAdmin = await signedIn(t.app, db(), { role: 'super_admin' });
});
afterAll(async () => t.close());
beforeEach(() => {
  trigger?.mockRestore();
  trigger = vi.spyOn(t.app.broadcaster, 'trigger');
});

const MIN = 60_000;
type Answer<T> = { data: T; message: string };

async function newUser(spec: { name?: string; locale?: string } = {}) {
  const s = await signedIn(t.app, db(), { role: 'model', ...(spec.name ? { name: spec.name } : {}) });
  if (spec.locale) await db().update(users).set({ locale: spec.locale }).where(eq(users.id, s.user.id));
  return s;
}

async function openOwn(agent: Agent): Promise<Conversation> {
  const res = await agent.post(API.supportConversations, {});
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json<Answer<Conversation>>().data;
}

async function send(agent: Agent, id: number, content: string, headers: Record<string, string> = {}): Promise<Message> {
  const res = await agent.post(API.supportMessages(id), { content }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Answer<Message>>().data;
}

const events = (name: string) => trigger.mock.calls.filter(([, event]) => event === `App\\Events\\${name}`);

describe('opening a conversation', () => {
  it('a user opens their own (201), the same one again (200); staff open one with a user and take it', async () => {
    const u = await newUser();
    const res = await u.agent.post(API.supportConversations, {});
    expect(res.statusCode).toBe(201);
    const c = res.json<Answer<Conversation>>().data;
    expect(c).toMatchObject({ user_id: u.user.id, status: 'open', assigned_to: null, unread: 0, last_seq: 0, last_message: null });
    expect(c.user.email).toBeNull();
    expect((await u.agent.post(API.supportConversations, {})).statusCode).toBe(200);
    expect((await u.agent.post(API.supportConversations, { user_id: u.user.id })).json<Answer<Conversation>>().data.id).toBe(c.id);

    const byStaff = await admin.agent.post(API.supportConversations, { user_id: u.user.id });
    expect(byStaff.statusCode).toBe(200);
    expect(byStaff.json<Answer<Conversation>>().data).toMatchObject({ id: c.id, assigned_to: admin.user.id, assignee: { name: 'Ana' } });
    expect(byStaff.json<Answer<Conversation>>().data.user.email).toMatch(/@vitrina\.test$/);

    const other = await buildUser(db(), { role: 'client' });
    const started = await admin2.agent.post(API.supportConversations, { user_id: other.id });
    expect(started.statusCode).toBe(201);
    expect(started.json<Answer<Conversation>>().data).toMatchObject({ user_id: other.id, assigned_to: admin2.user.id });
  });

  it('refuses what makes no sense: staff without a user or with staff, a user for someone else, an unknown user', async () => {
    const u = await newUser();
    const other = await buildUser(db());
    expect((await admin.agent.post(API.supportConversations, {})).statusCode).toBe(422);
    expect((await admin.agent.post(API.supportConversations, { user_id: admin2.user.id })).statusCode).toBe(422);
    expect((await admin.agent.post(API.supportConversations, { user_id: 999_999 })).statusCode).toBe(404);
    expect((await u.agent.post(API.supportConversations, { user_id: other.id })).statusCode).toBe(403);
    expect((await (await newAgent(t.app)).post(API.supportConversations, {})).statusCode).toBe(401);
    expect(await db().select().from(supportConversations).where(eq(supportConversations.userId, other.id))).toEqual([]);
  });
});

describe('messages', () => {
  it('numbers messages per conversation, broadcasts them to the others on the chat channel and to staff', async () => {
    const u = await newUser({ name: 'Carla Model' });
    const c = await openOwn(u.agent);
    const first = await send(u.agent, c.id, 'Hola, no puedo subir fotos', { 'x-socket-id': '111.222' });
    expect(first).toMatchObject({
      conversation_id: c.id,
      seq: 1,
      sender_id: u.user.id,
      is_staff: false,
      sender_name: 'Carla Model',
      read_at: null,
    });
    expect(trigger).toHaveBeenCalledWith(
      [`private-support.chat.${c.id}`],
      'App\\Events\\MessageSent',
      { message: first },
      { socketId: '111.222' },
    );
    const update = events('ConversationUpdated')
      .filter(([channels]) => channels.includes('presence-support.staff'))
      .at(-1);
    expect(update![2]).toMatchObject({ conversation: { id: c.id, last_seq: 1, unread: 1, last_message: { seq: 1 } } });

    const reply = await send(admin.agent, c.id, 'Hola Carla, ¿qué error ves?');
    expect(reply).toMatchObject({ seq: 2, is_staff: true, sender_name: 'Ana' });
    // Staff answering have read the user's message, and take the unassigned conversation.
    const [m1] = await db()
      .select()
      .from(supportMessages)
      .where(and(eq(supportMessages.conversationId, c.id), eq(supportMessages.seq, 1)));
    expect(m1!.readAt).not.toBeNull();
    expect(events('MessagesRead').at(-1)![2]).toMatchObject({ conversation_id: c.id, reader_is_staff: true, up_to_seq: 1 });
    const [row] = await db().select().from(supportConversations).where(eq(supportConversations.id, c.id));
    expect(row!.assignedTo).toBe(admin.user.id);
    // A malformed X-Socket-ID is ignored rather than trusted.
    await send(u.agent, c.id, 'Sale un aviso rojo', { 'x-socket-id': 'abc' });
    expect(events('MessageSent').at(-1)![3]).toBeUndefined();
  });

  it('only the conversation’s user and staff read or post; others get 404', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const c = await openOwn(owner.agent);
    await send(owner.agent, c.id, 'privado');
    expect((await stranger.agent.get(API.supportMessages(c.id))).statusCode).toBe(404);
    expect((await stranger.agent.post(API.supportMessages(c.id), { content: 'hola' })).statusCode).toBe(404);
    expect((await stranger.agent.post(API.supportRead(c.id), { seq: 1 })).statusCode).toBe(404);
    expect((await stranger.agent.get(API.supportConversation(c.id))).statusCode).toBe(404);
    expect((await superAdmin.agent.get(API.supportMessages(c.id))).statusCode).toBe(200);
    expect((await superAdmin.agent.post(API.supportMessages(c.id), { content: 'Hola' })).statusCode).toBe(201);
    expect((await owner.agent.get(API.supportMessages(999_999))).statusCode).toBe(404);
    const rows = await db().select().from(supportMessages).where(eq(supportMessages.conversationId, c.id));
    expect(rows.map((r) => r.content)).toEqual(['privado', 'Hola']);
  });

  it('text only, 1–2,000 characters, kept exactly as typed (HTML is just text)', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    expect((await u.agent.post(API.supportMessages(c.id), { content: '' })).statusCode).toBe(422);
    expect((await u.agent.post(API.supportMessages(c.id), { content: '   \n ' })).statusCode).toBe(422);
    expect((await u.agent.post(API.supportMessages(c.id), { content: 'x'.repeat(2001) })).statusCode).toBe(422);
    expect((await u.agent.post(API.supportMessages(c.id), { content: 'hola', html: '<b>' })).statusCode).toBe(422);
    expect((await u.agent.post(API.supportMessages(c.id), { content: 42 })).statusCode).toBe(422);
    expect(await db().select().from(supportMessages).where(eq(supportMessages.conversationId, c.id))).toEqual([]);
    const long = await send(u.agent, c.id, 'y'.repeat(2000));
    expect(long.content).toHaveLength(2000);
    const html = await send(u.agent, c.id, '<img src=x onerror=alert(1)> mira https://vitrina.test');
    expect(html.content).toBe('<img src=x onerror=alert(1)> mira https://vitrina.test');
  });

  it('pages newest first, older by before_seq, and catches up after a reconnection with after_seq', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    await db()
      .insert(supportMessages)
      .values(
        Array.from({ length: 45 }, (_, i) => ({
          conversationId: c.id,
          seq: i + 1,
          senderId: u.user.id,
          isStaff: false,
          content: `m${i + 1}`,
        })),
      );
    await db().update(supportConversations).set({ lastSeq: 45 }).where(eq(supportConversations.id, c.id));
    const seqs = (p: MessagePage) => p.data.map((m) => m.seq);

    const newest = (await u.agent.get(API.supportMessages(c.id))).json<MessagePage>();
    expect(seqs(newest)).toEqual(Array.from({ length: 30 }, (_, i) => i + 16));
    expect(newest.meta).toEqual({ has_more_before: true, has_more_after: false });
    expect(newest.conversation).toMatchObject({ id: c.id, last_seq: 45 });

    const older = (await u.agent.get(`${API.supportMessages(c.id)}?before_seq=16`)).json<MessagePage>();
    expect(seqs(older)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(older.meta).toEqual({ has_more_before: false, has_more_after: true });

    const caughtUp = (await u.agent.get(`${API.supportMessages(c.id)}?after_seq=40`)).json<MessagePage>();
    expect(seqs(caughtUp)).toEqual([41, 42, 43, 44, 45]);
    expect(caughtUp.meta).toEqual({ has_more_before: true, has_more_after: false });
    const partial = (await u.agent.get(`${API.supportMessages(c.id)}?after_seq=0&limit=10`)).json<MessagePage>();
    expect(seqs(partial)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(partial.meta.has_more_after).toBe(true);
    expect((await u.agent.get(`${API.supportMessages(c.id)}?after_seq=45`)).json<MessagePage>().data).toEqual([]);

    expect((await u.agent.get(`${API.supportMessages(c.id)}?after_seq=1&before_seq=5`)).statusCode).toBe(422);
    expect((await u.agent.get(`${API.supportMessages(c.id)}?limit=101`)).statusCode).toBe(422);
    expect((await u.agent.get(`${API.supportMessages(c.id)}?before_seq=-1`)).statusCode).toBe(422);
  });

  it('read receipts: the reader marks the other side’s messages read up to a seq, live, and unread counts follow', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    await send(u.agent, c.id, 'hola');
    for (const text of ['uno', 'dos', 'tres']) await send(admin.agent, c.id, text);
    const mine = () => u.agent.get(API.supportConversations).then((r) => r.json<ConversationList>());
    expect((await mine()).data[0]!.unread).toBe(3);
    expect((await mine()).meta.unread_total).toBe(3);
    expect((await u.agent.get(API.supportUnread)).json()).toEqual({ unread: 3 });

    const res = await u.agent.post(API.supportRead(c.id), { seq: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json<Answer<{ unread: number }>>().data).toEqual({ unread: 1 });
    const receipt = events('MessagesRead').at(-1)!;
    expect(receipt[0]).toEqual([`private-support.chat.${c.id}`]);
    expect(receipt[2]).toMatchObject({ conversation_id: c.id, reader_id: u.user.id, reader_is_staff: false, up_to_seq: 3 });
    const page = (await admin.agent.get(API.supportMessages(c.id))).json<MessagePage>();
    expect(page.data.map((m) => [m.seq, m.read_at !== null])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);
    // A seq past the end reads what there is; reading again broadcasts nothing new.
    await u.agent.post(API.supportRead(c.id), { seq: 99 });
    const count = events('MessagesRead').length;
    await u.agent.post(API.supportRead(c.id), { seq: 99 });
    expect(events('MessagesRead')).toHaveLength(count);
    expect((await u.agent.get(API.supportUnread)).json()).toEqual({ unread: 0 });
    expect((await u.agent.post(API.supportRead(c.id), { seq: 0 })).statusCode).toBe(422);
  });

  it('30 messages a minute per user, then 429 with Retry-After', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    for (let i = 0; i < 30; i++) expect((await u.agent.post(API.supportMessages(c.id), { content: `n${i}` })).statusCode).toBe(201);
    const res = await u.agent.post(API.supportMessages(c.id), { content: 'una más' });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await db().select().from(supportMessages).where(eq(supportMessages.conversationId, c.id))).toHaveLength(30);
  });

  it('a message repeated with the same Idempotency-Key is stored once', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    const key = 'c7a1d5f0-2b4e-4c8a-9f1e-0d3b5a7c9e11';
    const first = await u.agent.post(API.supportMessages(c.id), { content: 'sin conexión' }, { 'idempotency-key': key });
    const again = await u.agent.post(API.supportMessages(c.id), { content: 'sin conexión' }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await db().select().from(supportMessages).where(eq(supportMessages.conversationId, c.id))).toHaveLength(1);
    expect((await u.agent.post(API.supportMessages(c.id), { content: 'otro texto' }, { 'idempotency-key': key })).statusCode).toBe(422);
  });
});

describe('staff side', () => {
  it('filters open / mine / unassigned / resolved, assigns, resolves and reopens; a user’s message reopens', async () => {
    const a = await newUser({ name: 'Filtro A' });
    const b = await newUser({ name: 'Filtro B' });
    const ca = await openOwn(a.agent);
    const cb = await openOwn(b.agent);
    await send(a.agent, ca.id, 'hola');
    await send(b.agent, cb.id, 'hola');
    const ids = async (filter: string, agent = admin.agent) =>
      (await agent.get(`${API.supportConversations}?filter=${filter}&search=Filtro&per_page=50`))
        .json<ConversationList>()
        .data.map((c) => c.id);

    expect(await ids('unassigned')).toEqual([cb.id, ca.id]);
    const assigned = await admin.agent.post(API.supportAssign(ca.id), { user_id: admin.user.id });
    expect(assigned.statusCode).toBe(200);
    expect(events('ConversationUpdated').map(([ch]) => ch[0])).toEqual(
      expect.arrayContaining(['presence-support.staff', `private-support.chat.${ca.id}`]),
    );
    expect(await ids('mine')).toEqual([ca.id]);
    expect(await ids('mine', admin2.agent)).toEqual([]);
    expect(await ids('unassigned')).toEqual([cb.id]);
    expect((await admin.agent.post(API.supportAssign(ca.id), { user_id: a.user.id })).statusCode).toBe(422);
    expect(
      (await admin.agent.post(API.supportAssign(ca.id), { user_id: admin2.user.id })).json<Answer<Conversation>>().data.assigned_to,
    ).toBe(admin2.user.id);
    expect(await ids('mine', admin2.agent)).toEqual([ca.id]);
    expect((await admin.agent.post(API.supportAssign(ca.id), { user_id: null })).json<Answer<Conversation>>().data.assigned_to).toBeNull();

    expect((await admin.agent.post(API.supportResolve(cb.id))).json<Answer<Conversation>>().data.status).toBe('resolved');
    expect(await ids('resolved')).toEqual([cb.id]);
    expect(await ids('open')).toEqual([ca.id]);
    expect((await admin.agent.post(API.supportReopen(cb.id))).json<Answer<Conversation>>().data.status).toBe('open');
    await admin.agent.post(API.supportResolve(cb.id));
    await send(b.agent, cb.id, 'sigo con el problema');
    expect(await ids('open')).toEqual([cb.id, ca.id]);
    expect(await ids('all')).toHaveLength(2);
    expect((await admin.agent.post(API.supportResolve(999_999))).statusCode).toBe(404);
    // A user sees only their own, whatever filter they send.
    expect((await a.agent.get(`${API.supportConversations}?filter=all`)).json<ConversationList>().data.map((c) => c.id)).toEqual([ca.id]);
  });

  it('searches users to start a conversation with (not staff), lists staff with who is online, and the side panel', async () => {
    const m = await buildModel(db(), { name: 'Zoe Panel', title: 'Zoe en Oviedo' });
    const agent = await loginAs(t.app, db(), m.userId);
    const c = await openOwn(agent);
    const found = (await admin.agent.get(`${API.supportUsers}?search=zoe pan`)).json<{
      data: { id: number; conversation_id: number | null }[];
    }>();
    expect(found.data).toEqual([expect.objectContaining({ id: m.userId, conversation_id: c.id })]);
    expect((await admin.agent.get(`${API.supportUsers}?search=Staff`)).json<{ data: unknown[] }>().data).toEqual([]);
    expect((await admin.agent.get(`${API.supportUsers}?search=%25`)).statusCode).toBe(200);

    const presence = vi.spyOn(t.app.broadcaster, 'presenceMembers').mockResolvedValue([{ user_id: String(admin2.user.id) }]);
    const staff = (await admin.agent.get(API.supportStaff)).json<{ data: { id: number; online: boolean }[] }>().data;
    expect(staff.find((s) => s.id === admin2.user.id)!.online).toBe(true);
    expect(staff.find((s) => s.id === admin.user.id)!.online).toBe(false);
    presence.mockRestore();

    const panel = (await admin.agent.get(API.supportUserPanel(c.id))).json<{ data: Record<string, unknown> }>().data;
    expect(panel).toMatchObject({
      user: { id: m.userId, name: 'Zoe Panel', role: 'model', status: 'active', language: 'es' },
      model_profiles: [{ id: m.profileId, name: 'Zoe Panel', status: 'active', city: 'Oviedo' }],
      publicist_profile: null,
      ads: [{ id: m.adId, title: 'Zoe en Oviedo', status: 'active', url: `/models/${m.adId}` }],
    });
    expect((await agent.get(API.supportUserPanel(c.id))).statusCode).toBe(403);
  });

  it('support status: online while a staff member is on presence-support.staff, else the usual reply time', async () => {
    const u = await newUser();
    const presence = vi.spyOn(t.app.broadcaster, 'presenceMembers').mockResolvedValue([]);
    const status = () => u.agent.get(API.supportStatus).then((r) => r.json<{ online: boolean; expected_reply_minutes: number | null }>());
    await db().delete(supportMessages);
    expect(await status()).toEqual({ online: false, staff_online: 0, expected_reply_minutes: null });
    const c = await openOwn(u.agent);
    const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 10, min));
    await db()
      .insert(supportMessages)
      .values([
        { conversationId: c.id, seq: 1, senderId: u.user.id, isStaff: false, content: 'a', createdAt: at(0) },
        { conversationId: c.id, seq: 2, senderId: u.user.id, isStaff: false, content: 'b', createdAt: at(1) },
        { conversationId: c.id, seq: 3, senderId: admin.user.id, isStaff: true, content: 'c', createdAt: at(20) },
        { conversationId: c.id, seq: 4, senderId: u.user.id, isStaff: false, content: 'd', createdAt: at(30) },
        { conversationId: c.id, seq: 5, senderId: admin.user.id, isStaff: true, content: 'e', createdAt: at(40) },
      ]);
    // Turns: 0 → 20 (20 min) and 30 → 40 (10 min): median 15.
    expect(await status()).toMatchObject({ online: false, expected_reply_minutes: 15 });
    presence.mockResolvedValue([{ user_id: String(admin.user.id) }]);
    expect(await status()).toMatchObject({ online: true, staff_online: 1 });
    presence.mockRestore();
  });
});

describe('a staff reply left unread', () => {
  it('notifies the user once while unread, and is e-mailed after 10 minutes in their language with a link back', async () => {
    const u = await newUser({ name: 'Emma', locale: 'en' });
    const c = await openOwn(u.agent);
    await send(u.agent, c.id, 'Help please');
    const sentAt = Date.now();
    await send(admin.agent, c.id, 'Hi Emma, could you send a screenshot?');
    await send(admin.agent, c.id, 'Thanks!');
    const notes = await db().select().from(notifications).where(eq(notifications.userId, u.user.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      kind: 'support.reply',
      message: 'New reply from support',
      description: 'Hi Emma, could you send a screenshot?',
    });
    expect(notes[0]!.data).toMatchObject({ conversation_id: c.id, link: `/messenger/${c.id}` });

    const [job] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.key, chatEmailKey(c.id)));
    expect(job!.runAt.getTime()).toBeGreaterThanOrEqual(sentAt + 10 * MIN - 1000);
    expect(await t.app.jobs.runDue(new Date(sentAt + 9 * MIN))).toBe(0);
    const before = t.app.mailer.outbox.length;
    // (with the jobs other tests left due by then)
    expect(await t.app.jobs.runDue(new Date(sentAt + 11 * MIN))).toBeGreaterThanOrEqual(1);
    // The chat job queued the mail itself (a `mail` job, sent by the runner's next poll).
    await drainJobs(t.app);
    const mail = t.app.mailer.outbox.slice(before).find((m) => m.to === u.user.email)!;
    expect(mail.subject).toBe('The Vitrina team has replied to you');
    expect(mail.text).toContain('You have 2 unread messages from the support team');
    expect(mail.text).toContain('“Thanks!”');
    expect(mail.text).toContain(`/en/messenger/${c.id}`);
    expect(
      await db()
        .select()
        .from(jobs)
        .where(eq(jobs.key, chatEmailKey(c.id))),
    ).toEqual([]);
  });

  it('read in time: no e-mail, the job is gone, and the bell’s reply notification is read', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    const reply = await send(admin.agent, c.id, 'Hola, ya está arreglado');
    await u.agent.post(API.supportRead(c.id), { seq: reply.seq });
    expect(
      await db()
        .select()
        .from(jobs)
        .where(eq(jobs.key, chatEmailKey(c.id))),
    ).toEqual([]);
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, u.user.id));
    expect(note!.readAt).not.toBeNull();
    const before = t.app.mailer.outbox.length;
    await t.app.jobs.runDue(new Date(Date.now() + 60 * MIN));
    await drainJobs(t.app);
    expect(t.app.mailer.outbox.slice(before).filter((m) => m.to === u.user.email)).toEqual([]);
  });

  it('if the job runs anyway after the replies were read, it sends nothing', async () => {
    const u = await newUser();
    const c = await openOwn(u.agent);
    await send(admin.agent, c.id, 'Hola');
    await db().update(supportMessages).set({ readAt: new Date() }).where(eq(supportMessages.conversationId, c.id));
    const before = t.app.mailer.outbox.length;
    expect(await t.app.jobs.runDue(new Date(Date.now() + 11 * MIN))).toBeGreaterThanOrEqual(1);
    await drainJobs(t.app);
    expect(t.app.mailer.outbox.slice(before).filter((m) => m.to === u.user.email)).toEqual([]);
  });
});
