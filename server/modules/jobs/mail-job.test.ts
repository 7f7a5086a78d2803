import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig } from '#server/config.ts';
import { idempotencyKeys, jobs, passwordResetTokens, sessions, users } from '#server/db/schema.ts';
import { newAgent } from '#tests/agent.ts';
import { buildUser } from '#tests/factories.ts';
import { createTestApp, drainJobs, type TestApp } from '#tests/test-app.ts';
import { sendVerificationMail } from '../auth/auth.mails.ts';
import { backoffMs, JobRunner } from './jobs.ts';
import { MAIL_JOB, MAIL_MAX_ATTEMPTS } from './mail-job.ts';

const MIN = 60_000;
/** A 64-character id as the sessions table keeps them. */
const hex = (s: string) => Buffer.from(s).toString('hex').padEnd(64, '0');
const HOUR = 60 * MIN;
const TOKEN = 'mail-job-metrics-token-0123456789';

describe('mail through the jobs table, SMTP refusing then accepting', () => {
  /** A real SMTP server on loopback that answers 421 (try later) while `down`. */
  let smtp: SMTPServer;
  let down = true;
  let refusals = 0;
  const received: { to: string[]; raw: string }[] = [];
  let t: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@gone.test')) return callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
        if (down) {
          refusals++;
          return callback(Object.assign(new Error('service not available, try later'), { responseCode: 421 }));
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, metrics: { ...testConfig().metrics, token: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(resolve));
  });

  it('a mail server down for over an hour loses nothing: the mail is retried with back-off and sent once it is back', async () => {
    const email = `retry-${Date.now()}@example.test`;
    const agent = await newAgent(t.app);
    await buildUser(t.app.db, { email });
    expect((await agent.post('/api/forgot-password', { email })).statusCode).toBe(200);

    // The request queued the mail and the first attempt (run right after it) was refused.
    let [row] = await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB));
    expect(row).toMatchObject({ attempts: 1, failedAt: null, maxAttempts: MAIL_MAX_ATTEMPTS });
    expect(row!.lastError).toMatch(/try later/);
    expect(received).toEqual([]);

    // Down for over an hour: each attempt at the time its back-off names, all refused.
    let downFor = 0;
    while (downFor < HOUR) {
      const at = new Date(row!.runAt.getTime() + 1);
      downFor += backoffMs(row!.attempts);
      expect(await t.app.jobs.runDue(at)).toBe(1);
      [row] = await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB));
      expect(row!.failedAt).toBeNull();
    }
    expect(row!.attempts).toBeLessThan(MAIL_MAX_ATTEMPTS);
    expect(refusals).toBe(row!.attempts);

    // Back up: the next attempt delivers it, and the row is gone.
    down = false;
    expect(await t.app.jobs.runDue(new Date(row!.runAt.getTime() + 1))).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual([email]);
    expect(received[0]!.raw.replace(/=\r?\n/g, '')).toMatch(/reset-password\//);
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB))).toEqual([]);
  });

  it('a mailbox the server refuses for good (5xx) is not retried; it counts as a failed job in /metrics', async () => {
    down = false;
    const u = await buildUser(t.app.db, { email: `someone-${Date.now()}@gone.test` });
    const agent = await newAgent(t.app);
    expect((await agent.post('/api/forgot-password', { email: u.email })).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB));
    expect(row!.attempts).toBe(1);
    expect(row!.failedAt).not.toBeNull();
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.body).toMatch(/^vitrina_jobs_failed 1$/m);
    await t.app.db.delete(jobs).where(eq(jobs.id, row!.id));
  });
});

describe('mail and periodic work as jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('a change rolled back queues no mail, one committed queues it', async () => {
    const before = t.app.mailer.outbox.length;
    const email = `rolled-back-${Date.now()}@example.test`;
    const insertAndMail = (fail: boolean) =>
      t.app.db.transaction(async (tx) => {
        const [u] = await tx.insert(users).values({ name: 'Rita', email, passwordHash: 'x', role: 'model', locale: 'es' }).returning();
        await sendVerificationMail(t.app, u!, tx);
        if (fail) throw new Error('something later in the change failed');
      });
    await expect(insertAndMail(true)).rejects.toThrow(/later in the change/);
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB))).toEqual([]);
    await drainJobs(t.app);
    expect(t.app.mailer.outbox.length).toBe(before);

    await insertAndMail(false);
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB))).toHaveLength(1);
    await drainJobs(t.app);
    expect(t.app.mailer.outbox.slice(before).map((m) => m.to)).toEqual([email]);
  });

  it('two runners on one database run an occurrence of a periodic job once, then the next one an interval later', async () => {
    const runs: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const nodes = ['a', 'b'].map((name) => {
      const r = new JobRunner(t.app.db, t.app.log);
      r.every('test-purge', HOUR, async () => {
        runs.push(name);
        await held;
      });
      return r;
    });
    const start = new Date();
    // Both nodes start: one row between them.
    await Promise.all(nodes.map((n) => n.scheduleRecurring(start)));
    expect(await t.app.db.select().from(jobs).where(eq(jobs.key, 'every:test-purge'))).toHaveLength(1);
    expect(await nodes[0]!.runDue(start)).toBe(0);

    const due = new Date(start.getTime() + HOUR);
    const polls = nodes.map((n) => n.runDue(due));
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    // The other node polls again while the first one still holds the occurrence: nothing for it.
    expect(await nodes[1]!.runDue(due)).toBe(0);
    expect(await nodes[0]!.runDue(due)).toBe(0);
    release();
    expect((await Promise.all(polls)).reduce((x, y) => x + y, 0)).toBe(1);
    expect(runs).toHaveLength(1);

    // Done: the row stays for the next occurrence, an interval after the run.
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.key, 'every:test-purge'));
    expect(row).toMatchObject({ lockedUntil: null, attempts: 0, failedAt: null });
    expect(row!.runAt.getTime()).toBe(due.getTime() + HOUR);
    // A node restarting meanwhile keeps it as it is.
    await nodes[1]!.scheduleRecurring(new Date(due.getTime() + 1000));
    const [kept] = await t.app.db.select().from(jobs).where(eq(jobs.key, 'every:test-purge'));
    expect(kept!.runAt.getTime()).toBe(due.getTime() + HOUR);
    const next = await Promise.all(nodes.map((n) => n.runDue(new Date(due.getTime() + HOUR))));
    expect(next.reduce((x, y) => x + y, 0)).toBe(1);
    expect(runs).toHaveLength(2);
    await t.app.db.delete(jobs).where(eq(jobs.key, 'every:test-purge'));
  });

  it('the app purges old idempotency keys, expired sessions and spent reset tokens as periodic jobs', async () => {
    const u = await buildUser(t.app.db, { email: `purge-${Date.now()}@example.test` });
    const now = new Date();
    const old = new Date(now.getTime() - 2 * 24 * HOUR);
    await t.app.db.insert(idempotencyKeys).values([
      { key: 'purge-old-key-1', actor: 'anon:x', method: 'POST', path: '/api/x', requestHash: 'h', createdAt: old },
      { key: 'purge-new-key-1', actor: 'anon:x', method: 'POST', path: '/api/x', requestHash: 'h', createdAt: now },
    ]);
    await t.app.db.insert(sessions).values([
      { idHash: hex('expired-session'), userId: u.id, expiresAt: old },
      { idHash: hex('live-session'), userId: u.id, expiresAt: new Date(now.getTime() + 30 * 24 * HOUR) },
    ]);
    await t.app.db.insert(passwordResetTokens).values([
      { userId: u.id, tokenHash: 'purge-expired-token', expiresAt: old },
      { userId: u.id, tokenHash: 'purge-live-token', expiresAt: new Date(now.getTime() + 30 * 24 * HOUR) },
    ]);
    await t.app.jobs.scheduleRecurring(now);
    const keys = (await t.app.db.select({ key: jobs.key }).from(jobs)).map((r) => r.key);
    for (const k of [
      'every:purge-idempotency-keys',
      'every:purge-expired-sessions',
      'every:purge-reset-tokens',
      'every:purge-data-exports',
    ])
      expect(keys).toContain(k);

    await t.app.jobs.runDue(new Date(now.getTime() + HOUR + 1000));
    const idemKeys = (await t.app.db.select().from(idempotencyKeys)).map((r) => r.key);
    expect(idemKeys).toContain('purge-new-key-1');
    expect(idemKeys).not.toContain('purge-old-key-1');
    const sess = (await t.app.db.select().from(sessions).where(eq(sessions.userId, u.id))).map((r) => r.idHash);
    expect(sess).toEqual([hex('live-session')]);
    const tokens = (await t.app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, u.id))).map((r) =>
      r.tokenHash.trim(),
    );
    expect(tokens).toEqual(['purge-live-token']);
  });
});

describe('a request that sends mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The runner polls by itself here, as in production.
    t = await createTestApp({ jobsPollMs: 20 });
  });
  afterAll(async () => t.close());

  it('answers without waiting for the mail server, which gets the mail once it answers', async () => {
    let release!: () => void;
    const smtpAnswers = new Promise<void>((r) => (release = r));
    const sent: string[] = [];
    const send = vi.spyOn(t.app.mailer, 'send').mockImplementation(async (m) => {
      await smtpAnswers;
      sent.push(m.to);
    });
    const u = await buildUser(t.app.db, { email: `blocked-${Date.now()}@example.test` });
    const agent = await newAgent(t.app);
    const res = await agent.post('/api/forgot-password', { email: u.email });
    expect(res.statusCode).toBe(200);
    // The runner picked the mail up and is stuck in SMTP; the request answered all the same.
    await vi.waitFor(() => expect(send).toHaveBeenCalled());
    expect(sent).toEqual([]);
    release();
    await vi.waitFor(() => expect(sent).toEqual([u.email]));
    await vi.waitFor(async () => expect(await t.app.db.select().from(jobs).where(eq(jobs.name, MAIL_JOB))).toEqual([]));
    send.mockRestore();
  });
});
