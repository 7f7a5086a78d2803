/**
 * Opens the database: PGlite (embedded PostgreSQL in WASM) under DATA_DIR/pg by default, or a PostgreSQL
 * server through a `pg` pool when DATABASE_URL is set. Both are driven through the same Drizzle API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations, once even when several processes start together (under the start-up lock). */
  migrate(): Promise<void>;
  /**
   * Runs `fn` while holding the start-up lock: on PostgreSQL a session advisory lock on a connection of its own, so
   * processes starting at the same moment migrate and seed one after the other (the later ones find nothing to do).
   * PGlite is opened by one process only: `fn` simply runs.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** PGlite only: its whole data directory as a tarball, which `snapshot` can start another instance from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

/** The advisory lock key every Vitrina process takes around migrating and seeding ('vitrina' in ASCII, as a bigint). */
export const STARTUP_LOCK_KEY = 0x7669747269_6e61n;

/**
 * PGlite's page cache inside its WASM memory. PostgreSQL's default, 128MB, is touched in full when PGlite starts, so it
 * was ≈120 MB of every process's RSS (issue 27). 32MB holds the demo catalogue's tables and indexes (≈26 MB); pages
 * beyond it are read from the operating system's file cache, which the machine shares with everything else
 * (docs/decisions/0024-server-memory.md).
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

const migrationsFolder = path.join(path.dirname(new URL(import.meta.url).pathname), 'migrations');

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite data; ':memory:' keeps it in memory (tests). */
  dataDir: string;
  /**
   * PGlite in memory only: start from this data directory (a `dump()`) instead of an empty one. The server tests start
   * every file from one migrated and reference-seeded copy made once per run (tests/pglite-snapshot.ts) instead of
   * running initdb, the migrations and the reference seed ≈80 times.
   */
  snapshot?: Blob | undefined;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, failover) must not crash the process: the pool replaces it.
    pool.on('error', (err) => console.error('PostgreSQL pool: idle connection lost:', err.message));
    const db = drizzlePg(pool, { schema });
    const exclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
      // A session lock on its own connection (not a transaction lock): `fn` works through the pool's other connections.
      // It is released when the connection ends, so a process killed while holding it does not block the others.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY.toString()]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY.toString()]);
        }
      } finally {
        // Discarded rather than pooled: whatever happened above, no lock outlives this call.
        client.release(true);
      }
    };
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () => exclusive(() => migratePg(db, { migrationsFolder })),
      exclusive,
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (opts.dataDir !== ':memory:') {
    dataDir = path.join(opts.dataDir, 'pg');
    fs.mkdirSync(dataDir, { recursive: true });
  }
  // relaxedDurability stays off (PGlite's default, said here on purpose): a query answers only once its writes have
  // reached the files, so a change acknowledged with a 2xx survives the process being killed.
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(!dataDir && opts.snapshot ? { loadDataDir: opts.snapshot } : {}),
    relaxedDurability: false,
    extensions: { pg_trgm, unaccent },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    exclusive: (fn) => fn(),
    dump: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}
