/**
 * A stopping process (SIGTERM, issue 17 point 4) finishes the job in hand and gives back the jobs it claimed with it
 * but has not started, so another process runs them now instead of after their lease (5 min).
 */
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '#server/db/schema.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { JobRunner, scheduleJob } from './jobs.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('stopping the job runner', () => {
  it('finishes the job in hand and releases the claimed ones not started', async () => {
    const runner = new JobRunner(t.app.db, t.app.log, { pollMs: 60_000, batch: 10 });
    const ran: string[] = [];
    let started!: () => void;
    const inHand = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    runner.register('stop-test', async (payload) => {
      ran.push(String(payload.n));
      started();
      await finishing;
    });
    const runAt = new Date(Date.now() - 1000);
    for (const n of [1, 2, 3]) {
      await scheduleJob(t.app.db, { name: 'stop-test', key: `stop-test:${n}`, payload: { n }, runAt: new Date(runAt.getTime() + n) });
    }

    runner.start();
    await inHand;
    const stopped = runner.stop();
    finish();
    await stopped;

    expect(ran).toEqual(['1']);
    const left = await t.app.db
      .select({ key: jobs.key, lockedUntil: jobs.lockedUntil, attempts: jobs.attempts })
      .from(jobs)
      .where(inArray(jobs.key, ['stop-test:1', 'stop-test:2', 'stop-test:3']))
      .orderBy(jobs.key);
    expect(left).toEqual([
      { key: 'stop-test:2', lockedUntil: null, attempts: 0 },
      { key: 'stop-test:3', lockedUntil: null, attempts: 0 },
    ]);
  });
});
