import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { supportConversations } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { AUTH_PER_MINUTE } from './broadcasting.routes.ts';

let t: TestApp;
const as = {} as Record<'client' | 'model' | 'admin' | 'super_admin', { agent: Agent; user: { id: number } }>;
let conversationId: number;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ['client', 'model', 'admin', 'super_admin'] as const) as[role] = await signedIn(t.app, db(), { role });
  const [c] = await db().insert(supportConversations).values({ userId: as.model.user.id }).returning();
  conversationId = c!.id;
});
afterAll(async () => t.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const sign = (text: string) => {
  const { key, secret } = t.config.realtime;
  return `${key}:${crypto.createHmac('sha256', secret).update(text).digest('hex')}`;
};

function auth(agent: Agent, channel: string, socketId = '1234.5678', headers: Record<string, string> = {}) {
  return agent.post(API.broadcastingAuth, form({ socket_id: socketId, channel_name: channel }), { ...FORM, ...headers });
}

describe('POST /broadcasting/auth', () => {
  it('signs the user’s own private channel for that user (channel_data names them), and refuses another user’s', async () => {
    const res = await auth(as.client.agent, `private-App.Models.User.${as.client.user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ auth: string; channel_data: string }>();
    expect(JSON.parse(body.channel_data)).toEqual({
      user_id: String(as.client.user.id),
      user_info: { name: 'Usuario de prueba', role: 'client' },
    });
    expect(body.auth).toBe(sign(`1234.5678:private-App.Models.User.${as.client.user.id}:${body.channel_data}`));
    expect((await auth(as.client.agent, `private-App.Models.User.${as.model.user.id}`)).statusCode).toBe(403);
    // Staff do not read other people's notifications either.
    expect((await auth(as.admin.agent, `private-App.Models.User.${as.client.user.id}`)).statusCode).toBe(403);
  });

  it('a support chat channel: its user and staff only', async () => {
    const channel = `private-support.chat.${conversationId}`;
    const own = (await auth(as.model.agent, channel)).json<{ auth: string; channel_data: string }>();
    expect(JSON.parse(own.channel_data)).toMatchObject({ user_id: String(as.model.user.id), user_info: { role: 'model' } });
    expect(own.auth).toBe(sign(`1234.5678:${channel}:${own.channel_data}`));
    expect((await auth(as.admin.agent, channel)).statusCode).toBe(200);
    expect((await auth(as.super_admin.agent, channel)).statusCode).toBe(200);
    expect((await auth(as.client.agent, channel)).statusCode).toBe(403);
    expect((await auth(as.admin.agent, 'private-support.chat.999999')).statusCode).toBe(403);
    expect((await auth(as.admin.agent, 'private-support.chat.99999999999')).statusCode).toBe(403);
  });

  it('presence-support.staff: admins and super admins, with their name and role as user_info', async () => {
    const res = await auth(as.admin.agent, 'presence-support.staff');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ auth: string; channel_data: string }>();
    expect(JSON.parse(body.channel_data)).toEqual({
      user_id: String(as.admin.user.id),
      user_info: { name: 'Usuario de prueba', role: 'admin' },
    });
    expect(body.auth).toBe(sign(`1234.5678:presence-support.staff:${body.channel_data}`));
    expect((await auth(as.super_admin.agent, 'presence-support.staff')).statusCode).toBe(200);
    for (const role of ['client', 'model'] as const) expect((await auth(as[role].agent, 'presence-support.staff')).statusCode).toBe(403);
  });

  it('any other channel is refused', async () => {
    for (const channel of [
      'news',
      'private-news',
      'presence-lobby',
      `private-App.Models.User.0${as.client.user.id}`,
      'private-encrypted-x',
    ]) {
      expect((await auth(as.client.agent, channel)).statusCode, channel).toBe(403);
    }
  });

  it('takes JSON too; a malformed socket id or missing channel is 422', async () => {
    const res = await as.client.agent.post(API.broadcastingAuth, {
      socket_id: '1.2',
      channel_name: `private-App.Models.User.${as.client.user.id}`,
    });
    expect(res.statusCode).toBe(200);
    expect((await auth(as.client.agent, `private-App.Models.User.${as.client.user.id}`, 'abc')).statusCode).toBe(422);
    expect((await as.client.agent.post(API.broadcastingAuth, form({ socket_id: '1.2' }), FORM)).statusCode).toBe(422);
  });

  it('guarded like every write: session (401), CSRF token (419), X-Requested-With (400)', async () => {
    const visitor = await newAgent(t.app);
    expect((await auth(visitor, 'private-App.Models.User.1')).statusCode).toBe(401);
    const noCsrf = await t.app.inject({
      method: 'POST',
      url: API.broadcastingAuth,
      headers: { ...FORM, 'x-requested-with': 'XMLHttpRequest' },
      cookies: Object.fromEntries([...as.client.agent.cookies].filter(([k]) => k !== 'XSRF-TOKEN')),
      payload: form({ socket_id: '1.2', channel_name: `private-App.Models.User.${as.client.user.id}` }),
    });
    expect(noCsrf.statusCode).toBe(419);
    const noXhr = await auth(as.client.agent, `private-App.Models.User.${as.client.user.id}`, '1.2', { 'x-requested-with': '' });
    expect(noXhr.statusCode).toBe(400);
    expect(noXhr.json()).toMatchObject({ error: 'xhr_required' });
  });
});

describe('POST /broadcasting/user-auth', () => {
  it('signs the user for pusher:signin with their id, name and role', async () => {
    const res = await as.model.agent.post(API.broadcastingUserAuth, form({ socket_id: '99.1' }), FORM);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ auth: string; user_data: string }>();
    expect(JSON.parse(body.user_data)).toMatchObject({ id: String(as.model.user.id), user_info: { role: 'model' } });
    expect(body.auth).toBe(sign(`99.1::user::${body.user_data}`));
    expect((await (await newAgent(t.app)).post(API.broadcastingUserAuth, form({ socket_id: '99.1' }), FORM)).statusCode).toBe(401);
    expect((await as.model.agent.post(API.broadcastingUserAuth, form({ socket_id: 'x' }), FORM)).statusCode).toBe(422);
  });
});

describe('rate limits', () => {
  it(`POST /broadcasting/auth: ${AUTH_PER_MINUTE} a minute per user, then 429 (each route its own count); another user is not held back`, async () => {
    const { agent, user } = await signedIn(t.app, db(), { role: 'client' });
    const channel = `private-App.Models.User.${user.id}`;
    for (let i = 0; i < AUTH_PER_MINUTE; i++) expect((await auth(agent, channel)).statusCode).toBe(200);
    const over = await auth(agent, channel);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: 'too_many_requests' });
    expect((await auth(as.client.agent, `private-App.Models.User.${as.client.user.id}`)).statusCode).toBe(200);
  });
});
