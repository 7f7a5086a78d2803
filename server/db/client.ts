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
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(new URL(import.meta.url).pathname), 'migrations');

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite data; ':memory:' keeps it in memory (tests). */
  dataDir: string;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, failover) must not crash the process: the pool replaces it.
    pool.on('error', (err) => console.error('PostgreSQL pool: idle connection lost:', err.message));
    const db = drizzlePg(pool, { schema });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (opts.dataDir !== ':memory:') {
    dataDir = path.join(opts.dataDir, 'pg');
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm, unaccent } });
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}
