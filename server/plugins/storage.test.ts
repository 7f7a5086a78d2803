/**
 * The Storage contract, the same cases against both drivers: the disk (a temp folder) and S3 (a local s3rver started
 * here, on loopback, with a temp folder of its own).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type S3Server } from '#tests/local-processes.ts';
import { createDiskStorage, type Storage } from './storage.ts';
import { createS3Storage } from './storage-s3.ts';

async function text(storage: Storage, key: string): Promise<string | null> {
  const file = await storage.read(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  expect(file.size).toBe(body.length);
  return body.toString();
}

async function keys(storage: Storage, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of storage.list(prefix)) out.push(entry.key);
  return out.sort();
}

let s3: S3Server;
const drivers: Record<'disk' | 's3', () => Storage> = {
  disk: () => createDiskStorage(':memory:'),
  s3: () => createS3Storage(s3.storageConfig),
};

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

describe.each(['disk', 's3'] as const)('Storage contract (%s)', (driver) => {
  let storage: Storage;
  beforeAll(() => {
    storage = drivers[driver]();
  });
  afterAll(async () => {
    await storage.remove('c');
    await storage.close?.();
    if (storage.driver === 'disk') fs.rmSync(storage.root, { recursive: true, force: true });
  });

  it('gives back what was put, with its size; a missing key is null', async () => {
    await storage.put('c/put/a.webp', Buffer.from('hello'));
    expect(await text(storage, 'c/put/a.webp')).toBe('hello');
    expect(await storage.read('c/put/missing.webp')).toBeNull();
    expect(await storage.read('c/nothing-here/at-all.webp')).toBeNull();
    expect(storage.url('c/put/a.webp')).toBe('/media/c/put/a.webp');
  });

  it('put replaces a file whole', async () => {
    await storage.put('c/replace/a.webp', Buffer.from('first version, longer'));
    await storage.put('c/replace/a.webp', Buffer.from('second'));
    expect(await text(storage, 'c/replace/a.webp')).toBe('second');
  });

  it('link adds a second key that outlives the first', async () => {
    await storage.put('c/link/from.webp', Buffer.from('linked bytes'));
    await storage.link('c/link/from.webp', 'c/link/sub/to.webp');
    await storage.remove('c/link/from.webp');
    expect(await storage.read('c/link/from.webp')).toBeNull();
    expect(await text(storage, 'c/link/sub/to.webp')).toBe('linked bytes');
  });

  it('remove takes a key or a whole folder, and never a sibling whose name starts the same', async () => {
    await storage.put('c/rm/1/a/x.webp', Buffer.from('x'));
    await storage.put('c/rm/1/b.webp', Buffer.from('b'));
    await storage.put('c/rm/12/kept.webp', Buffer.from('kept'));
    await storage.put('c/rm/1.webp', Buffer.from('kept too'));
    await storage.remove('c/rm/1');
    expect(await keys(storage, 'c/rm')).toEqual(['c/rm/1.webp', 'c/rm/12/kept.webp']);
    await storage.remove('c/rm/1.webp');
    expect(await keys(storage, 'c/rm')).toEqual(['c/rm/12/kept.webp']);
    // Nothing there: no error.
    await storage.remove('c/rm/never');
  });

  it('lists every file under a folder with its size and time, and nothing for a missing one', async () => {
    const before = Date.now() - 60_000;
    await storage.put('c/list/a.webp', Buffer.from('aaa'));
    await storage.put('c/list/deep/er/b.webp', Buffer.from('bb'));
    await storage.put('c/listed-not/c.webp', Buffer.from('c'));
    const entries = [];
    for await (const entry of storage.list('c/list')) entries.push(entry);
    entries.sort((x, y) => x.key.localeCompare(y.key));
    expect(entries.map((e) => [e.key, e.size])).toEqual([
      ['c/list/a.webp', 3],
      ['c/list/deep/er/b.webp', 2],
    ]);
    for (const e of entries) expect(e.modifiedAt.getTime()).toBeGreaterThan(before);
    expect(await keys(storage, 'c/none')).toEqual([]);
    expect(await keys(storage, '')).toEqual(expect.arrayContaining(['c/list/a.webp', 'c/listed-not/c.webp']));
  });

  it('lists past one page (more than 1000 files) and removes them all', async () => {
    if (driver === 'disk') return; // Pages are the bucket's; the disk walks a folder.
    const many = Array.from({ length: 1005 }, (_, i) => `c/many/${String(i).padStart(4, '0')}.webp`);
    for (let i = 0; i < many.length; i += 50) await Promise.all(many.slice(i, i + 50).map((k) => storage.put(k, Buffer.from('.'))));
    expect(await keys(storage, 'c/many')).toEqual(many);
    await storage.remove('c/many');
    expect(await keys(storage, 'c/many')).toEqual([]);
  }, 60_000);

  it('refuses keys that climb out of the store', async () => {
    await expect(storage.put('../escape.webp', Buffer.from('x'))).rejects.toThrow(/bad storage key/);
    await expect(storage.read('/etc/passwd')).rejects.toThrow(/bad storage key/);
  });
});
