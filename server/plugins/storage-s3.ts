/**
 * Media storage in an S3-compatible bucket (STORAGE_DRIVER=s3), behind the same Storage calls as the disk. The bucket
 * stays private: nothing here makes a public or presigned URL, every file still goes out through GET /media/*
 * (modules/media/media-files.ts), which decides who may see it whichever node serves the request.
 *
 * Keys behave like the disk's paths: `remove('ads/1')` removes the object `ads/1` and everything under `ads/1/`, never
 * `ads/12/…`. A PutObject is all-or-nothing, so unlike the disk there are no partial (`.tmp`) writes to sweep.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config.ts';
import type { Storage, StoredEntry } from './storage.ts';

/** DeleteObjects takes at most this many keys per request (ListObjectsV2 pages are the same size). */
const DELETE_PAGE = 1000;

/** A storage key as an object key: no `..`, no leading slash, no trailing slash ('' is the whole bucket). */
function objectKey(key: string): string {
  const normalised = path.posix.normalize(key).replace(/\/+$/, '');
  if (normalised.startsWith('..') || path.posix.isAbsolute(normalised)) throw new Error(`bad storage key ${key}`);
  return normalised === '.' ? '' : normalised;
}

function isMissing(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);
}

export interface S3Storage extends Storage {
  client: S3Client;
  bucket: string;
  close(): Promise<void>;
}

export function createS3Client(config: S3StorageConfig): S3Client {
  // The SDK warns once per process that its 2027 releases need Node 22: a notice for whoever upgrades the SDK, not for
  // the operator of this release (which pins it). AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false brings it back.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    // Unset: the SDK's default chain (AWS_* variables, an instance or task role).
    ...(config.credentials ? { credentials: config.credentials.reveal() } : {}),
    // Checksums only where the API demands them: several S3-compatible servers refuse the newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // The SDK waits forever by default: a store that stops answering must fail the request (and the readiness check)
    // instead of holding it. The socket timeout is for silence, not for the length of a transfer.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
}

export function createS3Storage(config: S3StorageConfig, client: S3Client = createS3Client(config)): S3Storage {
  const Bucket = config.bucket;

  /** Every object under `key/` (the whole bucket for ''), like the files under a folder on disk. */
  async function* objects(keyPrefix: string): AsyncIterable<StoredEntry> {
    const key = objectKey(keyPrefix);
    const pages = paginateListObjectsV2({ client, pageSize: DELETE_PAGE }, { Bucket, Prefix: key === '' ? undefined : `${key}/` });
    for await (const page of pages) {
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
      }
    }
  }

  return {
    root: `s3://${Bucket}`,
    driver: 's3',
    client,
    bucket: Bucket,
    async put(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentLength: data.length }));
    },
    async link(fromKey, toKey) {
      // Objects have no hard links: a server-side copy (no bytes through this process), independent on delete.
      const source = objectKey(fromKey).split('/').map(encodeURIComponent).join('/');
      await client.send(new CopyObjectCommand({ Bucket, Key: objectKey(toKey), CopySource: `${Bucket}/${source}` }));
    },
    async read(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!(out.Body instanceof Readable)) throw new Error('GetObject gave no stream');
        return { stream: out.Body, size: out.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async remove(keyPrefix) {
      const key = objectKey(keyPrefix);
      if (key === '') throw new Error('refusing to empty the whole bucket');
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      let page: string[] = [];
      const flush = async () => {
        if (!page.length) return;
        const out = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true } }));
        page = [];
        if (out.Errors?.length) throw new Error(`could not remove ${out.Errors.length} objects under ${key}/: ${out.Errors[0]?.Message}`);
      };
      // Listed and removed a page at a time: a large prefix is never held whole in memory.
      for await (const o of objects(key)) {
        page.push(o.key);
        if (page.length === DELETE_PAGE) await flush();
      }
      await flush();
    },
    list: (keyPrefix) => objects(keyPrefix),
    url: (key) => `/media/${objectKey(key)}`,
    async close() {
      client.destroy();
    },
  };
}
