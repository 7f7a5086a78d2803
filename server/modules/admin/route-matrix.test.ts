/**
 * Every staff and publicist route, found in the running app rather than listed by hand: a route added later is in
 * the matrix the day it is registered. Per role (anonymous, client, model, publicist A, admin, super admin):
 * anonymous → 401, client and model → 403, a publicist → 403 on staff routes, an admin → 403 on super-admin routes,
 * the roles a route is for → past the door (neither 401 nor 403). Publicist A on publicist B's ids never gets a
 * 2xx, and B's model is untouched afterwards. The per-route answers (200/404/422 with real bodies) are in
 * admin.routes.test.ts and publicists.routes.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, modelProfiles, notifications, supportConversations, supportMessages } from '#server/db/schema.ts';
import { newAgent, signedIn, type Agent } from '#tests/agent.ts';
import { buildModel, buildPublicist, buildUser } from '#tests/factories.ts';
import { routesOf } from '#tests/routes.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { loginAs } from '../media/test-helpers.ts';

type Role = 'client' | 'model' | 'publicist' | 'admin' | 'super_admin';
type Door = 'super' | 'staff' | 'publicist';

/** Who a route is for, by where it lives. `/api/publicist/create` is the publicist's sign-up: public. */
function doorOf(path: string): Door | null {
  if (path.startsWith('/api/super-admin/') || path === '/api/admin/create') return 'super';
  if (path.startsWith('/api/admin/')) return 'staff';
  if (path === '/api/publicist/create') return null;
  if (path.startsWith('/api/publicist/') || path === '/api/profile/publicist') return 'publicist';
  return null;
}

let t: TestApp;
const as = {} as Record<Role, Agent>;
let b: { publicistId: number; modelId: number; adId: number; version: number };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  for (const role of ['client', 'model', 'admin', 'super_admin'] as const) as[role] = (await signedIn(t.app, db, { role })).agent;
  const a = await buildPublicist(db);
  as.publicist = await loginAs(t.app, db, a.userId);
  // Publicist B's model: no account of its own, B responsible for it.
  const other = await buildPublicist(db);
  const model = await buildModel(db, { name: 'Modelo de B' });
  const [row] = await db
    .update(modelProfiles)
    .set({ publicistId: other.publicistId, userId: null, contactEmail: 'modelo-b@example.test', consentStatus: 'given' })
    .where(eq(modelProfiles.id, model.profileId))
    .returning({ version: modelProfiles.version });
  b = { publicistId: other.publicistId, modelId: model.profileId, adId: model.adId, version: row!.version };
});
afterAll(async () => {
  await t.close();
});

/** Path parameters: B's publicist profile where the id is a publicist's, B's model everywhere else. */
function concrete(path: string): string {
  const publicistId = path.startsWith('/api/publicist/models/') || path.startsWith('/api/publicist/profile/update/');
  return path.replace(':id', String(publicistId ? b.publicistId : b.modelId)).replace(':value', '0');
}

function call(agent: Agent, method: string, url: string) {
  return agent.request({ method, url, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
}

describe('role × route matrix of every staff and publicist route', () => {
  let routes: Array<{ method: string; path: string; door: Door }> = [];

  beforeAll(() => {
    routes = routesOf(t.app)
      .filter((r) => r.method !== 'HEAD')
      .flatMap((r) => {
        const door = doorOf(r.path);
        return door ? [{ ...r, door }] : [];
      });
  });

  it('finds the routes (the parser reads the tree)', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    for (const known of [
      'GET /api/admin/models',
      'GET /api/admin/clients/:id',
      'POST /api/admin/appeals/:id/decide',
      'POST /api/admin/decisions',
      'POST /api/admin/create',
      'GET /api/super-admin/audit',
      'GET /api/publicist/models-under-responsibility',
      'PUT /api/publicist/model/activate/:id/:value',
      'DELETE /api/publicist/model/:id/ad',
      'POST /api/publicist/model/:id/consent/resend',
      'GET /api/profile/publicist',
    ]) {
      expect(names).toContain(known);
    }
    expect(names).not.toContain('POST /api/publicist/create');
    expect(routes.length).toBeGreaterThan(35);
  });

  it('anonymous 401; client and model 403; staff routes 403 for a publicist; super-admin routes 403 for an admin', async () => {
    const anonymous = await newAgent(t.app);
    const failures: string[] = [];
    for (const r of routes) {
      const url = concrete(r.path);
      const expect401 = (await call(anonymous, r.method, url)).statusCode;
      if (expect401 !== 401) failures.push(`${r.method} ${url} anonymous → ${expect401}`);
      const denied: Role[] = ['client', 'model'];
      if (r.door !== 'publicist') denied.push('publicist');
      if (r.door === 'super') denied.push('admin');
      for (const role of denied) {
        const status = (await call(as[role], r.method, url)).statusCode;
        if (status !== 403) failures.push(`${r.method} ${url} ${role} → ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the roles a route is for get past the door', async () => {
    const failures: string[] = [];
    for (const r of routes) {
      if (r.door === 'publicist') continue; // next test: the publicist's own routes are about ids
      const allowed: Role[] = r.door === 'super' ? ['super_admin'] : ['admin', 'super_admin'];
      for (const role of allowed) {
        const status = (await call(as[role], r.method, concrete(r.path))).statusCode;
        if (status === 401 || status === 403 || status >= 500) failures.push(`${r.method} ${r.path} ${role} → ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("publicist A never succeeds on publicist B's ids, and B's model is untouched", async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.door === 'publicist')) {
      const url = concrete(r.path);
      const status = (await call(as.publicist, r.method, url)).statusCode;
      if (r.path.includes(':id')) {
        if (![403, 404, 422].includes(status)) failures.push(`${r.method} ${url} → ${status}`);
      } else if (status === 401 || status === 403 || status >= 500) {
        failures.push(`${r.method} ${url} (own) → ${status}`);
      }
    }
    expect(failures).toEqual([]);
    const [model] = await t.database.db.select().from(modelProfiles).where(eq(modelProfiles.id, b.modelId));
    expect(model).toMatchObject({ version: b.version, publicistId: b.publicistId });
    const [ad] = await t.database.db.select().from(ads).where(eq(ads.id, b.adId));
    expect(ad).toMatchObject({ isActive: true });
  });
});

/**
 * Issue 14's routes (support chat, notifications, channel authorization), found the same way. Anonymous → 401 on
 * all; the staff side of the chat → 403 for client, model and publicist; every route past the door for the roles it
 * is for. On someone else's conversation or notification a user never gets a 2xx (404: ids reveal nothing), and
 * nothing of that person changes.
 */
describe('role × route matrix of the support chat, notifications and channel authorization', () => {
  const STAFF_ONLY = /^\/api\/support\/chat\/(users|staff|:id\/(user|assign|resolve|reopen))$/;
  let routes: Array<{ method: string; path: string; staffOnly: boolean }> = [];
  let other: { conversationId: number; notificationId: number };

  beforeAll(async () => {
    routes = routesOf(t.app)
      .filter((r) => r.method !== 'HEAD')
      .filter((r) => /^\/api\/support\/|^\/api\/notifications|^\/broadcasting\//.test(r.path))
      .map((r) => ({ ...r, staffOnly: STAFF_ONLY.test(r.path) }));
    const db = t.database.db;
    const person = await buildUser(db, { role: 'model' });
    const [c] = await db.insert(supportConversations).values({ userId: person.id, lastSeq: 1 }).returning();
    await db.insert(supportMessages).values({ conversationId: c!.id, seq: 1, senderId: person.id, isStaff: false, content: 'mío' });
    const [n] = await db.insert(notifications).values({ userId: person.id, kind: 'support.reply', type: 'info', message: 'x' }).returning();
    other = { conversationId: c!.id, notificationId: n!.id };
  });

  const url = (path: string) =>
    path.replace(':id', String(path.startsWith('/api/notifications') ? other.notificationId : other.conversationId));

  it('finds the routes', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    for (const known of [
      'GET /api/support/chat/conversations',
      'POST /api/support/chat/conversations',
      'GET /api/support/chat/:id/messages',
      'POST /api/support/chat/:id/messages',
      'GET /api/support/chat/users',
      'POST /api/support/chat/:id/assign',
      'GET /api/notifications',
      'POST /api/notifications/:id/read',
      'POST /api/notifications/read-all',
      'POST /broadcasting/auth',
      'POST /broadcasting/user-auth',
    ]) {
      expect(names).toContain(known);
    }
    expect(routes.filter((r) => r.staffOnly)).toHaveLength(6);
  });

  it('anonymous 401; the staff side 403 for client, model and publicist', async () => {
    const anonymous = await newAgent(t.app);
    const failures: string[] = [];
    for (const r of routes) {
      const status = (await call(anonymous, r.method, url(r.path))).statusCode;
      if (status !== 401) failures.push(`${r.method} ${r.path} anonymous → ${status}`);
      if (!r.staffOnly) continue;
      for (const role of ['client', 'model', 'publicist'] as const) {
        const s = (await call(as[role], r.method, url(r.path))).statusCode;
        if (s !== 403) failures.push(`${r.method} ${r.path} ${role} → ${s}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('past the door for the roles a route is for; never a 2xx on someone else’s conversation or notification', async () => {
    const failures: string[] = [];
    for (const r of routes) {
      const roles: Role[] = r.staffOnly ? ['admin', 'super_admin'] : ['client', 'model', 'publicist', 'admin', 'super_admin'];
      for (const role of roles) {
        const status = (await call(as[role], r.method, url(r.path))).statusCode;
        if (status === 401 || status === 403 || status >= 500) failures.push(`${r.method} ${r.path} ${role} → ${status}`);
        const foreign = r.path.includes(':id') && (r.path.startsWith('/api/notifications') || !['admin', 'super_admin'].includes(role));
        if (foreign && status < 300) failures.push(`${r.method} ${r.path} ${role} on someone else's → ${status}`);
      }
    }
    expect(failures).toEqual([]);
    const db = t.database.db;
    const [n] = await db.select().from(notifications).where(eq(notifications.id, other.notificationId));
    expect(n!.readAt).toBeNull();
    const [m] = await db.select().from(supportMessages).where(eq(supportMessages.conversationId, other.conversationId));
    expect(m).toMatchObject({ seq: 1, readAt: null });
  });
});
