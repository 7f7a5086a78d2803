/**
 * `npm run storage:migrate`: copies the disk store (DATA_DIR/media) into the bucket the S3_* variables name, for
 * switching an installation to STORAGE_DRIVER=s3. Idempotent and resumable (plugins/storage-migrate.ts); the disk
 * is only read. Exit code 0 when every file is in the bucket, 1 when some could not be copied (run it again), 2 when
 * it cannot start (configuration, no disk store, bucket unreachable).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { createDiskStorage } from './plugins/storage.ts';
import { createS3Storage } from './plugins/storage-s3.ts';
import { migrateStorage, type MigrateResult } from './plugins/storage-migrate.ts';

function fail(message: string): never {
  console.error(`storage:migrate: ${message}`);
  process.exit(2);
}

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}
if (config.storage.driver !== 's3')
  fail('set STORAGE_DRIVER=s3 and the S3_* variables of the bucket to copy into (see docs/deployment.md).');
if (config.dataDir === ':memory:') fail('DATA_DIR=:memory: has no disk store to copy.');
const from = path.join(config.dataDir, 'media');
if (!fs.existsSync(from)) fail(`no disk store at ${from} (DATA_DIR is ${config.dataDir}).`);

const source = createDiskStorage(config.dataDir);
const target = createS3Storage(config.storage);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const line = (r: MigrateResult) =>
  `${r.copied} copied (${mb(r.bytes)} MB), ${r.skipped} already in the bucket, ${r.leftovers} crash leftovers not copied, ${r.failed} failed`;

console.log(`storage:migrate: ${from} → ${target.root}${config.storage.endpoint ? ` at ${config.storage.endpoint}` : ''}`);
let result: MigrateResult;
try {
  result = await migrateStorage(source, target, {
    onProgress: (r) => console.log(`  … ${line(r)}`),
    onError: (key, err) => console.error(`  could not copy ${key}: ${err instanceof Error ? err.message : String(err)}`),
  });
} catch (err) {
  await target.close();
  fail(`the bucket cannot be used: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
}
await target.close();
console.log(`storage:migrate: done: ${line(result)}. ${from} is unchanged.`);
if (result.failed) {
  console.error('storage:migrate: some files were not copied; run it again (files already there are skipped).');
  process.exit(1);
}
