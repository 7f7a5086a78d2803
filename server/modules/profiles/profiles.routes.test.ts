import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAgent } from '#tests/agent.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'a long enough secret 42';
let n = 0;
async function account(role: 'model' | 'publicist' | 'client', verify: boolean) {
  const agent = await newAgent(t.app);
  const email = `p${++n}-${Date.now()}@example.test`;
  await agent.post('/api/user/create', { name: 'Ana', email, password: PASSWORD, password_confirmation: PASSWORD, role });
  const text = [...t.app.mailer.outbox].reverse().find((m) => m.to === email)!.text;
  const m = text.match(/\/verify-email\/(\d+)\/([a-f0-9]{40})\?expires=(\d+)&signature=([a-f0-9]{64})/)!;
  if (verify) {
    await agent.post('/api/verify-email', { id: Number(m[1]), hash: m[2], expires: Number(m[3]), signature: m[4] });
  } else {
    await agent.post('/api/login', { email, password: PASSWORD });
  }
  return { agent, email };
}

describe('minimal profile creation', () => {
  it('refuses unverified users: they cannot publish yet', async () => {
    const { agent } = await account('model', false);
    const res = await agent.post('/api/profile/create', { display_name: 'Lucía' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'email_unverified' });
  });

  it('creates the model profile, ends the session and sends the user to /login', async () => {
    const { agent, email } = await account('model', true);
    const res = await agent.post('/api/profile/create', { display_name: 'Lucía' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: 'El perfil se ha creado con éxito!', redirect: '/login' });
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    const again = await newAgent(t.app);
    await again.post('/api/login', { email, password: PASSWORD });
    expect((await again.get('/api/user')).json()).toMatchObject({ data: { has_profile: true } });
    expect((await again.get('/api/profile/model')).json()).toMatchObject({ data: { display_name: 'Lucía', status: 'unverified' } });
    expect((await again.post('/api/profile/create', { display_name: 'Otra' })).statusCode).toBe(409);
  });

  it('creates the publicist profile on its own path, and only for publicists', async () => {
    const { agent: model } = await account('model', true);
    expect((await model.post('/api/publicist/profile/create', { display_name: 'Agencia' })).statusCode).toBe(403);
    const { agent } = await account('publicist', true);
    const short = await agent.post('/api/publicist/profile/create', { display_name: 'A' });
    expect(short.statusCode).toBe(422);
    expect((await agent.post('/api/publicist/profile/create', { display_name: 'Agencia Sur' })).statusCode).toBe(201);
  });

  it('answers 401 to visitors', async () => {
    const agent = await newAgent(t.app);
    expect((await agent.get('/api/profile/model')).statusCode).toBe(401);
    expect((await agent.post('/api/profile/create', { display_name: 'X' })).statusCode).toBe(401);
  });
});
