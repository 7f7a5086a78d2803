/**
 * Two nodes behave as one (issue 17 point 7): two real `npm start` processes (tests/server-process.ts), each with its
 * own port and DATA_DIR, on one PostgreSQL database, one redis-server and one S3-protocol server, all on loopback —
 * what a load balancer in front of two machines would see. Everything goes through HTTP and websockets, as a browser's
 * requests would, landing now on one node and now on the other:
 *
 * 1. a decision made through A is out of B's listings on B's very next request (the listings micro-cache on, with its
 *    default TTL, and shown to be answering from the cache just before);
 * 2. login attempts alternated between A and B are refused at the count one node allows;
 * 3. a chat message posted through A reaches a websocket on B subscribed through B's /broadcasting/auth, and
 *    presence-support.staff has the same members on both;
 * 4. a photo uploaded through A is served by B, the same bytes; a stranger is refused while its ad is not listed;
 * 5. A killed (SIGKILL) under write load: B keeps serving, and every write acknowledged with a 2xx by either is stored;
 * 6. both started at the same moment on a fresh database migrate and seed once: both are held on the start-up lock
 *    (the test holds it first and sees both processes queue behind it), then let go together.
 *
 * Needs a PostgreSQL server: it runs in the PostgreSQL run (`npm run test:server:pg`, DATABASE_URL from
 * TEST_DATABASE_URL; CI sets it) and is skipped, saying so, in the PGlite run. With no PostgreSQL server given at all
 * (TEST_DATABASE_URL unset), it starts a throwaway cluster of its own from the installed binaries. Skipped, saying so,
 * when redis-server is missing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { type UploadAnswer } from '#contract/media.ts';
import type { ModelList } from '#contract/listings.ts';
import { CHAT_EVENTS, type Message } from '#contract/support-chat.ts';
import { openDatabase, STARTUP_LOCK_KEY, type Database } from '#server/db/client.ts';
import { supportMessages, users } from '#server/db/schema.ts';
import { hashPassword } from '#server/modules/auth/passwords.ts';
import { uploadBody } from '#server/modules/media/test-helpers.ts';
import { png } from '#server/modules/media/test-images.ts';
import { RawClient, parseData, type Frame } from '#server/realtime/test-helpers.ts';
import { buildModel, buildUser } from '#tests/factories.ts';
import {
  freePort,
  POSTGRES_BIN,
  REDIS_SERVER,
  startPostgres,
  startRedis,
  startS3,
  type RedisServer,
  type S3Server,
} from '#tests/local-processes.ts';
import { HttpClient, PUSHER, startServer, type ServerProcess } from '#tests/server-process.ts';
import { createServerDatabase } from '#tests/test-app.ts';

const given = process.env.DATABASE_URL;
/** No PostgreSQL server given at all (a local `npm test` without TEST_DATABASE_URL): one is started for this file. */
const ownCluster = !given && !process.env.TEST_DATABASE_URL && !!POSTGRES_BIN;
const skipped = !REDIS_SERVER
  ? 'redis-server is not installed (apt-get install redis-server; .ci/run does it)'
  : given || ownCluster
    ? undefined
    : process.env.TEST_DATABASE_URL
      ? 'it runs in the PostgreSQL run (npm run test:server:pg)'
      : 'no PostgreSQL server (TEST_DATABASE_URL unset and no PostgreSQL binaries to start one)';
if (skipped) console.warn(`two-nodes.test.ts skipped: ${skipped}`);

const DEMO_PASSWORD = 'demo-password-two-nodes-17';
const PASSWORD = 'a long enough two nodes secret 7';
const METRICS_TOKEN = 'two-nodes-metrics-token-0123456789';
const ADMIN = 'admin@vitrina.test';
const SUPER_ADMIN = 'superadmin@vitrina.test';

interface Node {
  name: 'A' | 'B';
  port: number;
  dataDir: string;
  server: ServerProcess;
}

describe.skipIf(!!skipped)('two nodes on one PostgreSQL, Redis and S3', { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const sockets: RawClient[] = [];
  let serverDb: { url: string; drop(): Promise<void> };
  let redis: RedisServer;
  let s3: S3Server;
  let database: Database;
  let a: Node;
  let b: Node;
  let passwordHash: string;
  /** What both nodes share besides the database. */
  let shared: Record<string, string>;

  beforeAll(async () => {
    let base = given;
    if (!base) {
      const cluster = await startPostgres();
      cleanups.push(() => cluster.stop());
      base = cluster.url;
    }
    [serverDb, redis, s3] = await Promise.all([createServerDatabase(base), startRedis(), startS3()]);
    cleanups.push(
      () => serverDb.drop(),
      () => redis.stop(),
      () => s3.stop(),
    );
    shared = {
      REDIS_URL: redis.url,
      REDIS_PREFIX: `vt2n-${crypto.randomBytes(4).toString('hex')}:`,
      METRICS_TOKEN,
      // Each node keeps its own DATA_DIR: the photos are only in the bucket.
      ...s3.env,
    };
    passwordHash = await hashPassword(PASSWORD);
  }, 60_000);

  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    for (const c of cleanups.reverse()) await c();
  }, 60_000);

  /** A signed-in client of `node` for an account the test made (the factories' accounts have no usable password). */
  async function signedIn(node: Node, userId: number): Promise<HttpClient> {
    const [user] = await database.db.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning({ email: users.email });
    const client = new HttpClient(node.port);
    await client.login(user!.email, PASSWORD);
    return client;
  }

  async function demoClient(node: Node, email: string): Promise<HttpClient> {
    const client = new HttpClient(node.port);
    await client.login(email, DEMO_PASSWORD);
    return client;
  }

  /** A client signed in on one node, sending its cookies to the other (one browser, the balancer choosing). */
  function onNode(client: HttpClient, node: Node): HttpClient {
    const moved = new HttpClient(node.port);
    for (const [k, v] of client.cookies) moved.cookies.set(k, v);
    return moved;
  }

  async function count(query: SQL): Promise<number> {
    const result = (await database.db.execute<{ n: number }>(query)) as { rows: { n: number }[] };
    return result.rows[0]!.n;
  }

  /** A websocket on `node`, subscribed to `channel` with the signature `client` got from that node's /broadcasting/auth. */
  async function subscribe(node: Node, client: HttpClient, channel: string): Promise<{ socket: RawClient; subscribed: Frame }> {
    const socket = await RawClient.connect(node.port, PUSHER.key);
    sockets.push(socket);
    const auth = await client.send(
      'POST',
      API.broadcastingAuth,
      new URLSearchParams({ socket_id: socket.socketId, channel_name: channel }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(auth.status, auth.text).toBe(200);
    socket.send({ event: 'pusher:subscribe', data: { channel, ...(JSON.parse(auth.text) as object) } });
    const subscribed = await socket.next((f) => f.channel === channel && /subscription_(succeeded|error)/.test(f.event));
    expect(subscribed.event).toBe('pusher_internal:subscription_succeeded');
    return { socket, subscribed };
  }

  async function listingHits(node: Node): Promise<number> {
    const res = await fetch(`http://127.0.0.1:${node.port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const line = /^vitrina_cache_lookups_total\{cache="listings",result="hit"\} (\d+)/m.exec(await res.text());
    return Number(line?.[1] ?? 0);
  }

  async function bytes(node: Node, url: string, client?: HttpClient): Promise<{ status: number; body: Buffer }> {
    const res = await fetch(`http://127.0.0.1:${node.port}${url}`, { headers: client ? client.headers() : {} });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  }

  /** `promise`, or a failure naming `what` after 10 s (a frame that never comes fails the test at once, not at its timeout). */
  function within<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within 10 s`)), 10_000)));
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }

  async function openConversation(client: HttpClient): Promise<number> {
    const opened = await client.call('POST', API.supportConversations, {});
    expect([200, 201], opened.text).toContain(opened.status);
    return (JSON.parse(opened.text) as { data: { id: number } }).data.id;
  }

  it('6. both starting at the same moment on a fresh database migrate and seed once', { timeout: 180_000 }, async () => {
    // The test takes the start-up lock first, so that both processes are certainly at the lock at the same moment.
    const holder = new pg.Client({ connectionString: serverDb.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY.toString()]);
    const waiting = async () =>
      Number(
        (
          await holder.query<{ n: number }>(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and objid = $1
               and database = (select oid from pg_database where datname = current_database())`,
            [Number(STARTUP_LOCK_KEY & 0xffffffffn)],
          )
        ).rows[0]!.n,
      );

    const node = async (name: Node['name']) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vitrina-node-${name}-`));
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const port = await freePort();
      const server = await startServer({ port, dataDir, databaseUrl: serverDb.url, password: DEMO_PASSWORD, env: shared });
      cleanups.push(async () => {
        if (server.child.exitCode === null && server.child.signalCode === null) {
          server.child.kill('SIGKILL');
          await server.exited;
        }
      });
      return { name, port, dataDir, server };
    };
    // Started together; neither can pass the lock the test holds.
    const starting = Promise.all([node('A'), node('B')]);
    // Both processes queued on the lock together: both take the start-up lock path, at the same moment.
    await expect.poll(waiting, { timeout: 150_000, interval: 50 }).toBe(2);
    await holder.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY.toString()]);
    [a, b] = await starting;

    database = await openDatabase({ databaseUrl: serverDb.url, dataDir: ':memory:' });
    cleanups.push(() => database.close());
    const journal = (await import('./db/migrations/meta/_journal.json', { with: { type: 'json' } })).default as {
      entries: unknown[];
    };
    // Released, both started (neither tripped over the other's migration) and answer.
    for (const node of [a, b]) expect((await fetch(`http://127.0.0.1:${node.port}/api/ready`)).status).toBe(200);
    expect(await count(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).toBe(journal.entries.length);
    expect(await count(sql`select count(distinct hash)::int as n from drizzle.__drizzle_migrations`)).toBe(journal.entries.length);
    expect(await count(sql`select count(*)::int as n from users where email = ${ADMIN}`)).toBe(1);
  });

  it('1. a decision made through A is out of B’s listings on B’s very next request (micro-cache on)', async () => {
    const model = await buildModel(database.db, { name: 'Nodina Compartida' });
    const visitorB = new HttpClient(b.port);
    const listedOnB = async () => {
      const res = await visitorB.call('GET', '/api/models?search=Nodina');
      expect(res.status, res.text).toBe(200);
      return (JSON.parse(res.text) as ModelList).data.map((c) => c.id);
    };
    expect(await listedOnB()).toContain(model.adId);
    const hitsBefore = await listingHits(b);
    expect(await listedOnB()).toContain(model.adId);
    // That answer came from B's cache: without the change reaching B, B would keep serving it for the TTL.
    expect(await listingHits(b)).toBe(hitsBefore + 1);

    const admin = await demoClient(a, ADMIN);
    const decided = await admin.call('POST', '/api/admin/decisions', {
      subject_type: 'ad',
      subject_id: model.adId,
      action: 'pause',
      reason_codes: ['spam'],
      text: 'Anuncio pausado desde el nodo A.',
    });
    expect(decided.status, decided.text).toBe(200);
    expect(await listedOnB()).not.toContain(model.adId);
  });

  it('2. login attempts alternated between A and B are refused at the count one node allows', async () => {
    const email = `nadie-${crypto.randomBytes(3).toString('hex')}@vitrina.test`;
    const attempt = async (node: Node) => {
      const client = new HttpClient(node.port);
      await client.call('GET', '/sanctum/csrf-cookie');
      return (await client.call('POST', '/api/login', { email, password: 'wrong password 123' })).status;
    };
    // Five a minute per e-mail and IP (auth.limits.ts): A, B, A, B, A are answered, the sixth is refused on B.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await attempt(i % 2 ? b : a));
    expect(statuses).toEqual([422, 422, 422, 422, 422]);
    expect(await attempt(b)).toBe(429);
  });

  it('3. a chat message posted through A reaches a websocket on B, subscribed through B’s /broadcasting/auth', async () => {
    const user = await buildUser(database.db, { role: 'model' });
    const userOnB = await signedIn(b, user.id);
    const conversation = await openConversation(userOnB);
    const { socket } = await subscribe(b, userOnB, `private-support.chat.${conversation}`);

    const admin = await demoClient(a, ADMIN);
    const content = `Respuesta desde el nodo A ${crypto.randomUUID()}`;
    const posted = await admin.call('POST', API.supportMessages(conversation), { content });
    expect(posted.status, posted.text).toBe(201);
    const delivered = await within(socket.next(CHAT_EVENTS.messageSent), 'MessageSent on B');
    expect(parseData<{ message: Message }>(delivered).message.content).toBe(content);
  });

  it('3. presence-support.staff has the same members on both (staff in the Messenger on A and on B)', async () => {
    const admin = await demoClient(a, ADMIN);
    const superAdmin = await demoClient(b, SUPER_ADMIN);
    const idOf = async (email: string) =>
      String((await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id);
    const [adminId, superId] = [await idOf(ADMIN), await idOf(SUPER_ADMIN)];
    const both = [adminId, superId].sort();
    const ids = (f: Frame) => parseData<{ presence: { ids: string[] } }>(f).presence.ids.sort();

    const onA = await subscribe(a, admin, 'presence-support.staff');
    expect(ids(onA.subscribed)).toEqual([adminId]);
    const onB = await subscribe(b, superAdmin, 'presence-support.staff');
    expect(ids(onB.subscribed)).toEqual(both);
    expect(parseData(await within(onA.socket.next('pusher_internal:member_added'), 'member_added on A'))).toMatchObject({
      user_id: superId,
    });
    // The Messenger's "who is online", asked of either node.
    const online = async (client: HttpClient) => {
      const res = await client.call('GET', API.supportStaff);
      expect(res.status, res.text).toBe(200);
      const staff = (JSON.parse(res.text) as { data: { id: number; online: boolean }[] }).data;
      return staff
        .filter((s) => s.online)
        .map((s) => String(s.id))
        .sort();
    };
    expect(await online(admin)).toEqual(both);
    expect(await online(onNode(admin, b))).toEqual(both);
  });

  it('4. a photo uploaded through A is served by B; a stranger is refused while its ad is not listed', async () => {
    const model = await buildModel(database.db, { name: 'Fotina Compartida' });
    const ownerOnA = await signedIn(a, model.userId);
    const { payload, headers } = uploadBody(model.adId, [{ filename: 'cielo.png', contentType: 'image/png', data: await png(900, 1200) }]);
    const uploaded = await ownerOnA.send('POST', API.uploadImages, payload, headers['content-type']);
    expect(uploaded.status, uploaded.text).toBe(201);
    const url = (JSON.parse(uploaded.text) as UploadAnswer).data.media[0]!.url;
    // Stored in the bucket, not on A's disk.
    expect(url).toMatch(/^\/media\/ads\//);
    expect(fs.existsSync(path.join(a.dataDir, 'media', url.slice('/media/'.length)))).toBe(false);

    // A new photo sends its ad back to review: only its owner (and staff) may see it, on either node.
    const fromA = await bytes(a, url, ownerOnA);
    expect(fromA.status).toBe(200);
    const fromB = await bytes(b, url, onNode(ownerOnA, b));
    expect(fromB.status).toBe(200);
    expect(fromB.body.equals(fromA.body)).toBe(true);
    expect((await bytes(b, url)).status).toBe(404);

    // Approved through A: B serves it to anyone, the same bytes.
    const admin = await demoClient(a, ADMIN);
    const approved = await admin.call('POST', '/api/admin/decisions', { subject_type: 'ad', subject_id: model.adId, action: 'approve' });
    expect(approved.status, approved.text).toBe(200);
    const publicFromB = await bytes(b, url);
    expect(publicFromB.status).toBe(200);
    expect(publicFromB.body.equals(fromA.body)).toBe(true);
  });

  it('5. killing A under write load leaves B serving and loses no acknowledged write', async () => {
    // Four writers, each its own account (30 chat messages a minute per user, counted across both nodes): two post
    // through A, two through B.
    const writers = await Promise.all(
      [a, a, b, b].map(async (node) => {
        const user = await buildUser(database.db, { role: 'model' });
        const client = await signedIn(node, user.id);
        return { node, client, conversation: await openConversation(client), acked: 0, ackedAfterKill: 0 };
      }),
    );
    /** id → content of every message answered 201. */
    const acknowledged = new Map<number, string>();
    let killed = false;
    let stop = false;
    let cut = 0;
    const write = async (w: (typeof writers)[number], index: number) => {
      for (let n = 0; !stop && w.acked < 28; n++) {
        const content = `escritor ${index} mensaje ${n} ${crypto.randomUUID()}`;
        try {
          const res = await w.client.call('POST', API.supportMessages(w.conversation), { content });
          expect(res.status, res.text).toBe(201);
          acknowledged.set((JSON.parse(res.text) as { data: { id: number } }).data.id, content);
          w.acked++;
          if (killed) w.ackedAfterKill++;
        } catch (err) {
          // A's requests cut by the kill (or refused after it) were not acknowledged: nothing to find later.
          if (!killed || w.node !== a) throw err;
          cut++;
          return;
        }
      }
    };
    const running = writers.map(write);
    await expect.poll(() => Math.min(...writers.map((w) => w.acked)), { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(3);
    killed = true;
    a.server.child.kill('SIGKILL');
    expect((await a.server.exited).signal).toBe('SIGKILL');
    // B keeps answering its writers after A is gone.
    await expect
      .poll(() => Math.min(...writers.filter((w) => w.node === b).map((w) => w.ackedAfterKill)), { timeout: 30_000, interval: 5 })
      .toBeGreaterThanOrEqual(5);
    stop = true;
    await Promise.all(running);
    expect((await fetch(`http://127.0.0.1:${b.port}/api/ready`)).status).toBe(200);

    const stored = await database.db
      .select({ id: supportMessages.id, content: supportMessages.content })
      .from(supportMessages)
      .where(
        inArray(
          supportMessages.conversationId,
          writers.map((w) => w.conversation),
        ),
      );
    const found = new Map(stored.map((m) => [m.id, m.content]));
    expect([...acknowledged].filter(([id, content]) => found.get(id) !== content)).toEqual([]);
    expect(acknowledged.size).toBeGreaterThanOrEqual(4 * 3 + 2 * 5);
    // A's writers were writing when it was killed: their next request was cut or refused.
    expect(cut).toBe(2);
  });
});
