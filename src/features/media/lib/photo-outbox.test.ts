/** An ad's photo writes in the outbox: the stored upload, and a cover change of a photo that is not uploaded yet. */
import 'fake-indexeddb/auto';
import { API } from '#contract/routes.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openOutboxDb, setOutboxDbForTests, type OutboxDb } from '#src/offline/outbox-db.ts';
import { replayOnce, type SendResult } from '#src/offline/replay.ts';
import type { OutboxOp } from '#src/offline/types.ts';
import { changePhoto, coverQueuedUpload, discardPhotoOp, metaOf, parkUpload, photosScope } from './photo-outbox.ts';

let db: OutboxDb;
let n = 0;
beforeEach(() => {
  db = openOutboxDb(`photo-outbox-test-${++n}`);
  setOutboxDbForTests(db);
});
afterEach(async () => {
  vi.restoreAllMocks();
  setOutboxDbForTests(undefined);
  db.close();
  await db.delete();
});

const photo = () => ({
  adId: 12,
  jpeg: new Blob(['pixelated'], { type: 'image/jpeg' }),
  thumbnail: new Blob(['small'], { type: 'image/jpeg' }),
  name: 'playa.jpg',
  key: 'upload-key-0001',
});

describe('photo writes in the outbox', () => {
  it('stores an upload as the multipart request it will be, keyed by the failed attempt, with its thumbnail', async () => {
    await parkUpload(3, photo());
    const [op] = await db.ops.toArray();
    expect(op).toMatchObject({ id: 'upload-key-0001', userId: 3, scope: photosScope(12), kind: 'photo.upload', method: 'POST' });
    expect(op!.path).toBe(API.uploadImages);
    expect(op!.parts!.map((p) => p.name)).toEqual(['ad_id', 'images']);
    // (fake-indexeddb keeps Blobs as plain clones in jsdom: their bytes are checked in the queue's test and the e2e.)
    expect(op!.parts![1]).toMatchObject({ name: 'images', filename: 'playa.jpg' });
    expect((op!.parts![1] as { blob?: unknown }).blob).toBeTruthy();
    expect(metaOf(op!).thumbnail).toBeTruthy();
  });

  it('a cover change of a queued photo is sent after its upload, with the id the upload got', async () => {
    await parkUpload(3, photo());
    await coverQueuedUpload(3, 12, 'upload-key-0001');
    const sent: string[] = [];
    const sendParts = async (op: OutboxOp): Promise<SendResult> => {
      sent.push(`${op.method} ${op.path}`);
      return { status: 201, data: { data: { media: [{ media_id: 501 }], refused: [] } } };
    };
    const fetchImpl = (async (path: RequestInfo | URL, init?: RequestInit) => {
      sent.push(`${init?.method} ${typeof path === 'string' ? path : path instanceof URL ? path.pathname : path.url}`);
      return new Response(JSON.stringify({ data: { ad_id: 12, media: [] } }), { status: 200 });
    }) as typeof fetch;
    const summary = await replayOnce({ userId: 3, db, fetch: fetchImpl, sendParts, csrfToken: async () => 't' });
    expect(summary).toMatchObject({ done: 2, pending: 0, attention: 0 });
    expect(sent).toEqual(['POST /api/upload/images', 'PUT /api/change-cover-picture/501']);
  });

  it('discarding a queued photo discards the cover change that waits for it', async () => {
    await parkUpload(3, photo());
    await coverQueuedUpload(3, 12, 'upload-key-0001');
    const ops = await db.ops.toArray();
    await discardPhotoOp(
      ops.find((o) => o.kind === 'photo.upload')!,
      ops,
    );
    expect(await db.ops.count()).toBe(0);
  });

  it('offline, a deletion is queued (not sent) behind the photos waiting in the same ad', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(await changePhoto(3, 12, 44, 'delete')).toBe('queued');
    const [op] = await db.ops.toArray();
    expect(op).toMatchObject({ kind: 'photo.delete', path: API.mediaDelete, body: { media_id: 44 }, scope: photosScope(12) });
    expect(metaOf(op!).mediaId).toBe(44);
  });
});
