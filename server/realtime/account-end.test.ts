/**
 * A suspended or erased account's open websockets are closed (4009, so pusher-js does not reconnect on its own):
 * the suspension (admin decisions) and both erasure paths (own deletion, staff deletion) call
 * app.broadcaster.terminateUserConnections after their commit. Other users' sockets stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { supportConversations } from '#server/db/schema.ts';
import { signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildUser } from '#tests/factories.ts';
import { RawClient, connected, httpAuthorizedPusher, listeningApp, until, type ListeningApp } from './test-helpers.ts';

let t: ListeningApp;
let admin: Agent;

beforeAll(async () => {
  t = await listeningApp();
  admin = (await signedIn(t.app, t.database.db, { role: 'admin' })).agent;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** A socket signed in (pusher:signin) as `userId`, as the PWA's is after /broadcasting/user-auth. */
async function socketOf(userId: number): Promise<RawClient> {
  const s = await RawClient.connect(t.port, t.config.realtime.key);
  s.send({ event: 'pusher:signin', data: t.app.broadcaster.authenticateUser(s.socketId, { id: String(userId) }) });
  await s.next('pusher:signin_success');
  return s;
}

/**
 * A socket that never sends pusher:signin and only subscribes to the user's own channel and their support chat with
 * what the real POST /broadcasting/auth answers (as the PWA's pusher-js does before it signs in, or never does).
 */
async function authorizedOnly(agent: Agent, channels: string[]): Promise<RawClient> {
  const s = await RawClient.connect(t.port, t.config.realtime.key);
  for (const channel of channels) {
    const res = await agent.post(API.broadcastingAuth, new URLSearchParams({ socket_id: s.socketId, channel_name: channel }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    s.send({ event: 'pusher:subscribe', data: { channel, ...res.json<object>() } });
    expect((await s.next((f) => f.channel === channel)).event).toBe('pusher_internal:subscription_succeeded');
  }
  return s;
}

describe('ending an account ends its websockets', () => {
  it('suspension closes the user’s sockets with 4009; a bystander’s stays', async () => {
    const m = await buildModel(t.database.db, { name: 'Modelo Con Socket' });
    const [phone, laptop] = [await socketOf(m.userId), await socketOf(m.userId)];
    const bystander = await socketOf((await buildUser(t.database.db)).id);
    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'user',
      subject_id: m.userId,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'Anuncios repetidos.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await phone.closed).code).toBe(4009);
    expect((await laptop.closed).code).toBe(4009);
    await bystander.roundTrip();
    await bystander.close();
  });

  it('end to end: pusher-js signs in through POST /broadcasting/user-auth, and the suspension disconnects it', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const client = httpAuthorizedPusher(t.port, t.config.realtime.key, agent);
    try {
      await connected(client);
      client.signin();
      await client.user.signinDonePromise;
      expect(client.user.user_data).toMatchObject({ id: String(user.id) });
      // Its own notifications channel, authorized by the real route; another user's is refused.
      const own = client.subscribe(`private-App.Models.User.${user.id}`);
      await new Promise((resolve, reject) => {
        own.bind('pusher:subscription_succeeded', resolve);
        own.bind('pusher:subscription_error', reject);
      });
      const other = client.subscribe('private-App.Models.User.999999');
      const refused = await new Promise<{ type: string; error: string }>((resolve) => other.bind('pusher:subscription_error', resolve));
      expect(refused).toMatchObject({ type: 'AuthError', error: expect.stringContaining('403') as unknown });

      const left = new Promise<string>((resolve) =>
        client.connection.bind('state_change', (s: { current: string }) => (s.current !== 'connected' ? resolve(s.current) : undefined)),
      );
      const res = await admin.post('/api/admin/decisions', {
        subject_type: 'user',
        subject_id: user.id,
        action: 'suspend',
        reason_codes: ['spam'],
        text: 'Anuncios repetidos.',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(['disconnected', 'failed', 'unavailable']).toContain(await left);
      await until(() => (t.app.realtime?.localSubscriberCount(`private-App.Models.User.${user.id}`) ?? 0) === 0);
    } finally {
      client.disconnect();
    }
  });

  it('staff deleting an account closes its sockets', async () => {
    const user = await buildUser(t.database.db);
    const s = await socketOf(user.id);
    const res = await admin.delete(`/api/profile/delete/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.closed).code).toBe(4009);
  });

  it('deleting one’s own account closes one’s sockets', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'client' });
    const s = await socketOf(user.id);
    const confirm = await agent.post('/api/user/confirm-password', { password: 'a long enough test secret 42' });
    expect(confirm.statusCode, confirm.body).toBe(201);
    const res = await agent.delete(`/api/profile/delete/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.closed).code).toBe(4009);
  });

  it('suspension also closes sockets that only subscribed through /broadcasting/auth, never signed in', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const [c] = await t.database.db.insert(supportConversations).values({ userId: user.id }).returning();
    const chat = `private-support.chat.${c!.id}`;
    const quiet = await authorizedOnly(agent, [`private-App.Models.User.${user.id}`, chat]);
    const staffSide = await authorizedOnly(admin, [chat]);
    const res = await admin.post('/api/admin/decisions', {
      subject_type: 'user',
      subject_id: user.id,
      action: 'suspend',
      reason_codes: ['spam'],
      text: 'Anuncios repetidos.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await quiet.closed).code).toBe(4009);
    // Staff's socket on the same chat stays, and hears nothing more from the suspended one.
    await staffSide.roundTrip();
    expect(staffSide.ws.readyState).toBe(staffSide.ws.OPEN);
    await staffSide.close();
  });

  it('erasure closes them too', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'client' });
    const quiet = await authorizedOnly(agent, [`private-App.Models.User.${user.id}`]);
    const res = await admin.delete(`/api/profile/delete/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await quiet.closed).code).toBe(4009);
  });

  it('end to end: pusher-js authorized over HTTP and never signed in is disconnected by the suspension', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const client = httpAuthorizedPusher(t.port, t.config.realtime.key, agent);
    try {
      await connected(client);
      const own = client.subscribe(`private-App.Models.User.${user.id}`);
      await new Promise((resolve, reject) => {
        own.bind('pusher:subscription_succeeded', resolve);
        own.bind('pusher:subscription_error', reject);
      });
      const left = new Promise<string>((resolve) =>
        client.connection.bind('state_change', (s: { current: string }) => (s.current !== 'connected' ? resolve(s.current) : undefined)),
      );
      const res = await admin.post('/api/admin/decisions', {
        subject_type: 'user',
        subject_id: user.id,
        action: 'suspend',
        reason_codes: ['spam'],
        text: 'Anuncios repetidos.',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(['disconnected', 'failed', 'unavailable']).toContain(await left);
    } finally {
      client.disconnect();
    }
  });
});

describe('whispers through the real /broadcasting/auth (issue 24 point 3)', () => {
  it('a user’s typing whisper reaches staff with the user’s own id and name, whatever they wrote', async () => {
    const { agent, user } = await signedIn(t.app, t.database.db, { role: 'model' });
    const [c] = await t.database.db.insert(supportConversations).values({ userId: user.id }).returning();
    const chat = `private-support.chat.${c!.id}`;
    const [mine, staff] = [await authorizedOnly(agent, [chat]), await authorizedOnly(admin, [chat])];
    mine.send({ event: 'client-typing', channel: chat, data: { user_id: 1, name: 'Soporte Vitrina', typing: true } });
    const got = await staff.next('client-typing');
    expect(got.data).toEqual({ user_id: String(user.id), name: 'Usuario de prueba', typing: true });
    expect(got.user_id).toBe(String(user.id));
    await Promise.all([mine.close(), staff.close()]);
  });
});
