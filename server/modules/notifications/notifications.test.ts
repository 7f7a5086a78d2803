import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import {
  NOTIFICATION_EVENT,
  notificationSchema,
  userPusherChannel,
  type Notification,
  type NotificationList,
} from '#contract/notifications.ts';
import { API } from '#contract/routes.ts';
import { ads, modelConsents, notifications, users } from '#server/db/schema.ts';
import { hashToken } from '#server/plugins/session.ts';
import type { Broadcaster } from '#server/realtime/broadcaster.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';
import { notify } from './notifications.ts';

let t: TestApp;
let admin: Agent;
const db = () => t.database.db;
let trigger: MockInstance<Broadcaster['trigger']>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, db(), { role: 'admin' })).agent;
});
afterAll(async () => t.close());
beforeEach(() => {
  trigger?.mockRestore();
  trigger = vi.spyOn(t.app.broadcaster, 'trigger');
});

/** Notifications broadcast to `userId` since the spy was set. */
function broadcastTo(userId: number): Notification[] {
  return trigger.mock.calls
    .filter(([channels, event]) => channels.includes(userPusherChannel(userId)) && event === NOTIFICATION_EVENT)
    .map(([, , data]) => data as Notification);
}

async function storedFor(userId: number) {
  return db().select().from(notifications).where(eq(notifications.userId, userId));
}

describe('notify', () => {
  it('stores the notification in the recipient’s language and broadcasts it on their private channel as Laravel does', async () => {
    const u = await buildUser(db());
    await db().update(users).set({ locale: 'en' }).where(eq(users.id, u.id));
    const n = await notify(t.app, u.id, { kind: 'support.reply', vars: { excerpt: 'Hello there' }, data: { conversation_id: 3 } });
    expect(n).toMatchObject({ kind: 'support.reply', type: 'info', message: 'New reply from support', description: 'Hello there' });
    expect(n!.read).toBe(false);
    expect(n!.placement).toBe('top-right');
    // What the texts were made of, for an app showing another language than the account's.
    expect(n!.data).toEqual({ conversation_id: 3, vars: { excerpt: 'Hello there' } });
    expect(trigger).toHaveBeenCalledWith(
      [`private-App.Models.User.${u.id}`],
      'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated',
      n,
      undefined,
    );
    // The payload is the notification: id and type as Laravel adds them, plus every field the bell shows.
    expect(notificationSchema.parse(broadcastTo(u.id)[0])).toEqual(n);
    expect(await storedFor(u.id)).toHaveLength(1);
  });

  it('a broadcast that fails does not lose the stored notification nor reach the caller', async () => {
    const u = await buildUser(db());
    trigger.mockRejectedValueOnce(new Error('socket server down'));
    const n = await notify(t.app, u.id, { kind: 'account.reinstated' });
    expect(n).toMatchObject({ message: 'Tu cuenta vuelve a estar activa', type: 'success' });
    expect(await storedFor(u.id)).toHaveLength(1);
  });

  it('answers null for an account that no longer exists', async () => {
    expect(await notify(t.app, 999_999, { kind: 'account.reinstated' })).toBeNull();
  });
});

describe('GET /api/notifications, mark read, mark all read', () => {
  it('lists the user’s own notifications newest first with the unread count; marks one and all read', async () => {
    const { agent, user } = await signedIn(t.app, db());
    const other = await buildUser(db());
    for (const excerpt of ['uno', 'dos', 'tres']) await notify(t.app, user.id, { kind: 'support.reply', vars: { excerpt } });
    const foreign = await notify(t.app, other.id, { kind: 'support.reply', vars: { excerpt: 'ajena' } });

    const res = await agent.get(`${API.notifications}?per_page=2`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const list = res.json<NotificationList>();
    expect(list.data.map((n) => n.description)).toEqual(['tres', 'dos']);
    expect(list.meta).toMatchObject({ total: 3, unread: 3, last_page: 2, per_page: 2 });

    const read = await agent.post(API.notificationRead(list.data[0]!.id));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ channel: 'notification', type: 'success', data: { unread: 2 } });
    // Again is harmless; another user's is not found.
    expect((await agent.post(API.notificationRead(list.data[0]!.id))).json()).toMatchObject({ data: { unread: 2 } });
    expect((await agent.post(API.notificationRead(foreign!.id))).statusCode).toBe(404);
    const [still] = await db().select().from(notifications).where(eq(notifications.id, foreign!.id));
    expect(still!.readAt).toBeNull();

    const unread = (await agent.get(`${API.notifications}?unread=1`)).json<NotificationList>();
    expect(unread.data.map((n) => n.description)).toEqual(['dos', 'uno']);
    expect((await agent.post(API.notificationsReadAll)).json()).toMatchObject({ data: { unread: 0 } });
    const after = (await agent.get(API.notifications)).json<NotificationList>();
    expect(after.meta.unread).toBe(0);
    expect(after.data.every((n) => n.read && n.read_at)).toBe(true);
    expect((await db().select().from(notifications).where(eq(notifications.id, foreign!.id)))[0]!.readAt).toBeNull();
  });

  it('401 without a session, 422 for a bad query, 404 for a malformed id', async () => {
    const visitor = await newAgent(t.app);
    expect((await visitor.get(API.notifications)).statusCode).toBe(401);
    expect((await visitor.post(API.notificationsReadAll)).statusCode).toBe(401);
    const { agent } = await signedIn(t.app, db());
    expect((await agent.get(`${API.notifications}?per_page=500`)).statusCode).toBe(422);
    expect((await agent.get(`${API.notifications}?colour=red`)).statusCode).toBe(422);
    expect((await agent.post(API.notificationRead('0x1'))).statusCode).toBe(404);
  });
});

describe('events that notify', () => {
  const decide = (body: Record<string, unknown>) => admin.post('/api/admin/decisions', body);

  it('an ad approved: the model hears it at once, with what to refresh on the open dashboard', async () => {
    const m = await buildModel(db(), { name: 'Noelia', adStatus: 'pending', title: 'Noelia en Oviedo' });
    const res = await decide({ subject_type: 'ad', subject_id: m.adId, action: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    const [n] = broadcastTo(m.userId);
    expect(n).toMatchObject({
      kind: 'ad.approved',
      type: 'success',
      message: 'Tu anuncio «Noelia en Oviedo» ha sido aprobado',
      data: { subject_type: 'ad', subject_id: m.adId, status: 'active', link: '/model/dashboard' },
    });
    expect(n!.data.refresh).toEqual(expect.arrayContaining(['ads', 'model_profile']));
    expect(await storedFor(m.userId)).toHaveLength(1);
  });

  // Issue 24 point 12: an approved ad of a model whose verification was not approved said "Ya se muestra en el
  // catálogo" while it was not listed.
  it('an ad approved says it is shown only when it is, and otherwise what is still missing', async () => {
    const listed = await buildModel(db(), { name: 'Vera', adStatus: 'pending', title: 'Vera en Avilés' });
    await decide({ subject_type: 'ad', subject_id: listed.adId, action: 'approve' });
    expect(broadcastTo(listed.userId)[0]!.description).toBe('Ya se muestra en el catálogo.');

    const cases: Array<[Partial<Parameters<typeof buildModel>[1]>, string]> = [
      [{ profileStatus: 'unverified' }, 'Aprobado: se mostrará en el catálogo cuando verifiques tu identidad.'],
      [
        { profileStatus: 'pending' },
        'Aprobado: se mostrará en el catálogo cuando aprobemos la verificación de identidad, que estamos revisando.',
      ],
      [{ adActive: false }, 'Aprobado: se mostrará en el catálogo cuando lo actives.'],
    ];
    for (const [spec, description] of cases) {
      const m = await buildModel(db(), { name: 'Wanda', adStatus: 'pending', ...spec });
      expect((await decide({ subject_type: 'ad', subject_id: m.adId, action: 'approve' })).statusCode).toBe(200);
      const [row] = await db().select({ isListed: ads.isListed }).from(ads).where(eq(ads.id, m.adId));
      expect(row!.isListed).toBe(false);
      const [n] = broadcastTo(m.userId);
      expect(n, JSON.stringify(spec)).toMatchObject({ kind: 'ad.approved', description });
      // Said again in another language from what it was made of: the same reason.
      expect(typeof n!.data.vars?.context).toBe('string');
      expect((await storedFor(m.userId))[0]!.description).toBe(description);
    }
  });

  it('an ad rejected: a warning that links its statement of reasons', async () => {
    const m = await buildModel(db(), { name: 'Nuria', adStatus: 'pending', title: 'Nuria en León' });
    const res = await decide({
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'reject',
      reason_codes: ['incomplete'],
      text: 'Faltan las tarifas del anuncio.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const statementId = res.json<{ data: { statement_id: number } }>().data.statement_id;
    const heard = broadcastTo(m.userId);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({
      kind: 'ad.rejected',
      type: 'warning',
      data: { statement_id: statementId, link: `/statements/${statementId}`, status: 'rejected' },
    });
  });

  it('a restriction: the notification links the statement of reasons; its appeal decided is another', async () => {
    const m = await buildModel(db(), { name: 'Olga', adStatus: 'active', title: 'Olga en Gijón' });
    const model = await loginAs(t.app, db(), m.userId);
    const res = await decide({
      subject_type: 'ad',
      subject_id: m.adId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'El anuncio está duplicado en otra ciudad.',
    });
    const statementId = res.json<{ data: { statement_id: number } }>().data.statement_id;
    const [n] = broadcastTo(m.userId);
    expect(n).toMatchObject({
      kind: 'ad.suspended',
      type: 'warning',
      message: 'Tu anuncio «Olga en Gijón» ha sido bloqueado',
      data: { statement_id: statementId, link: `/statements/${statementId}`, status: 'suspended' },
    });
    expect(n!.data.refresh).toContain('statements');

    await model.post(`/api/statements/${statementId}/appeal`, { text: 'No está duplicado, es otra sesión.' });
    const queue = (await admin.get('/api/admin/appeals')).json<{ data: { id: number; statement: { id: number } }[] }>();
    const appeal = queue.data.find((a) => a.statement.id === statementId)!;
    expect((await admin.post(`/api/admin/appeals/${appeal.id}/decide`, { outcome: 'reversed', text: 'Es otra sesión.' })).statusCode).toBe(
      200,
    );
    const appealed = broadcastTo(m.userId).find((x) => x.kind === 'appeal.reversed');
    expect(appealed).toMatchObject({ type: 'success', data: { statement_id: statementId, status: 'active' } });
    expect(appealed!.data.refresh).toEqual(expect.arrayContaining(['statements', 'ads']));
  });

  it('a profile, an agency and an account: each decision notifies the account it is about', async () => {
    const m = await buildModel(db(), { name: 'Paula', profileStatus: 'active' });
    await decide({
      subject_type: 'model_profile',
      subject_id: m.profileId,
      action: 'pause',
      reason_codes: ['incomplete'],
      text: 'Faltan datos de contacto.',
    });
    await decide({ subject_type: 'model_profile', subject_id: m.profileId, action: 'reinstate' });
    await decide({
      subject_type: 'user',
      subject_id: m.userId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'Cuenta usada para spam.',
    });
    await decide({ subject_type: 'user', subject_id: m.userId, action: 'reinstate' });
    expect(broadcastTo(m.userId).map((n) => n.kind)).toEqual([
      'model_profile.paused',
      'model_profile.reinstated',
      'account.suspended',
      'account.reinstated',
    ]);
    expect(broadcastTo(m.userId)[2]!.data.refresh).toContain('session');
    const p = await buildPublicist(db(), { name: 'Agencia Norte', status: 'pending' });
    const [pp] = await db().select({ id: users.id }).from(users).where(eq(users.id, p.userId));
    await decide({ subject_type: 'publicist_profile', subject_id: p.publicistId, action: 'approve' });
    expect(broadcastTo(pp!.id).map((n) => n.kind)).toEqual(['publicist_profile.approved']);
  });

  it('a photo kept in review is no news; a photo removed is', async () => {
    const m = await buildModel(db(), { name: 'Rita', photos: 2 });
    await decide({ subject_type: 'media', subject_id: m.mediaIds[0], action: 'approve' });
    expect(broadcastTo(m.userId)).toEqual([]);
    await decide({
      subject_type: 'media',
      subject_id: m.mediaIds[1],
      action: 'remove',
      reason_codes: ['photo_rules'],
      text: 'Se ve una matrícula.',
    });
    expect(broadcastTo(m.userId).map((n) => n.kind)).toEqual(['media.removed']);
  });

  it('a model’s consent given and withdrawn reaches the publicist who listed her', async () => {
    const p = await buildPublicist(db(), { name: 'Agencia Sur' });
    const m = await buildModel(db(), { name: 'Sonia' });
    const token = 'consent-token-for-notification-test-aaaaaaaa';
    await db()
      .insert(modelConsents)
      .values({
        modelProfileId: m.profileId,
        publicistId: p.publicistId,
        contact: 'sonia@example.test',
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    const visitor = await newAgent(t.app);
    const agreed = await visitor.post(`/api/consent/${token}`, { decision: 'agree' });
    expect(agreed.statusCode, agreed.body).toBe(200);
    const withdraw = t.app.mailer.outbox
      .filter((x) => x.to === 'sonia@example.test')
      .at(-1)!
      .text.match(/\/consent\/withdraw\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await visitor.post(`/api/consent/withdraw/${withdraw}`)).statusCode).toBe(200);
    const heard = broadcastTo(p.userId);
    expect(heard.map((n) => [n.kind, n.message])).toEqual([
      ['consent.given', 'Sonia ha aceptado que la anuncies'],
      ['consent.withdrawn', 'Sonia no da su consentimiento'],
    ]);
    expect(heard[0]!.data).toMatchObject({ subject_id: m.profileId, refresh: ['publicist_models'] });
  });
});
