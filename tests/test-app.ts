/**
 * Builds the real app for server tests: a fresh in-memory PGlite per test file, or, when DATABASE_URL is
 * set (CI), a fresh database created on that PostgreSQL server and dropped afterwards. Both are migrated
 * and seeded exactly as `npm start` does.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { TEST_APP_KEY, testConfig, type Config } from '#server/config.ts';
import { openDatabase, type Database } from '#server/db/client.ts';
import { seedAll } from '#server/db/seed/index.ts';
import { mailQueued } from '#server/modules/jobs/mail-job.ts';
import { signedCsrfToken } from '#server/plugins/security.ts';
import { SESSION_COOKIE } from '#server/plugins/session.ts';
import { createStorage } from '#server/plugins/storage.ts';
import { SNAPSHOT_ENV } from './pglite-snapshot.ts';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function createServerDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vitrina_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const base = process.env.DATABASE_URL;
  const serverDb = base ? await createServerDatabase(base) : undefined;
  const config = testConfig({ databaseUrl: serverDb?.url, ...overrides });
  const snapshot = process.env[SNAPSHOT_ENV];
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: ':memory:',
    snapshot: !config.databaseUrl && snapshot && fs.existsSync(snapshot) ? new Blob([fs.readFileSync(snapshot)]) : undefined,
  });
  await database.migrate();
  const storage = createStorage(config);
  await seedAll(database.db, config, storage);
  const app = await buildApp(config, database, storage);
  await app.ready();
  // With `jobsPollMs` given, the runner polls by itself as in production instead.
  if (!config.jobsPollMs) drainJobsAfterRequests(app);
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await serverDb?.drop();
    },
  };
}

/**
 * Runs the jobs due now (queued mail above all) until none is left: what a node's runner does within JOBS_POLL_MS
 * (0 in server tests: no timer). Jobs due later (the chat's 10-minute mail) wait for `app.jobs.runDue(at)`.
 */
export async function drainJobs(app: FastifyInstance): Promise<number> {
  let total = 0;
  for (let ran = await app.jobs.runDue(); ran > 0; ran = await app.jobs.runDue()) total += ran;
  return total;
}

/**
 * After an `app.inject(opts)` that queued mail answers, the due jobs run, as a runner would right after: tests read
 * that mail from `app.mailer.outbox` as before. The answer comes first (nothing here waits for the mail). Requests
 * that queued none cost no extra query (the fuzz suite sends thousands).
 */
function drainJobsAfterRequests(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  let drained = mailQueued.count;
  (app as { inject: unknown }).inject = (...args: unknown[]) => {
    if (args.length !== 1) return inject(...args); // the chained form and the callback form, as they are
    return (inject(args[0]) as Promise<unknown>).then(async (res) => {
      if (mailQueued.count !== drained) {
        drained = mailQueued.count;
        await drainJobs(app);
      }
      return res;
    });
  };
}

/** Headers every browser request of ours carries. */
export const XHR = { 'x-requested-with': 'XMLHttpRequest' } as const;

/**
 * A request with the XHR header and a valid CSRF pair, as the PWA sends state-changing calls: the token is signed
 * for the session cookie in `opts.cookies` (or for an anonymous visitor), as the app would have issued it.
 */
export function withCsrf(opts: InjectOptions, token?: string): InjectOptions {
  const cookies = (opts.cookies ?? {}) as Record<string, string | undefined>;
  token ??= signedCsrfToken(TEST_APP_KEY, cookies[SESSION_COOKIE]);
  return {
    ...opts,
    headers: { ...XHR, 'x-xsrf-token': token, ...(opts.headers ?? {}) },
    cookies: { 'XSRF-TOKEN': token, ...(opts.cookies ?? {}) },
  };
}
