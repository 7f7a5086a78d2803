/**
 * `npm run storage:migrate` (server/storage-migrate-cli.ts) against a local S3-protocol server: a disk store is
 * copied into the bucket without its crash leftovers, a second run copies nothing, an interrupted copy is finished,
 * the disk is left as it was, and an unreachable bucket is a clear error.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type S3Server } from '#tests/local-processes.ts';
import { createS3Storage, type S3Storage } from './storage-s3.ts';
import { readBytes } from './storage.ts';

let s3: S3Server;
let bucket: S3Storage;
let dataDir: string;

const FILES: Record<string, string> = {
  'ads/7/0b0e2a4c-8d4f-4f57-9a39-1d1b3c0d5e6f/320.webp': 'small variant',
  'ads/7/0b0e2a4c-8d4f-4f57-9a39-1d1b3c0d5e6f/800.webp': 'larger variant, more bytes',
  'verification/3/5e9c1f7a-2b3d-4c5e-8f9a-0b1c2d3e4f5a.webp': 'a private selfie',
  'exports/9/archive.zip': 'zip bytes',
  'demo/women-0/320.webp': 'demo illustration',
};
const LEFTOVERS = ['ads/7/0b0e2a4c-8d4f-4f57-9a39-1d1b3c0d5e6f/1600.webp.123.abcd.tmp', '.ready/4242-00112233aabb'];

function write(key: string, body: string) {
  const file = path.join(dataDir, 'media', key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
}

function snapshot(): Record<string, string> {
  const root = path.join(dataDir, 'media');
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(root, file)] = fs.readFileSync(file, 'utf8');
  }
  return out;
}

async function inBucket(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of bucket.list('')) {
    out[entry.key] = (await readBytes(bucket, entry.key))!.toString();
  }
  return out;
}

function migrate(env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/storage-migrate-cli.ts'],
      {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          ...s3.env,
          ...env,
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  s3 = await startS3();
  bucket = createS3Storage(s3.storageConfig);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-migrate-'));
  for (const [key, body] of Object.entries(FILES)) write(key, body);
  for (const key of LEFTOVERS) write(key, 'crash leftover');
});
afterAll(async () => {
  await bucket?.close();
  await s3?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run storage:migrate', () => {
  it('copies the disk store into the bucket without crash leftovers, leaves the disk as it was, and a second run copies nothing', async () => {
    const before = snapshot();
    const first = await migrate();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('5 copied');
    expect(first.stdout).toContain('0 already in the bucket, 2 crash leftovers not copied, 0 failed');
    expect(await inBucket()).toEqual(FILES);
    expect(snapshot()).toEqual(before);

    const second = await migrate();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('0 copied (0.0 MB), 5 already in the bucket');
    expect(await inBucket()).toEqual(FILES);
  }, 60_000);

  it('finishes what an interrupted run left: a file missing or of another size in the bucket is copied again', async () => {
    const [missing, cut] = Object.keys(FILES);
    await bucket.remove(missing!);
    await bucket.put(cut!, Buffer.from('cut'));
    write('ads/8/1c1e2a4c-8d4f-4f57-9a39-1d1b3c0d5e6f/320.webp', 'added since');
    const run = await migrate();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('3 copied');
    expect(run.stdout).toContain('3 already in the bucket');
    expect(await inBucket()).toEqual({ ...FILES, 'ads/8/1c1e2a4c-8d4f-4f57-9a39-1d1b3c0d5e6f/320.webp': 'added since' });
  }, 60_000);

  it('says what is wrong instead of copying: the disk driver, no disk store, an unreachable bucket', async () => {
    const disk = await migrate({ STORAGE_DRIVER: 'disk' });
    expect(disk.code).toBe(2);
    expect(disk.stderr).toContain('set STORAGE_DRIVER=s3');
    const none = await migrate({ DATA_DIR: path.join(dataDir, 'nowhere') });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no disk store at');
    const missing = await migrate({ S3_BUCKET: 'no-such-bucket' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the bucket cannot be used: NoSuchBucket');
  }, 60_000);
});
