/**
 * Media storage: on disk (DATA_DIR/media, or a temp folder for tests) or, with STORAGE_DRIVER=s3, in an S3-compatible
 * bucket (storage-s3.ts) behind the same calls. Every stored name is unique (uuid) and never rewritten. Nothing here
 * is served by itself: GET /media/* (modules/media/media-files.ts) decides who may see which file — photos of
 * an ad that is not listed are private.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createS3Storage } from './storage-s3.ts';

export interface StoredFile {
  stream: Readable;
  size: number;
}

export interface StoredEntry {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface Storage {
  driver: 'disk' | 's3';
  /** Where the files are (a folder, or s3://bucket), for messages. */
  root: string;
  put(key: string, data: Buffer): Promise<void>;
  /** Adds an existing file under a second key (a hard link or a server-side copy: cheap, and independent on delete). */
  link(fromKey: string, toKey: string): Promise<void>;
  /** The file's bytes as a stream, or null when there is no such file. */
  read(key: string): Promise<StoredFile | null>;
  /** Removes the file `keyPrefix` and everything under `keyPrefix/` (a key is a path: `ads/1` is not `ads/12`). */
  remove(keyPrefix: string): Promise<void>;
  /**
   * Every file under `keyPrefix/` ('' for all), in no particular order, including the partial files a crash left
   * mid-write on disk (their keys end in `.tmp`: see put; a bucket has none). For the start-up sweep of crash
   * leftovers (modules/media/orphans.ts) and storage:migrate.
   */
  list(keyPrefix: string): AsyncIterable<StoredEntry>;
  url(key: string): string;
  /** Lets go of connections (the S3 client's); the storage is not used after. */
  close?(): Promise<void>;
}

/** The storage the configuration names (STORAGE_DRIVER). */
export function createStorage(config: Pick<Config, 'dataDir' | 'storage'>): Storage {
  return config.storage.driver === 's3' ? createS3Storage(config.storage) : createDiskStorage(config.dataDir);
}

/** A stored file's whole content, or null when there is no such file (for small files: a photo variant, a probe). */
export async function readBytes(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.read(key);
  return file ? buffer(file.stream) : null;
}

function safeKey(key: string): string {
  const normalised = path.posix.normalize(key);
  if (normalised.startsWith('..') || path.isAbsolute(normalised)) throw new Error(`bad storage key ${key}`);
  return normalised;
}

export function createDiskStorage(dataDir: string): Storage {
  const root = dataDir === ':memory:' ? fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-media-')) : path.join(dataDir, 'media');
  fs.mkdirSync(root, { recursive: true });
  const abs = (key: string) => path.join(root, safeKey(key));
  return {
    driver: 'disk',
    root,
    async put(key, data) {
      const file = abs(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a crash never leaves a half-written file under the final name, and a failed write
      // leaves no temporary file behind either.
      const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.promises.writeFile(tmp, data);
        await fs.promises.rename(tmp, file);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
    },
    async link(fromKey, toKey) {
      const to = abs(toKey);
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      try {
        await fs.promises.link(abs(fromKey), to);
      } catch {
        await fs.promises.copyFile(abs(fromKey), to);
      }
    },
    async read(key) {
      const file = abs(key);
      try {
        const handle = await fs.promises.open(file, 'r');
        const stat = await handle.stat();
        if (!stat.isFile()) {
          await handle.close();
          return null;
        }
        // The stream closes the handle when it ends or is destroyed.
        return { stream: handle.createReadStream(), size: stat.size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return null;
        throw err;
      }
    },
    async remove(keyPrefix) {
      await fs.promises.rm(abs(keyPrefix), { recursive: true, force: true });
    },
    async *list(keyPrefix) {
      const start = abs(keyPrefix);
      let dir: fs.Dir;
      try {
        dir = await fs.promises.opendir(start, { recursive: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
        throw err;
      }
      // Streamed: a large media folder is walked without holding its whole listing in memory.
      for await (const d of dir) {
        if (!d.isFile()) continue;
        const file = path.join(d.parentPath, d.name);
        // Gone meanwhile (removed by a request, or by the sweep itself with its folder): not listed.
        const stat = await fs.promises.stat(file).catch(() => null);
        if (!stat) continue;
        yield { key: path.relative(root, file).split(path.sep).join('/'), size: stat.size, modifiedAt: stat.mtime };
      }
    },
    url: (key) => `/media/${safeKey(key)}`,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export default fp<{ storage: Storage; temporary: boolean }>(async (app, opts) => {
  const { storage } = opts;
  app.decorate('storage', storage);
  app.addHook('onClose', async () => {
    if (opts.temporary && storage.driver === 'disk') await fs.promises.rm(storage.root, { recursive: true, force: true });
    await storage.close?.();
  });
});
