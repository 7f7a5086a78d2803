/**
 * A fingerprint of the database's contents, table by table (row count + an order-independent hash of the rows), so
 * the fuzz suite can prove a refused request changed nothing. Tables are listed from the catalogue at run time: a
 * table added later is covered the day its migration lands.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';

export type Fingerprint = Map<string, string>;

/**
 * Per table: row count and the sum of the rows' hashes (as text). A sum does not depend on the physical order of the
 * rows (an UPDATE moves them) and needs no sort: cheap enough to run after every request. `countOnly` tables are
 * compared by their number of rows.
 */
function tableHash(table: string, ignored: readonly string[] = [], countOnly = false): string {
  const row = ignored.length ? `(to_jsonb(x)${ignored.map((c) => ` - '${c}'`).join('')})::text` : 'x::text';
  const hash = countOnly ? `''` : `coalesce(sum(hashtext(${row})::bigint), 0)::text`;
  return `select '${table}' as t, count(*)::text || ':' || ${hash} as h from "${table}" x`;
}

export async function listTables(db: Db): Promise<string[]> {
  const rows = await db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  return rowsOf<{ tablename: string }>(rows).map((r) => r.tablename);
}

export interface FingerprintOptions {
  /** Per table, columns left out of the hash (e.g. a session's sliding expiry). */
  ignoredColumns?: Readonly<Record<string, readonly string[]>>;
  /** Tables where only rows added or removed count (the fingerprint compares their row count only). */
  countOnly?: ReadonlySet<string>;
}

export async function fingerprint(db: Db, tables: readonly string[], opts: FingerprintOptions = {}): Promise<Fingerprint> {
  if (tables.length === 0) return new Map();
  const rows = await db.execute<{ t: string; h: string }>(
    sql.raw(tables.map((table) => tableHash(table, opts.ignoredColumns?.[table], opts.countOnly?.has(table))).join(' union all ')),
  );
  return new Map(rowsOf<{ t: string; h: string }>(rows).map((r) => [r.t, r.h]));
}

/** Tables whose fingerprint differs (or that appeared or vanished). */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}

/** drizzle's execute answers an array on node-postgres' driver and `{ rows }` on PGlite's. */
function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

const LOG = 'fuzz_change_log';

/**
 * A change log kept by the database itself: row triggers on every table count the rows each statement really inserts,
 * deletes or changes (an UPDATE that leaves a row as it was is not a change), and a rolled-back transaction takes its
 * counts with it. Reading it after a request costs one tiny query, where hashing every table costs one per table; the
 * fingerprints above still compare the whole database before and after a run. Test databases only.
 */
export async function installChangeLog(db: Db, tables: readonly string[], opts: FingerprintOptions = {}): Promise<void> {
  await db.execute(sql.raw(`create table ${LOG} (tbl text primary key, n bigint not null)`));
  await db.execute(
    sql.raw(`create function ${LOG}_count() returns trigger language plpgsql as $$
      begin
        insert into ${LOG} values (TG_TABLE_NAME, 1) on conflict (tbl) do update set n = ${LOG}.n + 1;
        return null;
      end $$`),
  );
  for (const table of tables) {
    const ignored = opts.ignoredColumns?.[table] ?? [];
    const row = (r: string) => (ignored.length ? `(to_jsonb(${r})${ignored.map((c) => ` - '${c}'`).join('')})` : `${r}.*`);
    await db.execute(
      sql.raw(`create trigger ${LOG}_rows after insert or delete on "${table}" for each row execute function ${LOG}_count()`),
    );
    await db.execute(
      sql.raw(`create trigger ${LOG}_truncate after truncate on "${table}" for each statement execute function ${LOG}_count()`),
    );
    if (!opts.countOnly?.has(table))
      await db.execute(
        sql.raw(
          `create trigger ${LOG}_update after update on "${table}" for each row when (${row('OLD')} is distinct from ${row('NEW')}) execute function ${LOG}_count()`,
        ),
      );
  }
}

/** How many row changes each table has had since installChangeLog. */
export async function changeCounts(db: Db): Promise<Fingerprint> {
  const rows = await db.execute<{ tbl: string; n: string }>(sql.raw(`select tbl, n::text as n from ${LOG}`));
  return new Map(rowsOf<{ tbl: string; n: string }>(rows).map((r) => [r.tbl, r.n]));
}
