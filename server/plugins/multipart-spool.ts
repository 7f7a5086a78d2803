/**
 * A multipart request with an Idempotency-Key is read before its handler runs, so that its hash can cover what was
 * sent (each field's name and value, each file's name, type and SHA-256) and not how it was framed: a browser picks a
 * new multipart boundary for every send of the same FormData, and the outbox's replay of a photo upload must be
 * recognised as the same request (issue 24 A5).
 *
 * Files go to a private temporary directory, never to memory (an upload may carry 20 files of up to
 * UPLOAD_MAX_BYTES each), and the handler then reads the very same parts from there, through `req.parts()`, in their
 * order. The multipart limits of the route still apply (the parts are read with its own `req.parts()`), and an error
 * met while reading (a malformed body, too many files) is met again by the handler at the same place, so it answers
 * exactly as it did without a key. The directory is removed when the request ends, answered or aborted.
 */
import crypto from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

const PREFIX = 'vitrina-upload-';
/** Older spools than this belong to no request still running (a request is cut off long before). */
const STALE_MS = 60 * 60 * 1000;

/**
 * Removes the spools a killed process left behind (its requests never ended, so nothing removed them). By age, as
 * other processes on the machine may be reading theirs.
 */
export async function sweepStaleSpools(now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await fs.readdir(os.tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || now - stat.mtimeMs < STALE_MS) continue;
    await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}

type SpooledPart =
  | { type: 'field'; part: Multipart }
  | { type: 'file'; fieldname: string; filename: string; encoding: string; mimetype: string; path: string; truncated: boolean };

export interface Spool {
  /** What was sent, independent of the framing. */
  hash: string;
  /** Removes the temporary files; safe to call more than once. */
  cleanup: () => Promise<void>;
}

type PartsReader = (this: FastifyRequest) => AsyncIterableIterator<Multipart>;

/**
 * Reads every part of the request, hashes them, and makes `req.parts()` give them again. The hash starts from `head`
 * (the method and URL).
 */
export async function spoolMultipart(req: FastifyRequest, head: string): Promise<Spool> {
  const readParts = (req as unknown as { parts: PartsReader }).parts;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), PREFIX));
  const cleanup = () => fs.rm(dir, { recursive: true, force: true });
  const h = crypto.createHash('sha256').update(head);
  const field = (s: string) => h.update(`${Buffer.byteLength(s)}:${s}`);
  const spooled: SpooledPart[] = [];
  let failure: Error | undefined;
  try {
    for await (const part of readParts.call(req)) {
      if (part.type === 'field') {
        h.update('field ');
        field(part.fieldname);
        field(typeof part.value === 'string' ? part.value : JSON.stringify(part.value ?? null));
        spooled.push({ type: 'field', part });
        continue;
      }
      const file = path.join(dir, String(spooled.length));
      const digest = crypto.createHash('sha256');
      await pipeline(
        part.file,
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            digest.update(chunk);
            done(null, chunk);
          },
        }),
        createWriteStream(file, { mode: 0o600 }),
      );
      const truncated = part.file.truncated;
      h.update('file ');
      for (const s of [part.fieldname, part.filename, part.mimetype, digest.digest('hex'), String(truncated)]) field(s);
      spooled.push({
        type: 'file',
        fieldname: part.fieldname,
        filename: part.filename,
        encoding: part.encoding,
        mimetype: part.mimetype,
        path: file,
        truncated,
      });
    }
  } catch (err) {
    // Met again by the handler, after the parts read before it (see replay below).
    failure = err instanceof Error ? err : new Error(String(err));
    const code = (failure as { code?: string }).code;
    h.update(`error ${code ?? failure.message}`);
  }

  async function* replay(): AsyncIterableIterator<Multipart> {
    for (const p of spooled) {
      if (p.type === 'field') {
        yield p.part;
        continue;
      }
      let stream: (Readable & { truncated: boolean }) | undefined;
      const open = () => (stream ??= Object.assign(createReadStream(p.path), { truncated: p.truncated }));
      const part = {
        type: 'file' as const,
        fieldname: p.fieldname,
        filename: p.filename,
        encoding: p.encoding,
        mimetype: p.mimetype,
        fields: {},
        get file() {
          return open();
        },
        toBuffer: async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of open()) chunks.push(chunk as Buffer);
          return Buffer.concat(chunks);
        },
      };
      yield part as unknown as MultipartFile;
    }
    if (failure) throw failure;
  }
  // Own property: the handler's `req.parts()` reads the spool instead of the (consumed) request body.
  Object.defineProperty(req, 'parts', { value: replay, configurable: true, writable: true });
  return { hash: h.digest('hex'), cleanup };
}
