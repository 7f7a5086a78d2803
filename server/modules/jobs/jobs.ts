/**
 * Durable background jobs in the app's own database (the `jobs` table), for work that must outlive the process that
 * scheduled it — the chat e-mail sent 10 minutes after an unread staff reply. pg-boss and graphile-worker need a `pg`
 * pool with LISTEN/NOTIFY and do not run on PGlite (docs/decisions/0008-jobs-table.md), so this is a small runner:
 *
 * - `scheduleJob` inserts a row (inside the caller's transaction, so the job exists exactly when the change does);
 *   a `key` names it, so scheduling the same key again keeps the first (`keep`) or replaces it (`replace`), and
 *   `cancelJob(key)` removes it.
 * - every process runs a JobRunner that polls for due rows. It claims them with `FOR UPDATE SKIP LOCKED` and a lease
 *   (`locked_until`) in a short transaction, so two nodes never take the same row, then runs each handler outside
 *   any transaction. Success deletes the row; a failure is retried with exponential back-off until `max_attempts`,
 *   then kept with `failed_at` for a person to look at. A process that dies mid-job leaves a lease that expires, and
 *   the job runs again elsewhere: handlers must tolerate running twice (at-least-once).
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';

export type JobRow = typeof jobs.$inferSelect;

/** What a handler may answer: nothing (done), or a later time to run again without counting a failure. */
export type JobOutcome = void | { retryAt: Date };
/** `now`: the time the runner ran the job for (tests pass a future one; a handler checks its conditions against it). */
export type JobHandler = (payload: Record<string, unknown>, job: JobRow, now: Date) => Promise<JobOutcome>;

export interface ScheduleOptions {
  name: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  key?: string;
  maxAttempts?: number;
  /** With a key already scheduled: `keep` the earlier job (default; unless it is running or failed) or `replace` it. */
  onConflict?: 'keep' | 'replace';
}

export async function scheduleJob(db: Db, opts: ScheduleOptions): Promise<void> {
  const values = {
    name: opts.name,
    key: opts.key ?? null,
    payload: opts.payload ?? {},
    runAt: opts.runAt ?? new Date(),
    maxAttempts: opts.maxAttempts ?? 5,
  };
  const insert = db.insert(jobs).values(values);
  if (!opts.key) {
    await insert;
  } else if (opts.onConflict === 'replace') {
    await insert.onConflictDoUpdate({
      target: jobs.key,
      set: { ...values, attempts: 0, lockedUntil: null, lastError: null, failedAt: null, createdAt: new Date() },
    });
  } else {
    // Kept unless it can no longer do the new job's work: already running (it may have looked before this change)
    // or failed for good. Then the new one takes its place, and the running one's settling leaves it alone.
    await insert.onConflictDoUpdate({
      target: jobs.key,
      set: { ...values, attempts: 0, lockedUntil: null, lastError: null, failedAt: null, createdAt: new Date() },
      setWhere: sql`${jobs.lockedUntil} > now() or ${jobs.failedAt} is not null`,
    });
  }
}

/** Removes a job by key (a running one finishes, but its row is gone, so it is not retried). */
export async function cancelJob(db: Db, key: string): Promise<boolean> {
  const removed = await db.delete(jobs).where(eq(jobs.key, key)).returning({ id: jobs.id });
  return removed.length > 0;
}

/** Thrown by a handler for a failure that retrying cannot mend (a mail server refusing the address): kept as failed at once. */
export class PermanentJobError extends Error {}

/** Back-off after the n-th failed attempt: 30 s, 1 min, 2 min… capped at an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export interface JobRunnerOptions {
  /** How often to look for due jobs. */
  pollMs?: number;
  /** How long a claimed job is reserved for this process; past it another process may run it again. */
  leaseMs?: number;
  /** Jobs claimed per poll. */
  batch?: number;
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly recurring = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = true;
  /** Set by stop() (not by the initial state: tests call runDue by hand on a runner never started). */
  private stopping = false;
  readonly pollMs: number;
  readonly leaseMs: number;
  readonly batch: number;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    opts: JobRunnerOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 5_000;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.batch = opts.batch ?? 10;
  }

  register(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  /**
   * Periodic work run once across all processes: one keyed row (`every:{name}`) that reschedules itself `everyMs`
   * after each run (the `retryAt` outcome keeps the row, so a node claiming it holds the occurrence alone). A
   * failure is retried with the usual back-off. `schedule` (on start) adds the row when no node has yet; the first
   * run comes one interval later.
   */
  every(name: string, everyMs: number, work: (now: Date) => Promise<unknown>): void {
    this.recurring.set(name, everyMs);
    this.register(`every:${name}`, async (_payload, _job, now) => {
      await work(now);
      return { retryAt: new Date(now.getTime() + everyMs) };
    });
  }

  /** Adds the row of each periodic job no node has scheduled yet (kept as it is when one has). */
  async scheduleRecurring(now: Date = new Date()): Promise<void> {
    for (const [name, everyMs] of this.recurring) {
      await scheduleJob(this.db, {
        name: `every:${name}`,
        key: `every:${name}`,
        runAt: new Date(now.getTime() + everyMs),
        maxAttempts: 1_000_000,
      });
    }
  }

  /** Claims the jobs due at `now` (and only names this runner handles), runs them; answers how many ran. */
  async runDue(now: Date = new Date()): Promise<number> {
    const names = [...this.handlers.keys()];
    if (!names.length) return 0;
    const leaseUntil = new Date(now.getTime() + this.leaseMs);
    const claimed = await this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            isNull(jobs.failedAt),
            inArray(jobs.name, names),
            lte(jobs.runAt, now),
            or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now)),
          ),
        )
        .orderBy(asc(jobs.runAt))
        .limit(this.batch)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      return tx
        .update(jobs)
        .set({ lockedUntil: leaseUntil, attempts: sql`${jobs.attempts} + 1` })
        .where(
          inArray(
            jobs.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
    for (const [i, job] of claimed.entries()) {
      // Stopping (SIGTERM): the job in hand finishes; the ones claimed but not started go back now, for another
      // process to take at once rather than after their lease.
      if (this.stopping) {
        await this.release(claimed.slice(i), leaseUntil);
        break;
      }
      await this.runOne(job, leaseUntil, now);
    }
    return claimed.length;
  }

  private async runOne(job: JobRow, lease: Date, now: Date): Promise<void> {
    // Only the holder of this lease settles the row: a job replaced or cancelled meanwhile is left as it now is.
    const mine = and(eq(jobs.id, job.id), eq(jobs.lockedUntil, lease));
    try {
      const handler = this.handlers.get(job.name)!;
      const outcome = await handler(job.payload, job, now);
      if (outcome && 'retryAt' in outcome) {
        await this.db
          .update(jobs)
          .set({ runAt: outcome.retryAt, lockedUntil: null, attempts: sql`${jobs.attempts} - 1` })
          .where(mine);
      } else {
        await this.db.delete(jobs).where(mine);
      }
    } catch (err) {
      const last = job.attempts >= job.maxAttempts || err instanceof PermanentJobError;
      this.log.error(
        { err, job: { id: job.id, name: job.name, attempts: job.attempts } },
        last ? 'job failed for good' : 'job failed, retrying',
      );
      await this.db
        .update(jobs)
        .set({
          lockedUntil: null,
          lastError: String((err as Error)?.message ?? err).slice(0, 2000),
          runAt: new Date(Date.now() + backoffMs(job.attempts)),
          failedAt: last ? new Date() : null,
        })
        .where(mine)
        .catch((e: unknown) => this.log.error({ err: e }, 'job: recording the failure failed'));
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = false;
    this.timer = setTimeout(this.tick, 0);
  }

  private readonly tick = (): void => {
    this.timer = null;
    if (this.stopped) return;
    this.running = this.runDue()
      .catch((err: unknown) => this.log.error({ err }, 'job runner: poll failed'))
      .finally(() => {
        this.running = null;
        const again = this.poked;
        this.poked = false;
        if (!this.stopped) this.timer = setTimeout(this.tick, again ? 0 : this.pollMs);
      });
  };
  /** A poke came during a poll, which may have looked before the new job was committed: poll again at once. */
  private poked = false;

  /**
   * Looks for due jobs now rather than at the next poll, when the runner is polling and idle: work that a person is
   * waiting for (a push announcing a reply) need not wait up to `pollMs`. A poll already running is left alone.
   */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.poked = true;
      return;
    }
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.tick, 0);
  }

  /** Gives claimed jobs back untouched: no attempt counted, runnable at once. */
  private async release(claimed: JobRow[], lease: Date): Promise<void> {
    await this.db
      .update(jobs)
      .set({ lockedUntil: null, attempts: sql`${jobs.attempts} - 1` })
      .where(
        and(
          inArray(
            jobs.id,
            claimed.map((j) => j.id),
          ),
          eq(jobs.lockedUntil, lease),
        ),
      )
      .catch((err: unknown) => this.log.error({ err }, 'job runner: releasing claimed jobs failed'));
  }

  /** Stops polling and waits for the job in hand to finish; jobs claimed with it and not started are released. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
