/**
 * Media storage on disk (DATA_DIR/media, or a temp folder for tests), served read-only under /media with
 * year-long caching: every stored name is unique (uuid) and never rewritten. An S3-compatible bucket can
 * replace it behind the same three calls.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export interface Storage {
  root: string;
  put(key: string, data: Buffer): Promise<void>;
  /** Adds an existing file under a second key (a hard link when possible: cheap, and independent on delete). */
  link(fromKey: string, toKey: string): Promise<void>;
  remove(keyPrefix: string): Promise<void>;
  url(key: string): string;
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
    root,
    async put(key, data) {
      const file = abs(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a crash never leaves a half-written file under the final name.
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, data);
      await fs.promises.rename(tmp, file);
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
    async remove(keyPrefix) {
      await fs.promises.rm(abs(keyPrefix), { recursive: true, force: true });
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
  await app.register(fastifyStatic, {
    root: storage.root,
    prefix: '/media/',
    decorateReply: false,
    index: false,
    setHeaders(reply: FastifyReply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  } as Parameters<typeof fastifyStatic>[1]);
  if (opts.temporary) app.addHook('onClose', async () => fs.promises.rm(storage.root, { recursive: true, force: true }));
});
