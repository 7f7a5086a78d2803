/**
 * Vitest global setup of the server tests on PGlite: one in-memory database migrated and seeded with the reference data
 * (what every test file needs, whatever its config), dumped to a temp file once per run. createTestApp starts each file's
 * PGlite from it; its own migrate() and seedAll() then find nothing to do but what depends on the file's config (the
 * demo accounts). Starting from the copy skips initdb, which was most of a file's set-up. With DATABASE_URL (the
 * PostgreSQL run) nothing is done.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '#server/db/client.ts';
import { seedReferenceData } from '#server/db/seed/reference.ts';

export const SNAPSHOT_ENV = 'VITRINA_TEST_PGLITE_SNAPSHOT';

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const database = await openDatabase({ dataDir: ':memory:' });
  try {
    await database.migrate();
    await seedReferenceData(database.db);
    const file = path.join(os.tmpdir(), `vitrina-test-pglite-${process.pid}.tar`);
    fs.writeFileSync(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
    // Read by the test files' processes, which are started after this and inherit the environment.
    process.env[SNAPSHOT_ENV] = file;
    return () => fs.rmSync(file, { force: true });
  } finally {
    await database.close();
  }
}
