import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens, sessions, users } from '#server/db/schema.ts';
import { newAgent, type Agent } from '#tests/agent.ts';
import { createTestApp, XHR, type TestApp } from '#tests/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'a long enough secret 42';
let seq = 0;
const uniqueEmail = (p = 'user') => `${p}${++seq}-${Date.now()}@example.test`;
const outbox = () => t.app.mailer.outbox;
const lastMailTo = (email: string) => [...outbox()].reverse().find((m) => m.to === email);
const userCount = async () => Number((await t.database.db.select({ n: sql<number>`count(*)` }).from(users))[0]!.n);

function verifyParams(text: string) {
  const m = text.match(/\/verify-email\/(\d+)\/([a-f0-9]{40})\?expires=(\d+)&signature=([a-f0-9]{64})/);
  if (!m) throw new Error(`no verification link in ${text}`);
  return { id: Number(m[1]), hash: m[2]!, expires: Number(m[3]), signature: m[4]! };
}

async function registered(role: 'model' | 'publicist' | 'client' = 'model', lang = 'es') {
  const agent = await newAgent(t.app);
  const email = uniqueEmail(role);
  const res = await agent.post(
    '/api/user/create',
    { name: 'Ana', email, password: PASSWORD, password_confirmation: PASSWORD, role },
    { 'x-locale': lang },
  );
  expect(res.statusCode).toBe(201);
  return { agent, email };
}

async function verified(role: 'model' | 'publicist' | 'client' = 'model') {
  const { agent, email } = await registered(role);
  const res = await agent.post('/api/verify-email', verifyParams(lastMailTo(email)!.text));
  expect(res.statusCode).toBe(200);
  return { agent, email };
}

async function loggedIn(email: string, password = PASSWORD): Promise<Agent> {
  const agent = await newAgent(t.app);
  const res = await agent.post('/api/login', { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return agent;
}

describe('POST /api/user/create (register)', () => {
  it('creates an unverified user with an argon2id hash and mails a signed link in their language', async () => {
    const { email } = await registered('publicist', 'de');
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({ role: 'publicist', status: 'unverified', locale: 'de', emailVerifiedAt: null });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const mail = lastMailTo(email)!;
    expect(mail.subject).toBe('Bestätige deine E-Mail-Adresse');
    expect(mail.text).toMatch(/\/de\/verify-email\/\d+\/[a-f0-9]{40}\?expires=\d+&signature=[a-f0-9]{64}/);
    expect(mail.html).toContain('<a href=');
  });

  it('does not log the new user in', async () => {
    const { agent } = await registered();
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });

  it('answers an existing address exactly like a new one, stores nothing and warns its owner', async () => {
    const { email } = await registered();
    const before = await userCount();
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/user/create', {
      name: 'Eve',
      email: email.toUpperCase(),
      password: PASSWORD,
      password_confirmation: PASSWORD,
      role: 'client',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'success', message: '¡Cuenta creada! Revisa tu correo.' });
    expect(await userCount()).toBe(before);
    expect(lastMailTo(email)!.subject).toBe('Intento de registro con tu correo');
  });

  it.each([
    ['a missing name', { name: '' }, 'name'],
    ['a bad e-mail', { email: 'not-an-email' }, 'email'],
    ['a 7-character password', { password: 'short77', password_confirmation: 'short77' }, 'password'],
    ['a 129-character password', { password: 'x'.repeat(129), password_confirmation: 'x'.repeat(129) }, 'password'],
    ['a confirmation that does not match', { password_confirmation: 'something else entirely' }, 'password_confirmation'],
    ['the admin role', { role: 'admin' }, 'role'],
    ['a very common password', { password: 'password123', password_confirmation: 'password123' }, 'password'],
  ])('refuses %s with a 422 field error and stores nothing', async (_label, patch, field) => {
    const before = await userCount();
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/user/create', {
      name: 'Ana',
      email: uniqueEmail(),
      password: PASSWORD,
      password_confirmation: PASSWORD,
      role: 'model',
      ...patch,
    });
    expect(res.statusCode).toBe(422);
    const body = res.json<{ error: string; errors: Record<string, string[]> }>();
    expect(body.error).toBe('validation_failed');
    expect(body.errors[field]?.[0]).toBeTruthy();
    expect(await userCount()).toBe(before);
  });

  it('explains field errors in the request language', async () => {
    const agent = await newAgent(t.app);
    const res = await agent.post(
      '/api/user/create',
      { name: 'Ana', email: uniqueEmail(), password: 'short', password_confirmation: 'short', role: 'model' },
      { 'x-locale': 'es' },
    );
    expect(res.json<{ errors: Record<string, string[]> }>().errors.password).toEqual(['Debe tener al menos 8 caracteres.']);
  });

  it('refuses a request without the CSRF token (419) or without the XHR header (400)', async () => {
    const body = { name: 'Ana', email: uniqueEmail(), password: PASSWORD, password_confirmation: PASSWORD, role: 'model' };
    const noCsrf = await t.app.inject({ method: 'POST', url: '/api/user/create', payload: body, headers: XHR });
    expect(noCsrf.statusCode).toBe(419);
    const noXhr = await t.app.inject({
      method: 'POST',
      url: '/api/user/create',
      payload: body,
      cookies: { 'XSRF-TOKEN': 'x' },
      headers: { 'x-xsrf-token': 'x' },
    });
    expect(noXhr.statusCode).toBe(400);
  });

  it('registers publicists on /api/publicist/create', async () => {
    const agent = await newAgent(t.app);
    const email = uniqueEmail('pub');
    const res = await agent.post('/api/publicist/create', { name: 'Agencia', email, password: PASSWORD, password_confirmation: PASSWORD });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.role).toBe('publicist');
  });
});

describe('POST /api/verify-email', () => {
  it('verifies, logs the user in and offers to create the profile', async () => {
    const { agent, email } = await registered('model');
    const res = await agent.post('/api/verify-email', verifyParams(lastMailTo(email)!.text));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      channel: 'modal',
      message: '¡Correo verificado!',
      description: 'Tu correo electrónico ha sido verificado.',
      okText: 'Crear perfil',
      verified: true,
      user: { role: 'model' },
      redirect: '/profile/model/create',
    });
    const me = await agent.get('/api/user');
    expect(me.json()).toMatchObject({ data: { email, status: 'active', has_profile: false } });
    expect(me.json<{ data: { email_verified_at: string } }>().data.email_verified_at).toBeTruthy();
  });

  it('sends clients to their dashboard', async () => {
    const { agent, email } = await registered('client');
    const res = await agent.post('/api/verify-email', verifyParams(lastMailTo(email)!.text));
    expect(res.json()).toMatchObject({ user: { role: 'client' }, redirect: '/dashboard', okText: 'Ir a mi panel' });
  });

  it('refuses a tampered signature, a link for another address and an expired link', async () => {
    const { agent, email } = await registered();
    const p = verifyParams(lastMailTo(email)!.text);
    const tampered = await agent.post('/api/verify-email', { ...p, signature: p.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toMatchObject({ message: 'El enlace de verificación no es válido.' });
    const otherId = await agent.post('/api/verify-email', { ...p, id: p.id + 100000 });
    expect(otherId.statusCode).toBe(403);
    const expired = await agent.post('/api/verify-email', { ...p, expires: p.expires - 3601 });
    expect(expired.statusCode).toBe(403);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(row!.emailVerifiedAt).toBeNull();
  });

  it('does not log in again when a used link is replayed elsewhere', async () => {
    const { email } = await verified();
    const stranger = await newAgent(t.app);
    const res = await stranger.post('/api/verify-email', verifyParams(lastMailTo(email)!.text));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ redirect: '/login' });
    expect((await stranger.get('/api/user')).statusCode).toBe(401);
  });

  it('answers 422 for malformed parameters', async () => {
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/verify-email', { id: 'x', hash: 'nope', expires: -1, signature: '' });
    expect(res.statusCode).toBe(422);
  });
});

describe('POST /api/verification/send (resend)', () => {
  it('needs a session, then sends once a minute per address', async () => {
    const { email } = await registered();
    const anonymous = await newAgent(t.app);
    expect((await anonymous.post('/api/verification/send')).statusCode).toBe(401);
    const agent = await loggedIn(email);
    const first = await agent.post('/api/verification/send');
    expect(first.statusCode).toBe(200);
    const second = await agent.post('/api/verification/send');
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBeTruthy();
  });
});

describe('login, current user and logout', () => {
  it('logs in with an HttpOnly SameSite=Lax session cookie, rotates it, and shows the user', async () => {
    const { email } = await verified('publicist');
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/login', { email, password: PASSWORD, remember: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ redirect: '/publicist/dashboard', data: { user: { email, role: 'publicist' } } });
    const cookie = res.cookies.find((c) => c.name === 'vitrina_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.value.length).toBeGreaterThanOrEqual(32);
    const stored = await t.database.db.select().from(sessions);
    expect(stored.some((s) => s.idHash === cookie.value)).toBe(false);

    const first = cookie.value;
    const again = await agent.post('/api/login', { email, password: PASSWORD });
    const rotated = again.cookies.find((c) => c.name === 'vitrina_session')!.value;
    expect(rotated).not.toBe(first);
    const old = await t.app.inject({ method: 'GET', url: '/api/user', headers: XHR, cookies: { vitrina_session: first } });
    expect(old.statusCode).toBe(401);

    const me = await agent.get('/api/user');
    expect(me.json<{ data: Record<string, unknown> }>().data).toMatchObject({ email, role: 'publicist', status: 'active' });
    expect(Object.keys(me.json<{ data: Record<string, unknown> }>().data)).toEqual(
      expect.arrayContaining(['id', 'name', 'email', 'role', 'status', 'email_verified_at']),
    );
  });

  it('lets unverified users log in', async () => {
    const { email } = await registered('model');
    const agent = await loggedIn(email);
    expect((await agent.get('/api/user')).json()).toMatchObject({ data: { email_verified_at: null, status: 'unverified' } });
  });

  it('answers the same 422 for a wrong password and an unknown e-mail', async () => {
    const { email } = await verified();
    const agent = await newAgent(t.app);
    const wrong = await agent.post('/api/login', { email, password: 'wrong password here' });
    const unknown = await agent.post('/api/login', { email: uniqueEmail('ghost'), password: 'wrong password here' });
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.json<{ errors: unknown }>().errors).toEqual(unknown.json<{ errors: unknown }>().errors);
  });

  it('allows 5 attempts a minute per e-mail and IP', async () => {
    const { email } = await verified();
    const agent = await newAgent(t.app);
    for (let i = 0; i < 5; i++) expect((await agent.post('/api/login', { email, password: `wrong password ${i}` })).statusCode).toBe(422);
    const blocked = await agent.post('/api/login', { email, password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error: 'too_many_requests' });
  });

  it('ends the session at logout', async () => {
    const { email } = await verified();
    const agent = await loggedIn(email);
    const token = agent.cookies.get('vitrina_session')!;
    expect((await agent.post('/api/logout')).statusCode).toBe(200);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
    const replay = await t.app.inject({ method: 'GET', url: '/api/user', headers: XHR, cookies: { vitrina_session: token } });
    expect(replay.statusCode).toBe(401);
  });
});

describe('forgot and reset password', () => {
  async function resetToken(email: string) {
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/forgot-password', { email });
    expect(res.statusCode).toBe(200);
    const m = lastMailTo(email)!.text.match(/\/reset-password\/([A-Za-z0-9_-]+)\?email=/);
    return m![1]!;
  }

  it('answers the same for known and unknown addresses, and mails only known ones', async () => {
    const { email } = await verified();
    const agent = await newAgent(t.app);
    const known = await agent.post('/api/forgot-password', { email });
    const ghost = uniqueEmail('ghost');
    const unknown = await agent.post('/api/forgot-password', { email: ghost });
    expect(known.json()).toEqual(unknown.json());
    expect(lastMailTo(email)!.subject).toBe('Restablece tu contraseña');
    expect(lastMailTo(ghost)).toBeUndefined();
  });

  it('resets once with the token, ends every session, and refuses the reused token', async () => {
    const { email } = await verified();
    const session = await loggedIn(email);
    const token = await resetToken(email);
    const stored = await t.database.db.select().from(passwordResetTokens);
    expect(stored.some((r) => r.tokenHash === token)).toBe(false);

    const agent = await newAgent(t.app);
    const NEW = 'my brand new passphrase';
    const res = await agent.post('/api/reset-password', { token, email, password: NEW, password_confirmation: NEW });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ redirect: '/login' });
    expect((await session.get('/api/user')).statusCode).toBe(401);
    await loggedIn(email, NEW);

    const reuse = await agent.post('/api/reset-password', {
      token,
      email,
      password: 'another new passphrase',
      password_confirmation: 'another new passphrase',
    });
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json<{ errors: Record<string, string[]> }>().errors.email).toBeTruthy();
  });

  it('refuses an expired token', async () => {
    const { email } = await verified();
    const token = await resetToken(email);
    await t.database.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/reset-password', {
      token,
      email,
      password: 'my brand new passphrase',
      password_confirmation: 'my brand new passphrase',
    });
    expect(res.statusCode).toBe(422);
  });

  it('sends at most one mail a minute per address', async () => {
    const { email } = await verified();
    const agent = await newAgent(t.app);
    expect((await agent.post('/api/forgot-password', { email })).statusCode).toBe(200);
    expect((await agent.post('/api/forgot-password', { email })).statusCode).toBe(429);
  });
});

describe('password confirmation, password change, profile information, deletion', () => {
  it('changes the password only with the current one, and ends the other sessions', async () => {
    const { email } = await verified();
    const a = await loggedIn(email);
    const b = await loggedIn(email);
    const wrong = await a.put('/api/user/password', {
      current_password: 'not it at all',
      password: 'the next passphrase',
      password_confirmation: 'the next passphrase',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<{ errors: Record<string, string[]> }>().errors.current_password).toEqual(['La contraseña no es correcta.']);
    const res = await a.put('/api/user/password', {
      current_password: PASSWORD,
      password: 'the next passphrase',
      password_confirmation: 'the next passphrase',
    });
    expect(res.statusCode).toBe(200);
    expect((await a.get('/api/user')).statusCode).toBe(200);
    expect((await b.get('/api/user')).statusCode).toBe(401);
  });

  it('changing the e-mail asks for a new verification', async () => {
    const { email } = await verified();
    const agent = await loggedIn(email);
    const next = uniqueEmail('moved');
    const res = await agent.put('/api/user/profile-information', { name: 'Ana María', email: next });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { user: { name: 'Ana María', email: next, email_verified_at: null } } });
    expect(lastMailTo(next)!.subject).toBe('Verifica tu correo electrónico');
  });

  it('refuses an e-mail that belongs to someone else', async () => {
    const { email: theirs } = await verified();
    const { email } = await verified();
    const agent = await loggedIn(email);
    const res = await agent.put('/api/user/profile-information', { name: 'X', email: theirs });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors.email).toEqual(['Este correo ya está en uso.']);
  });

  it('deletes the own account only after the password was confirmed', async () => {
    const { email } = await verified();
    const agent = await loggedIn(email);
    const me = (await agent.get('/api/user')).json<{ data: { id: number } }>().data;
    const early = await agent.delete(`/api/profile/delete/${me.id}`);
    expect(early.statusCode).toBe(423);
    expect(early.json()).toMatchObject({ error: 'password_confirmation_required' });
    expect((await agent.post('/api/user/confirm-password', { password: 'wrong password!' })).statusCode).toBe(422);
    expect((await agent.post('/api/user/confirm-password', { password: PASSWORD })).statusCode).toBe(201);
    expect((await agent.get('/api/user/confirmed-password-status')).json()).toEqual({ confirmed: true });
    const res = await agent.delete(`/api/profile/delete/${me.id}`);
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.select().from(users).where(eq(users.id, me.id))).toEqual([]);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });

  it("lets staff delete a member's account but not members each other's", async () => {
    const { email: victim } = await verified('client');
    const victimId = (await t.database.db.select().from(users).where(eq(users.email, victim)))[0]!.id;
    const { email: other } = await verified('model');
    const member = await loggedIn(other);
    expect((await member.delete(`/api/profile/delete/${victimId}`)).statusCode).toBe(403);
    const admin = await loggedIn('admin@vitrina.test', 'demo-password-123');
    expect((await admin.delete(`/api/profile/delete/${victimId}`)).statusCode).toBe(200);
    const superId = (await t.database.db.select().from(users).where(eq(users.email, 'superadmin@vitrina.test')))[0]!.id;
    expect((await admin.delete(`/api/profile/delete/${superId}`)).statusCode).toBe(403);
    expect((await admin.delete('/api/profile/delete/99999999')).statusCode).toBe(404);
  });
});

describe('POST /api/admin/create', () => {
  const body = () => ({ name: 'Nuevo Admin', email: uniqueEmail('admin'), password: PASSWORD, password_confirmation: PASSWORD });
  it('is for super admins only', async () => {
    const anonymous = await newAgent(t.app);
    expect((await anonymous.post('/api/admin/create', body())).statusCode).toBe(401);
    const admin = await loggedIn('admin@vitrina.test', 'demo-password-123');
    expect((await admin.post('/api/admin/create', body())).statusCode).toBe(403);
    const superAdmin = await loggedIn('superadmin@vitrina.test', 'demo-password-123');
    const res = await superAdmin.post('/api/admin/create', body());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ data: { user: { role: 'admin', status: 'active' } } });
  });
});

describe('demo accounts', () => {
  it('exist for every role, verified, with the demo password', async () => {
    for (const [email, dashboard] of [
      ['superadmin@vitrina.test', '/super-admin/dashboard'],
      ['admin@vitrina.test', '/admin/dashboard'],
      ['publicist@vitrina.test', '/publicist/dashboard'],
      ['model@vitrina.test', '/model/dashboard'],
      ['client@vitrina.test', '/dashboard'],
    ] as const) {
      const agent = await newAgent(t.app);
      const res = await agent.post('/api/login', { email, password: 'demo-password-123' });
      expect(res.statusCode, email).toBe(200);
      expect(res.json()).toMatchObject({ redirect: dashboard });
    }
  });
});

describe('registration limit', () => {
  it('refuses more registrations per IP and hour than configured', async () => {
    const limited = await createTestApp({ registerLimitPerHour: 2 });
    try {
      const agent = await newAgent(limited.app);
      const body = () => ({ name: 'Ana', email: uniqueEmail('lim'), password: PASSWORD, password_confirmation: PASSWORD, role: 'client' });
      expect((await agent.post('/api/user/create', body())).statusCode).toBe(201);
      expect((await agent.post('/api/user/create', body())).statusCode).toBe(201);
      expect((await agent.post('/api/user/create', body())).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
