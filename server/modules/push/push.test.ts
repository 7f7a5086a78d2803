/**
 * Web Push end to end on the server (issue 25): the app's pushes reach a real RFC 8030 push service on loopback
 * (tests/push-service.ts, HTTPS trusted through NODE_EXTRA_CA_CERTS), which checks the VAPID signature and decrypts
 * every payload with the device's own private key. No mocked web-push.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushPayloadSchema, type PushDevice, type PushPayload, type PushPreferences } from '#contract/push.ts';
import { API } from '#contract/routes.ts';
import { jobs, modelConsents, pushSubscriptions, sessions, users } from '#server/db/schema.ts';
import { hashToken } from '#server/plugins/session.ts';
import { signedIn, newAgent, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { startPushService, type PushService, type Subscriber } from '#tests/push-service.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';
import { deliverNotification } from './push-delivery.ts';

let t: TestApp;
let service: PushService;
let admin: Agent;
const db = () => t.database.db;

beforeAll(async () => {
  service = await startPushService();
  t = await createTestApp();
  t.config.push.endpointOrigins.push(service.origin);
  admin = (await signedIn(t.app, db(), { role: 'admin', name: 'Ana Staff' })).agent;
});
afterAll(async () => {
  await t.close();
  await service.stop();
});

/** A device of `userId` subscribed under a session of its own (as a phone signed in would be). */
async function device(userId: number): Promise<Subscriber> {
  const sub = service.subscriber();
  const idHash = hashToken(crypto.randomBytes(16).toString('hex'));
  await db()
    .insert(sessions)
    .values({ idHash, userId, expiresAt: new Date(Date.now() + 86_400_000) });
  await db().insert(pushSubscriptions).values({
    userId,
    sessionHash: idHash,
    endpoint: sub.subscription.endpoint,
    p256dh: sub.subscription.keys.p256dh,
    auth: sub.subscription.keys.auth,
  });
  return sub;
}

const payloads = (sub: Subscriber) => sub.received.map((r) => pushPayloadSchema.parse(r.json));

describe('subscriptions', () => {
  it('a signed-in user subscribes this device, lists it as current, switches a category off and removes it', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'model' });
    const sub = service.subscriber();
    const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
    const res = await agent.post(API.pushSubscriptions, sub.subscription, { 'user-agent': android });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ data: PushDevice }>().data).toMatchObject({ browser: 'Chrome', os: 'Android', device_type: 'mobile', current: true });
    expect((await agent.post(API.pushSubscriptions, sub.subscription)).statusCode).toBe(200);
    const list = (await agent.get(API.pushSubscriptions)).json<{ data: PushDevice[] }>().data;
    expect(list).toHaveLength(1);

    // Another user's device is not theirs to remove.
    const other = await signedIn(t.app, db(), { role: 'client' });
    expect((await other.agent.delete(API.pushSubscription(list[0]!.id))).statusCode).toBe(404);
    expect((await other.agent.get(API.pushSubscriptions)).json<{ data: PushDevice[] }>().data).toEqual([]);

    expect((await agent.get(API.pushPreferences)).json<{ data: PushPreferences }>().data).toEqual({
      support_chat: true,
      decisions: true,
      consent: true,
      saved_searches: true,
      previews: true,
    });
    const put = await agent.put(API.pushPreferences, { decisions: false, previews: false, saved_searches: false });
    expect(put.statusCode, put.body).toBe(200);
    expect((await agent.get(API.pushPreferences)).json<{ data: PushPreferences }>().data).toMatchObject({
      decisions: false,
      previews: false,
      saved_searches: false,
    });
    expect((await agent.put(API.pushPreferences, { decisions: 'no' })).statusCode).toBe(422);

    expect((await agent.delete(API.pushSubscription(list[0]!.id))).statusCode).toBe(200);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual([]);
    expect((await (await newAgent(t.app)).get(API.pushSubscriptions)).statusCode).toBe(401);
  });

  it('refuses an endpoint outside the push services, with a translated message, and stores nothing', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'client' });
    const keys = service.subscriber().subscription.keys;
    const bad = [
      'https://169.254.169.254/latest/meta-data',
      'https://evil.example/fcm.googleapis.com/send/x',
      'https://fcm.googleapis.com.evil.example/send/x',
      'https://user@fcm.googleapis.com/send/x',
      'https://fcm.googleapis.com:8443/send/x',
      `https://localhost:${new URL(service.origin).port}/push/x`,
      'https://notify.windows.com/w/x',
    ];
    for (const endpoint of bad) {
      const res = await agent.post(API.pushSubscriptions, { endpoint, expirationTime: null, keys });
      expect(res.statusCode, endpoint).toBe(422);
      expect(res.json<{ message: string }>().message).toBe('Este navegador usa un servicio de avisos que no admitimos.');
    }
    // Found by the fuzz suite: a lone surrogate in the endpoint was a 500 (the database refused the string).
    const lone = await agent.request({
      method: 'DELETE',
      url: API.pushSubscriptions,
      payload: { endpoint: 'https://fcm.googleapis.com/\udf73' },
    });
    expect(lone.statusCode).toBe(422);
    for (const endpoint of ['http://fcm.googleapis.com/send/x', 'not a url', 'https://fcm.googleapis.com/\udf73'])
      expect((await agent.post(API.pushSubscriptions, { endpoint, expirationTime: null, keys })).statusCode).toBe(422);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual([]);
    // The push services' own origins are fine (nothing is sent at subscription time).
    const fcm = await agent.post(API.pushSubscriptions, {
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      expirationTime: null,
      keys,
    });
    expect(fcm.statusCode, fcm.body).toBe(201);
    const wns = await agent.post(API.pushSubscriptions, {
      endpoint: 'https://wns2-db5p.notify.windows.com/w/?token=x',
      expirationTime: null,
      keys,
    });
    expect(wns.statusCode, wns.body).toBe(201);
  });

  it('signing out removes this device only; a suspension removes them all', async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'model' });
    const mine = service.subscriber();
    expect((await agent.post(API.pushSubscriptions, mine.subscription)).statusCode).toBe(201);
    const phone = await device(user.id);
    expect((await agent.post('/api/logout', {})).statusCode).toBe(200);
    const left = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(left.map((r) => r.endpoint)).toEqual([phone.subscription.endpoint]);

    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'user',
      subject_id: user.id,
      action: 'suspend',
      reason_codes: ['other'],
      text: 'Suspendida por una prueba de avisos.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual([]);
  });
});

describe('delivery', () => {
  it('a staff reply: exactly one push per device, decrypted in the user’s language, high urgency, short TTL, topic per conversation', async () => {
    const u = await signedIn(t.app, db(), { role: 'model', name: 'Carla' });
    await db().update(users).set({ locale: 'en' }).where(eq(users.id, u.user.id));
    const [a, b] = [await device(u.user.id), await device(u.user.id)];
    const c = (await u.agent.post(API.supportConversations, {})).json<{ data: { id: number } }>().data;
    const sent = await admin.post(API.supportMessages(c.id), { content: 'Hola Carla, ya está resuelto.' });
    expect(sent.statusCode, sent.body).toBe(201);
    await drainJobs(t.app);
    for (const sub of [a, b]) {
      expect(sub.received).toHaveLength(1);
      const r = sub.received[0]!;
      expect(r).toMatchObject({ urgency: 'high', ttl: '3600', topic: `chat-${c.id}`, contentEncoding: 'aes128gcm', vapidValid: true });
      expect(r.vapidKey).toBe(t.app.config.push.vapid.publicKey);
      expect(payloads(sub)[0]).toMatchObject({
        web_push: 8030,
        notification: {
          title: 'Support',
          body: 'Hola Carla, ya está resuelto.',
          navigate: `${t.config.appUrl}/en/messenger/${c.id}`,
          tag: `chat-${c.id}`,
          lang: 'en',
        },
        vitrina: {
          category: 'support_chat',
          kind: 'support.reply',
          path: `/en/messenger/${c.id}`,
          conversation_id: c.id,
          prefetch: [API.supportConversations, API.supportConversation(c.id), API.supportMessages(c.id)],
        },
      });
    }

    // Two more unread replies: one push each time, saying how many, with the same topic and tag (they replace).
    await admin.post(API.supportMessages(c.id), { content: 'Segundo mensaje' });
    await drainJobs(t.app);
    await admin.post(API.supportMessages(c.id), { content: 'Tercer mensaje' });
    await drainJobs(t.app);
    expect(a.received).toHaveLength(3);
    expect(payloads(a).at(-1)!.notification).toMatchObject({
      body: '3 new messages from Support',
      tag: `chat-${c.id}`,
    });
    expect(Number(payloads(a).at(-1)!.notification.app_badge)).toBeGreaterThanOrEqual(3);
    expect(a.received.at(-1)!.topic).toBe(`chat-${c.id}`);

    // Read: nothing is pushed for what the user has seen.
    await u.agent.post(API.supportRead(c.id), { seq: 99 });
    const before = a.received.length;
    const id = payloads(a).at(-1)!.vitrina.notification_id;
    expect(await deliverNotification(t.app, id)).toBe(0);
    expect(a.received).toHaveLength(before);
  });

  it('previews off: a reply is pushed without its text', async () => {
    const u = await signedIn(t.app, db(), { role: 'client' });
    await u.agent.put(API.pushPreferences, { previews: false });
    const sub = await device(u.user.id);
    const c = (await u.agent.post(API.supportConversations, {})).json<{ data: { id: number } }>().data;
    await admin.post(API.supportMessages(c.id), { content: 'Tu código secreto es 4321' });
    await drainJobs(t.app);
    expect(sub.received).toHaveLength(1);
    expect(sub.received[0]!.text).not.toContain('4321');
    expect(payloads(sub)[0]!.notification.body).toBe('Nuevo mensaje de Soporte');
  });

  it('a decision and a consent answer: one push per device; a category switched off gets none', async () => {
    const m = await buildModel(db(), { name: 'Noelia', adStatus: 'pending', title: 'Noelia en Oviedo' });
    const [a, b] = [await device(m.userId), await device(m.userId)];
    const res = await admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: m.adId, action: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    await drainJobs(t.app);
    for (const sub of [a, b]) {
      expect(sub.received).toHaveLength(1);
      expect(payloads(sub)[0]!.notification.tag).toMatch(/^n-\d+$/);
      expect(sub.received[0]).toMatchObject({ urgency: 'normal', ttl: String(4 * 24 * 3600), topic: undefined, vapidValid: true });
      expect(payloads(sub)[0]).toMatchObject({
        notification: { title: 'Tu anuncio «Noelia en Oviedo» ha sido aprobado' },
        vitrina: { category: 'decisions', kind: 'ad.approved', path: '/es/model/dashboard' },
      });
    }

    const p = await buildPublicist(db(), { name: 'Agencia Sur' });
    const model = await buildModel(db(), { name: 'Sonia' });
    const agency = await device(p.userId);
    const token = 'consent-token-for-push-test-aaaaaaaaaaaaaaaa';
    await db()
      .insert(modelConsents)
      .values({
        modelProfileId: model.profileId,
        publicistId: p.publicistId,
        contact: 'sonia.push@example.test',
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    const visitor = await newAgent(t.app);
    expect((await visitor.post(`/api/consent/${token}`, { decision: 'agree' })).statusCode).toBe(200);
    await drainJobs(t.app);
    expect(payloads(agency).map((x) => [x.vitrina.kind, x.vitrina.category])).toEqual([['consent.given', 'consent']]);

    // Decisions switched off: the next one is stored (the bell has it) but not pushed.
    const off = await buildModel(db(), { name: 'Olga', adStatus: 'pending', title: 'Olga en Gijón' });
    const offDevice = await device(off.userId);
    const { updatePreferences } = await import('./push-subscriptions.ts');
    await updatePreferences(db(), off.userId, { decisions: false });
    await admin.post('/api/admin/decisions', { subject_type: 'ad', subject_id: off.adId, action: 'approve' });
    await drainJobs(t.app);
    expect(offDevice.received).toEqual([]);
  });

  it('a device that is gone (410) is removed; one rate-limited (429) is retried alone and gets it once', async () => {
    const u = await buildUser(db(), { role: 'model' });
    const [gone, busy, fine] = [await device(u.id), await device(u.id), await device(u.id)];
    gone.answers.push({ status: 410 });
    busy.answers.push({ status: 429, headers: { 'retry-after': '1' } });
    const { notify } = await import('../notifications/notifications.ts');
    await notify(t.app, u.id, { kind: 'account.reinstated' });
    await drainJobs(t.app);
    expect(fine.received).toHaveLength(1);
    expect(busy.received).toHaveLength(0);
    const rows = await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, u.id));
    expect(rows.map((r) => r.endpoint).sort()).toEqual([busy.subscription.endpoint, fine.subscription.endpoint].sort());
    // The retry comes after the Retry-After; only the device that failed is sent to again.
    await t.app.jobs.runDue(new Date(Date.now() + 2_000));
    expect(busy.received).toHaveLength(1);
    expect(fine.received).toHaveLength(1);
    expect(payloads(busy)[0]!.vitrina.kind).toBe('account.reinstated');
  });

  it('a change that rolls back pushes nothing; a user without devices gets no job', async () => {
    const u = await buildUser(db(), { role: 'model' });
    const sub = await device(u.id);
    const { storeNotification } = await import('../notifications/notifications.ts');
    await db()
      .transaction(async (tx) => {
        await storeNotification(t.app, tx, u.id, { kind: 'account.reinstated' });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await drainJobs(t.app);
    expect(sub.received).toEqual([]);

    const lone = await buildUser(db(), { role: 'client' });
    await storeNotification(t.app, db(), lone.id, { kind: 'account.reinstated' });
    expect((await db().select().from(jobs).where(eq(jobs.name, 'push'))).length).toBe(0);
  });
});

describe('delivery with two processes on one database', () => {
  it('each device gets one push, not one per node', async () => {
    const second = await createTestApp(t.config.databaseUrl ? { databaseUrl: t.config.databaseUrl } : {});
    try {
      if (!t.config.databaseUrl) return; // PGlite is one process's database: the PostgreSQL run covers this.
      second.config.push.endpointOrigins.push(service.origin);
      const u = await buildUser(db(), { role: 'model' });
      const sub = await device(u.id);
      const { notify } = await import('../notifications/notifications.ts');
      await notify(t.app, u.id, { kind: 'account.reinstated' });
      await Promise.all([t.app.jobs.runDue(), second.app.jobs.runDue()]);
      await Promise.all([drainJobs(t.app), drainJobs(second.app)]);
      expect(sub.received).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

export type { PushPayload };
