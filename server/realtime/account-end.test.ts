/**
 * A suspended or erased account's open websockets are closed (4009, so pusher-js does not reconnect on its own):
 * the suspension (admin decisions) and both erasure paths (own deletion, staff deletion) call
 * app.broadcaster.terminateUserConnections after their commit. Other users' sockets stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
