import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { jobs } from '#server/db/schema.ts';
import { createTestApp, type TestApp } from '../../../tests/test-app.ts';
import jobsPlugin from './jobs.plugin.ts';
import { backoffMs, cancelJob, JobRunner, scheduleJob } from './jobs.ts';

let t: TestApp;
const db = () => t.app.db;
const log = () => t.app.log;
const MIN = 60_000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await db().delete(jobs);
});

describe('job runner', () => {
  it('runs a due job once and removes it, and leaves a later one for its time', async () => {
    const runner = new JobRunner(db(), log());
    const seen: unknown[] = [];
    runner.register('greet', async (payload) => {
      seen.push(payload);
    });
    const now = new Date();
    await scheduleJob(db(), { name: 'greet', payload: { n: 1 }, runAt: now });
    await scheduleJob(db(), { name: 'greet', payload: { n: 2 }, runAt: new Date(now.getTime() + 10 * MIN) });

    expect(await runner.runDue(now)).toBe(1);
    expect(await runner.runDue(now)).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await runner.runDue(new Date(now.getTime() + 10 * MIN))).toBe(1);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await db().select().from(jobs)).toEqual([]);
  });

  it('retries a failing job with back-off and keeps it as failed after its last attempt', async () => {
    const runner = new JobRunner(db(), log());
    const handler = vi.fn(async () => {
      throw new Error('smtp down');
    });
    runner.register('flaky', handler);
    const start = new Date();
    await scheduleJob(db(), { name: 'flaky', runAt: start, maxAttempts: 3 });

    await runner.runDue(start);
    let [row] = await db().select().from(jobs);
    expect(row!.attempts).toBe(1);
    expect(row!.lastError).toBe('smtp down');
    expect(row!.lockedUntil).toBeNull();
    expect(row!.runAt.getTime()).toBeGreaterThanOrEqual(start.getTime() + backoffMs(1) - 1000);
    // Not again before the back-off is over.
    expect(await runner.runDue(start)).toBe(0);

    await runner.runDue(new Date(row!.runAt.getTime() + 1));
    [row] = await db().select().from(jobs);
    expect(row!.attempts).toBe(2);
    await runner.runDue(new Date(row!.runAt.getTime() + 1));
    [row] = await db().select().from(jobs);
    expect(row!.attempts).toBe(3);
    expect(row!.failedAt).not.toBeNull();
    expect(await runner.runDue(new Date(start.getTime() + 24 * 60 * MIN))).toBe(0);
    expect(handler).toHaveBeenCalledTimes(3);
  });

  it('hands a job to one node only, and to another once the first one’s lease has run out', async () => {
    const a = new JobRunner(db(), log(), { leaseMs: 5 * MIN });
    const b = new JobRunner(db(), log(), { leaseMs: 5 * MIN });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const ranOn: string[] = [];
    a.register('once', async () => {
      ranOn.push('a');
      await held;
    });
    b.register('once', async () => {
      ranOn.push('b');
    });
    const now = new Date();
    await scheduleJob(db(), { name: 'once', runAt: now });

    const first = a.runDue(now);
    await vi.waitFor(() => expect(ranOn).toEqual(['a']));
    // Node b polls while a holds the job: nothing for it.
    expect(await b.runDue(now)).toBe(0);
    release();
    await first;
    expect(await b.runDue(new Date(now.getTime() + 10 * MIN))).toBe(0);
    expect(ranOn).toEqual(['a']);

    // A node that dies holding a job: its lease expires and another node runs it.
    await scheduleJob(db(), { name: 'once', runAt: now });
    await db()
      .update(jobs)
      .set({ lockedUntil: new Date(now.getTime() + 5 * MIN), attempts: 1 });
    expect(await b.runDue(new Date(now.getTime() + MIN))).toBe(0);
    expect(await b.runDue(new Date(now.getTime() + 6 * MIN))).toBe(1);
    expect(ranOn).toEqual(['a', 'b']);
  });

  it('two nodes polling at the same moment run a job once', async () => {
    const runs: string[] = [];
    const nodes = ['a', 'b', 'c'].map((name) => {
      const r = new JobRunner(db(), log());
      r.register('race', async () => {
        runs.push(name);
      });
      return r;
    });
    const now = new Date();
    for (let i = 0; i < 5; i++) await scheduleJob(db(), { name: 'race', payload: { i }, runAt: now });
    const counts = await Promise.all(nodes.map((n) => n.runDue(now)));
    expect(counts.reduce((x, y) => x + y, 0)).toBe(5);
    expect(runs).toHaveLength(5);
  });

  it('a handler may put its job off without counting an attempt', async () => {
    const runner = new JobRunner(db(), log());
    const now = new Date();
    const later = new Date(now.getTime() + 3 * MIN);
    let calls = 0;
    runner.register('later', async () => (++calls === 1 ? { retryAt: later } : undefined));
    await scheduleJob(db(), { name: 'later', runAt: now, maxAttempts: 1 });
    await runner.runDue(now);
    const [row] = await db().select().from(jobs);
    expect(row!.runAt.getTime()).toBe(later.getTime());
    expect(row!.attempts).toBe(0);
    await runner.runDue(later);
    expect(calls).toBe(2);
    expect(await db().select().from(jobs)).toEqual([]);
  });

  it('a key names one job: scheduled again it is kept or replaced, and it can be cancelled', async () => {
    const now = new Date();
    const first = new Date(now.getTime() + MIN);
    await scheduleJob(db(), { name: 'mail', key: 'k1', payload: { v: 1 }, runAt: first });
    await scheduleJob(db(), { name: 'mail', key: 'k1', payload: { v: 2 }, runAt: new Date(now.getTime() + 2 * MIN) });
    let rows = await db().select().from(jobs).where(eq(jobs.key, 'k1'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toEqual({ v: 1 });
    await scheduleJob(db(), { name: 'mail', key: 'k1', payload: { v: 3 }, runAt: first, onConflict: 'replace' });
    rows = await db().select().from(jobs).where(eq(jobs.key, 'k1'));
    expect(rows[0]!.payload).toEqual({ v: 3 });
    expect(await cancelJob(db(), 'k1')).toBe(true);
    expect(await cancelJob(db(), 'k1')).toBe(false);
  });

  it('scheduled again while its job runs, or after it failed for good, a key gets a new job', async () => {
    const runner = new JobRunner(db(), log());
    const now = new Date();
    const later = new Date(now.getTime() + 10 * MIN);
    const seen: unknown[] = [];
    runner.register('mail', async (p) => {
      seen.push(p.v);
      // A new reply arrives while this run is mailing about the earlier ones.
      if (p.v === 1) await scheduleJob(db(), { name: 'mail', key: 'k2', payload: { v: 2 }, runAt: later });
    });
    await scheduleJob(db(), { name: 'mail', key: 'k2', payload: { v: 1 }, runAt: now });
    await runner.runDue(now);
    const [next] = await db().select().from(jobs).where(eq(jobs.key, 'k2'));
    expect(next).toMatchObject({ payload: { v: 2 }, attempts: 0, lockedUntil: null });
    expect(next!.runAt.getTime()).toBe(later.getTime());
    await runner.runDue(later);
    expect(seen).toEqual([1, 2]);

    await db()
      .insert(jobs)
      .values({ name: 'mail', key: 'k3', payload: { v: 3 }, failedAt: new Date(), attempts: 5 });
    await scheduleJob(db(), { name: 'mail', key: 'k3', payload: { v: 4 }, runAt: now });
    expect(await runner.runDue(now)).toBe(1);
    expect(seen).toEqual([1, 2, 4]);
  });

  it('a job cancelled while it runs is not retried when it fails', async () => {
    const runner = new JobRunner(db(), log());
    const now = new Date();
    runner.register('gone', async () => {
      await cancelJob(db(), 'gone-1');
      throw new Error('after cancel');
    });
    await scheduleJob(db(), { name: 'gone', key: 'gone-1', runAt: now });
    await runner.runDue(now);
    expect(await db().select().from(jobs)).toEqual([]);
  });

  it('polls by itself once started, and stops when told', async () => {
    const runner = new JobRunner(db(), log(), { pollMs: 10 });
    const seen: number[] = [];
    runner.register('tick', async (p) => {
      seen.push(p.n as number);
    });
    await scheduleJob(db(), { name: 'tick', payload: { n: 1 } });
    runner.start();
    await vi.waitFor(() => expect(seen).toEqual([1]));
    await runner.stop();
    await scheduleJob(db(), { name: 'tick', payload: { n: 2 } });
    // Stopped: a due job stays in the table for the next process.
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([1]);
    expect(await db().select().from(jobs)).toHaveLength(1);
  });

  it('the app has a runner; the plugin starts it once the app is ready (not with JOBS_POLL_MS 0, as in server tests) and stops it on close', async () => {
    expect(t.app.jobs).toBeInstanceOf(JobRunner);
    const host = async (env: 'test' | 'production') => {
      const app = Fastify();
      app.decorate('db', db());
      app.decorate('config', { env, jobsPollMs: env === 'test' ? 0 : 5_000 } as never);
      await app.register(jobsPlugin, { pollMs: 60_000 });
      return app;
    };
    for (const env of ['test', 'production'] as const) {
      const app = await host(env);
      const start = vi.spyOn(JobRunner.prototype, 'start');
      const stop = vi.spyOn(JobRunner.prototype, 'stop');
      await app.ready();
      expect(start).toHaveBeenCalledTimes(env === 'test' ? 0 : 1);
      await app.close();
      expect(stop).toHaveBeenCalledTimes(1);
      start.mockRestore();
      stop.mockRestore();
    }
  });
});

describe('durability', () => {
  it('a job scheduled before a restart runs after it', { timeout: 120_000 }, async () => {
    if (process.env.DATABASE_URL) return; // the PostgreSQL server keeps rows by nature; this checks PGlite on disk
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-jobs-'));
    try {
      const before = await openDatabase({ dataDir: dir });
      await before.migrate();
      const at = new Date(Date.now() + 10 * MIN);
      await scheduleJob(before.db, { name: 'chat-email', key: 'restart', payload: { conversation_id: 7 }, runAt: at });
      await before.close();

      const after = await openDatabase({ dataDir: dir });
      const runner = new JobRunner(after.db, log());
      const seen: unknown[] = [];
      runner.register('chat-email', async (p) => {
        seen.push(p);
      });
      expect(await runner.runDue(new Date())).toBe(0);
      expect(await runner.runDue(at)).toBe(1);
      expect(seen).toEqual([{ conversation_id: 7 }]);
      await after.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
