/**
 * Processes starting together on one PostgreSQL migrate and seed once (issue 17 point 4): two databases opened on the
 * same fresh server database (two pools, as two processes would have) migrate and seed at the same moment, and both
 * succeed with the tables made once. Without the start-up lock the second migrator trips over the first one's
 * `create table` (duplicate key) or seeding inserts the demo users twice. PGlite is opened by one process only:
 * there the lock is a pass-through, checked to run its function.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { seedAll } from '#server/db/seed/index.ts';
import { createDiskStorage } from '#server/plugins/storage.ts';
import { testConfig } from '#server/config.ts';
import { createServerDatabase } from '#tests/test-app.ts';
import { openDatabase, STARTUP_LOCK_KEY, type Database } from './client.ts';

const base = process.env.DATABASE_URL;
const opened: Database[] = [];
let serverDb: { url: string; drop(): Promise<void> } | undefined;

/** A `select count(*)::int as n …` answered as a number (both drivers answer `{ rows }`). */
async function count(d: Database, query: SQL): Promise<number> {
  const result = (await d.db.execute<{ n: number }>(query)) as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

afterAll(async () => {
  for (const d of opened) await d.close();
  await serverDb?.drop();
});

describe.skipIf(!base)('the start-up lock on PostgreSQL', () => {
  it('lets processes starting together migrate and seed one after the other', { timeout: 120_000 }, async () => {
    serverDb = await createServerDatabase(base!);
    const config = testConfig({ databaseUrl: serverDb.url });
    const storage = createDiskStorage(config.dataDir);
    const nodes = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: serverDb!.url, dataDir: ':memory:' })));
    opened.push(...nodes);

    await Promise.all(nodes.map((d) => d.migrate()));
    await Promise.all(nodes.map((d) => d.exclusive(() => seedAll(d.db, config, storage))));

    const applied = await count(nodes[0]!, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const journal = (await import('./migrations/meta/_journal.json', { with: { type: 'json' } })).default as {
      entries: unknown[];
    };
    expect(applied).toBe(journal.entries.length);
    expect(await count(nodes[0]!, sql`select count(*)::int as n from users where email = 'admin@vitrina.test'`)).toBe(1);
  });

  it('holds the lock while its function runs and releases it after, also when the function fails', { timeout: 60_000 }, async () => {
    const [a, b] = opened;
    // A bigint advisory key shows in pg_locks as its low 32 bits in objid. Advisory locks belong to a database: other
    // test files starting servers on their own databases of this cluster take the same key at the same time.
    const held = (d: Database) =>
      count(
        d,
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted
              and objid = ${Number(STARTUP_LOCK_KEY & 0xffffffffn)}
              and database = (select oid from pg_database where datname = current_database())`,
      );
    expect(await a!.exclusive(() => held(b!))).toBe(1);
    await expect(a!.exclusive(() => Promise.reject(new Error('seed failed')))).rejects.toThrow('seed failed');
    expect(await held(b!)).toBe(0);
  });
});

describe.skipIf(!!base)('the start-up lock on PGlite', () => {
  it('runs its function (one process owns the data folder)', async () => {
    const d = await openDatabase({ dataDir: ':memory:' });
    opened.push(d);
    expect(await d.exclusive(async () => 42)).toBe(42);
  });
});
