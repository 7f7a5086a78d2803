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
const TRADER = {
  display_name: 'Agencia Sur',
  legal_name: 'Agencia Sur Producciones S.L.',
  tax_id: 'b12345678',
  address: 'Calle Mayor 5, 33001 Oviedo',
  phone_country: 'ES',
  phone: '612 34 56 78',
  email: 'Hola@AgenciaSur.test',
};
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
    const short = await agent.post('/api/publicist/profile/create', { ...TRADER, display_name: 'A' });
    expect(short.statusCode).toBe(422);
    // Trader details (EU DSA art. 30) are required.
    const bare = await agent.post('/api/publicist/profile/create', { display_name: 'Agencia Sur' });
    expect(bare.statusCode).toBe(422);
    expect(Object.keys(bare.json<{ errors: Record<string, string[]> }>().errors)).toEqual(
      expect.arrayContaining(['legal_name', 'tax_id', 'address', 'phone', 'email']),
    );
    const badPhone = await agent.post('/api/publicist/profile/create', { ...TRADER, phone: '12' });
    expect(badPhone.statusCode).toBe(422);
    expect((await agent.post('/api/publicist/profile/create', TRADER)).statusCode).toBe(201);
  });

  it('keeps the trader details, starts pending, and updates them with a version (409 when stale)', async () => {
    const { agent, email } = await account('publicist', true);
    expect((await agent.post('/api/publicist/profile/create', TRADER)).statusCode).toBe(201);
    const again = await newAgent(t.app);
    await again.post('/api/login', { email, password: PASSWORD });
    const mine = await again.get('/api/profile/publicist');
    expect(mine.statusCode).toBe(200);
    const profile = mine.json<{ data: { id: number; version: number } }>().data;
    expect(profile).toMatchObject({
      display_name: 'Agencia Sur',
      legal_name: 'Agencia Sur Producciones S.L.',
      tax_id: 'B12345678',
      phone: '+34612345678',
      phone_country: 'ES',
      email: 'hola@agenciasur.test',
      status: 'pending',
      version: 1,
      models: 0,
    });
    const update = await again.put(`/api/publicist/profile/update/${profile.id}`, {
      ...TRADER,
      address: 'Calle Uría 1, 33003 Oviedo',
      version: 1,
    });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({ data: { address: 'Calle Uría 1, 33003 Oviedo', version: 2 } });
    const stale = await again.put(`/api/publicist/profile/update/${profile.id}`, { ...TRADER, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ data: { current: { version: 2 } } });
    // Someone else's profile: 403; unknown: 404; malformed: 404.
    const { agent: other, email: otherEmail } = await account('publicist', true);
    await other.post('/api/publicist/profile/create', TRADER);
    const otherAgain = await newAgent(t.app);
    await otherAgain.post('/api/login', { email: otherEmail, password: PASSWORD });
    expect((await otherAgain.put(`/api/publicist/profile/update/${profile.id}`, { ...TRADER, version: 2 })).statusCode).toBe(403);
    expect((await otherAgain.put('/api/publicist/profile/update/99999999', { ...TRADER, version: 2 })).statusCode).toBe(404);
    expect((await otherAgain.put('/api/publicist/profile/update/abc', { ...TRADER, version: 2 })).statusCode).toBe(404);
  });

  it('answers 401 to visitors', async () => {
    const agent = await newAgent(t.app);
    expect((await agent.get('/api/profile/model')).statusCode).toBe(401);
    expect((await agent.post('/api/profile/create', { display_name: 'X' })).statusCode).toBe(401);
  });
});
