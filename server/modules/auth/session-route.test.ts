import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { sessions, users } from '#server/db/schema.ts';
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

describe('GET /api/session (the PWA asks who is signed in)', () => {
  it('answers a visitor 200 with no user, while GET /api/user keeps its 401', async () => {
    const visitor = await newAgent(t.app);
    const res = await visitor.get(API.session);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((await visitor.get('/api/user')).statusCode).toBe(401);
  });

  it('answers a signed-in user with the same user as GET /api/user, and null again after logout', async () => {
    const agent = await newAgent(t.app);
    const email = `session-${Date.now()}@example.test`;
    const created = await agent.post('/api/user/create', {
      name: 'Ana',
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      role: 'client',
    });
    expect(created.statusCode).toBe(201);
    expect((await agent.post('/api/login', { email, password: PASSWORD })).statusCode).toBe(200);
    const session = await agent.get(API.session);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual((await agent.get('/api/user')).json());
    expect(session.json()).toMatchObject({ data: { email, role: 'client' } });
    // A suspended account still learns who it is (its restricted view needs it).
    await t.database.db.update(users).set({ status: 'suspended' }).where(eq(users.email, email));
    expect((await agent.get(API.session)).json()).toMatchObject({ data: { email, status: 'suspended' } });
    expect((await agent.post('/api/logout', {})).statusCode).toBe(200);
    expect((await agent.get(API.session)).json()).toEqual({ data: null });
  });

  it('after the session ended on the server, the first sign-in goes through at once (no 419 and retry)', async () => {
    const agent = await newAgent(t.app);
    const email = `ended-${Date.now()}@example.test`;
    expect(
      (await agent.post('/api/user/create', { name: 'Eva', email, password: PASSWORD, password_confirmation: PASSWORD, role: 'client' }))
        .statusCode,
    ).toBe(201);
    expect((await agent.post('/api/login', { email, password: PASSWORD })).statusCode).toBe(200);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    // Expired or ended elsewhere: the browser still holds the cookie and the CSRF token bound to it.
    await t.database.db.delete(sessions).where(eq(sessions.userId, user!.id));
    expect((await agent.get(API.session)).json()).toEqual({ data: null });
    const login = await agent.post('/api/login', { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
  });
});
