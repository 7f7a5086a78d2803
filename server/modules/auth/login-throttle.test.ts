import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#server/db/schema.ts';
import { newAgent, type Agent } from '#tests/agent.ts';
import { buildUser } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { hashPassword } from './passwords.ts';
import { clientNetwork, KNOWN_DEVICE_COOKIE } from './login-throttle.ts';

let t: TestApp;
let passwordHash: string;
beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t.close();
});

const PASSWORD = 'the owner knows this one 42';
let seq = 0;
/** Client addresses in a network of their own, so one test's per-IP counters do not leak into another's. */
function network() {
  const net = ++seq;
  return (n: number) => `10.${net}.${Math.floor(n / 250)}.${n % 250}`;
}

async function account(): Promise<string> {
  const { id, email } = await buildUser(t.database.db);
  await t.database.db.update(users).set({ passwordHash }).where(eq(users.id, id));
  return email;
}

function login(agent: Agent, email: string, password: string, remoteAddress: string) {
  return agent.request({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });
}

/** Wrong guesses at `email` from other browsers and IPs until the account is locked; returns how many it took. */
async function lockAccount(email: string): Promise<number> {
  const ip = network();
  for (let i = 0; i < 200; i++) {
    const res = await login(await newAgent(t.app), email, `guess number ${i}`, ip(Math.floor(i / 5)));
    if (res.statusCode === 429) return i;
    expect(res.statusCode).toBe(422);
  }
  throw new Error('200 guesses on one account from 40 IPs and no 429');
}

const mailsTo = (email: string) => t.app.mailer.outbox.filter((m) => m.to === email);
const resetToken = (text: string) => text.match(/\/reset-password\/([A-Za-z0-9_-]+)\?email=/)![1]!;

describe('sign-in throttling', () => {
  it('locks an account guessed at from 40 IPs long before 200 guesses, with Retry-After and the wait in words', async () => {
    const email = await account();
    const ip = network();
    const guesses = await lockAccount(email);
    expect(guesses).toBeLessThanOrEqual(10);

    const owner = await newAgent(t.app);
    const res = await login(owner, email, PASSWORD, ip(999));
    expect(res.statusCode).toBe(429);
    const body = res.json<{ error: string; message: string; data: { retry_after: number } }>();
    expect(body.error).toBe('too_many_requests');
    expect(body.message).toBe('Demasiados intentos. Vuelve a intentarlo dentro de 15 minutos.');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(body.data.retry_after).toBe(retryAfter);
    expect(owner.cookies.has('vitrina_session')).toBe(false);
  });

  it('locks an IP that sprays many accounts, whether or not they exist, and not other IPs', async () => {
    const ip = network();
    const sprayer = ip(1);
    const real = await account();
    let answered = 0;
    for (let i = 0; i < 300; i++) {
      const email = i === 5 ? real : `sprayed-${seq}-${i}@example.test`;
      const res = await login(await newAgent(t.app), email, 'Winter2026!', sprayer);
      if (res.statusCode === 429) break;
      expect(res.statusCode).toBe(422);
      answered++;
    }
    expect(answered).toBeLessThan(300);
    expect(answered).toBeLessThanOrEqual(30);
    const same = await login(await newAgent(t.app), real, PASSWORD, sprayer);
    expect(same.statusCode).toBe(429);
    expect(Number(same.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect((await login(await newAgent(t.app), real, PASSWORD, ip(2))).statusCode).toBe(200);
  });

  it('counts an IPv6 /64 as one client', async () => {
    const prefix = `2001:db8:${++seq}:7`;
    let answered = 0;
    for (let i = 1; i <= 300; i++) {
      const res = await login(await newAgent(t.app), `v6-${seq}-${i}@example.test`, 'Winter2026!', `${prefix}::${i.toString(16)}`);
      if (res.statusCode === 429) break;
      answered++;
    }
    expect(answered).toBeLessThanOrEqual(30);
    expect(clientNetwork(`${prefix}:0:0:0:1`)).toBe(clientNetwork(`${prefix}::ffff`));
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('2001:db8:0:1::1')).not.toBe(clientNetwork('2001:db8:0:2::1'));
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts one e-mail + IP limit whatever the case of the address', async () => {
    const ip = network();
    const email = await account();
    const agent = await newAgent(t.app);
    const from = ip(1);
    for (let i = 0; i < 5; i++) {
      const spelled = i % 2 ? email.toUpperCase() : email;
      expect((await login(agent, spelled, `wrong ${i}`, from)).statusCode).toBe(422);
    }
    expect((await login(agent, email.toUpperCase(), PASSWORD, from)).statusCode).toBe(429);
  });

  it('lets the owner in once the lock has run out', async () => {
    const ip = network();
    const email = await account();
    await lockAccount(email);
    const owner = await newAgent(t.app);
    const from = ip(500);
    expect((await login(owner, email, PASSWORD, from)).statusCode).toBe(429);
    // Stand-in for the 15 minutes: the same lock, with one second left.
    await t.app.authLimits.loginFailuresPerAccount.block(email.toLowerCase(), 1);
    expect(Number((await login(owner, email, PASSWORD, from)).headers['retry-after'])).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await login(owner, email, PASSWORD, from);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('lets a known device sign in meanwhile, but not a cookie earned on another account', async () => {
    const ip = network();
    const victim = await account();
    const owner = await newAgent(t.app);
    const home = ip(1);
    expect((await login(owner, victim, PASSWORD, home)).statusCode).toBe(200);
    expect(owner.cookies.get(KNOWN_DEVICE_COOKIE)).toBeTruthy();
    await owner.post('/api/logout');

    await lockAccount(victim);
    expect((await login(await newAgent(t.app), victim, PASSWORD, ip(2))).statusCode).toBe(429);
    // The owner's browser passes the lock, from home or from anywhere else.
    expect((await login(owner, victim, PASSWORD, home)).statusCode).toBe(200);
    await owner.post('/api/logout');
    expect((await login(owner, victim, PASSWORD, ip(3))).statusCode).toBe(200);

    // An attacker's own account gives them a known-device cookie for that account only.
    const attacker = await newAgent(t.app);
    expect((await login(attacker, await account(), PASSWORD, ip(4))).statusCode).toBe(200);
    await attacker.post('/api/logout');
    expect((await login(attacker, victim, PASSWORD, ip(4))).statusCode).toBe(429);
    // A forged or altered cookie is no known device either.
    const forged = await newAgent(t.app);
    const real = owner.cookies.get(KNOWN_DEVICE_COOKIE)!;
    forged.cookies.set(KNOWN_DEVICE_COOKIE, `${real.slice(0, -2)}${real.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await login(forged, victim, PASSWORD, ip(5))).statusCode).toBe(429);
  });

  it("stops trusting a known device that keeps guessing, and a device's typos do not lock the account", async () => {
    const ip = network();
    const email = await account();
    const device = await newAgent(t.app);
    expect((await login(device, email, PASSWORD, ip(1))).statusCode).toBe(200);
    await device.post('/api/logout');
    // Two IPs × 5 a minute: ten wrong passwords through the known device.
    for (let i = 0; i < 10; i++) expect((await login(device, email, `typo ${i}`, ip(2 + Math.floor(i / 5)))).statusCode).toBe(422);
    expect((await login(await newAgent(t.app), email, PASSWORD, ip(20))).statusCode).toBe(200);
    await lockAccount(email);
    expect((await login(device, email, PASSWORD, ip(21))).statusCode).toBe(429);
  });

  it('a password reset lifts the account lock for the browser that used the link', async () => {
    const ip = network();
    const email = await account();
    await lockAccount(email);
    const owner = await newAgent(t.app);
    const from = ip(1);
    expect((await owner.request({ method: 'POST', url: '/api/forgot-password', payload: { email }, remoteAddress: from })).statusCode).toBe(
      200,
    );
    const token = resetToken(mailsTo(email).at(-1)!.text);
    const NEW = 'a brand new passphrase 77';
    const reset = await owner.request({
      method: 'POST',
      url: '/api/reset-password',
      payload: { token, email, password: NEW, password_confirmation: NEW },
      remoteAddress: from,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(owner, email, NEW, from)).statusCode).toBe(200);
    await owner.post('/api/logout');
    // Whoever keeps guessing locks the account again, but not for the browser that reset the password.
    await lockAccount(email);
    expect((await login(await newAgent(t.app), email, NEW, ip(2))).statusCode).toBe(429);
    expect((await login(owner, email, NEW, ip(3))).statusCode).toBe(200);
  });
});

describe('forgot password', () => {
  it('a second request leaves the first link working; using one link spends them all', async () => {
    const email = await account();
    const agent = await newAgent(t.app);
    expect((await agent.post('/api/forgot-password', { email })).statusCode).toBe(200);
    const first = resetToken(mailsTo(email).at(-1)!.text);
    // A minute later (the per-address limit), someone else asks again for the same address.
    await t.app.authLimits.mailPerAddress.delete(email);
    const stranger = await newAgent(t.app);
    expect((await stranger.post('/api/forgot-password', { email })).statusCode).toBe(200);
    const second = resetToken(mailsTo(email).at(-1)!.text);
    expect(second).not.toBe(first);

    const NEW = 'chosen after the first mail';
    const res = await agent.post('/api/reset-password', { token: first, email, password: NEW, password_confirmation: NEW });
    expect(res.statusCode, res.body).toBe(200);
    const other = 'someone elses new password';
    const late = await agent.post('/api/reset-password', { token: second, email, password: other, password_confirmation: other });
    expect(late.statusCode).toBe(422);
  });

  it('mails one address at most 5 times an hour, answering alike whether or not it has an account', async () => {
    const known = await account();
    const unknown = `nobody-${seq}@example.test`;
    const answers: Record<string, number[]> = { [known]: [], [unknown]: [] };
    for (const email of [known, unknown]) {
      for (let i = 0; i < 7; i++) {
        await t.app.authLimits.mailPerAddress.delete(email);
        await t.app.authLimits.mailPerIp.delete('127.0.0.1');
        const res = await (await newAgent(t.app)).post('/api/forgot-password', { email: i % 2 ? email.toUpperCase() : email });
        answers[email]!.push(res.statusCode);
      }
    }
    expect(answers[known]).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers[unknown]).toEqual(answers[known]);
    expect(mailsTo(known)).toHaveLength(5);
  });
});
