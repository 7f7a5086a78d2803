/**
 * Copies every file of one store into another (`npm run storage:migrate`: DATA_DIR/media into the S3 bucket), for
 * moving an existing installation to STORAGE_DRIVER=s3. Safe to run again and again: a file already in the target
 * with the same size is skipped (names are unique and never rewritten, so same name and size is the same file), so
 * an interrupted run resumes where it stopped and a second run copies nothing. The source is only read, never
 * changed. Crash leftovers are not copied: partial writes (`*.tmp`) and readiness probes (`.ready/…`).
 */
import { readBytes, type Storage } from './storage.ts';

export interface MigrateResult {
  /** Files written to the target (new, or there with another size: a copy an earlier run did not finish). */
  copied: number;
  bytes: number;
  /** Already in the target with the same size. */
  skipped: number;
  /** Crash leftovers not copied. */
  leftovers: number;
  /** Files that could not be copied (each named to `onError`); a later run tries them again. */
  failed: number;
}

export interface MigrateOptions {
  /** Copies at once (each holds one file in memory). */
  concurrency?: number;
  onProgress?: (result: MigrateResult) => void;
  onError?: (key: string, err: unknown) => void;
  /** Progress is reported every this many files. */
  progressEvery?: number;
}

const isLeftover = (key: string) => key.endsWith('.tmp') || key.startsWith('.ready/');

export async function migrateStorage(source: Storage, target: Storage, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const concurrency = opts.concurrency ?? 8;
  const every = opts.progressEvery ?? 500;
  const result: MigrateResult = { copied: 0, bytes: 0, skipped: 0, leftovers: 0, failed: 0 };

  // What the target has, listed once (one request per thousand objects) instead of a HEAD per file.
  const present = new Map<string, number>();
  for await (const entry of target.list('')) present.set(entry.key, entry.size);

  let seen = 0;
  const copy = async (key: string, size: number) => {
    try {
      const data = await readBytes(source, key);
      // Gone since it was listed (removed by a running server): nothing to copy.
      if (!data) return;
      await target.put(key, data);
      result.copied++;
      result.bytes += size;
    } catch (err) {
      result.failed++;
      opts.onError?.(key, err);
    }
  };

  const running = new Set<Promise<void>>();
  for await (const entry of source.list('')) {
    if (isLeftover(entry.key)) result.leftovers++;
    else if (present.get(entry.key) === entry.size) result.skipped++;
    else {
      const job = copy(entry.key, entry.size).finally(() => running.delete(job));
      running.add(job);
      if (running.size >= concurrency) await Promise.race(running);
    }
    if (++seen % every === 0) opts.onProgress?.({ ...result });
  }
  await Promise.all(running);
  return result;
}
