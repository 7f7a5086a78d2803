import { describe, expect, it, vi } from 'vitest';
import type { RefusedFile, UploadAnswer, UploadedImage } from '#contract/media.ts';
import { OfflineError, ValidationError } from '#src/lib/api-client.ts';
import type { Box } from './box-geometry.ts';
import { PhotoQueue, type ParkedPhoto, type PhotoWorker, type Uploader } from './photo-queue.ts';
import type { PreparedPhoto } from './prepare-photo.ts';

const jpeg = (name: string, lastModified = 1) => new File([new Uint8Array(10)], name, { type: 'image/jpeg', lastModified });
const prepared = (name: string): PreparedPhoto => ({
  blob: new Blob([name]),
  width: 1000,
  height: 800,
  preview: { width: 500, height: 400 } as HTMLCanvasElement,
  previewScale: 0.5,
});
const face: Box = { x: 100, y: 100, w: 200, h: 200 };

function fakeWorker(overrides: Partial<PhotoWorker> = {}) {
  const worker: PhotoWorker & { rendered: { name: string; areas: readonly Box[] }[]; released: number } = {
    rendered: [],
    released: 0,
    prepare: vi.fn((file: File, onProgress: (p: number) => void) => {
      onProgress(50);
      return Promise.resolve(prepared(file.name));
    }),
    detect: vi.fn(() => Promise.resolve([face])),
    render: vi.fn((photo: PreparedPhoto, areas: readonly Box[]) => {
      worker.rendered.push({ name: String(photo.width), areas });
      return Promise.resolve(new Blob(['jpeg'], { type: 'image/jpeg' }));
    }),
    release: () => {
      worker.released++;
    },
    ...overrides,
  };
  return worker;
}

const image = (id: number, file: string, index = 0): UploadedImage => ({
  media_id: id,
  uid: `u${id}`,
  url: `/media/${id}.webp`,
  srcset: '',
  width: 800,
  height: 600,
  is_cover: id === 1,
  file,
  index,
});
const answer = (media: UploadedImage[], refused: RefusedFile[] = []): { status: number; data: UploadAnswer } => ({
  status: 201,
  data: {
    channel: 'notification',
    type: refused.length ? 'warning' : 'success',
    message: 'Anuncio pendiente de revisión!',
    data: { media, refused },
  },
});

describe('PhotoQueue', () => {
  it('prepares photos one at a time and pre-fills the areas with the faces found', async () => {
    let running = 0;
    let most = 0;
    const worker = fakeWorker({
      prepare: async (file) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return prepared(file.name);
      },
    });
    const queue = new PhotoQueue({ worker });
    queue.add([jpeg('a.jpg'), jpeg('b.jpg', 2)]);
    expect(queue.getSnapshot().items.map((i) => i.stage)).toEqual(['preparing', 'preparing']);
    expect(queue.busy).toBe(true);
    await queue.whenPrepared();
    expect(most).toBe(1);
    const items = queue.getSnapshot().items;
    expect(items.map((i) => [i.stage, i.detection, i.areas])).toEqual([
      ['ready', 'found', [face]],
      ['ready', 'found', [face]],
    ]);
    expect(queue.sendable).toHaveLength(2);
    expect(queue.busy).toBe(false);
  });

  it('lets the user mark faces by hand when detection finds none or is unavailable', async () => {
    const queue = new PhotoQueue({ worker: fakeWorker({ detect: () => Promise.reject(new Error('no webgl')) }) });
    queue.add([jpeg('a.jpg')]);
    await queue.whenPrepared();
    const [item] = queue.getSnapshot().items;
    expect(item).toMatchObject({ stage: 'ready', detection: 'unavailable', areas: [] });
    queue.setAreas(item!.id, [face]);
    expect(queue.getSnapshot().items[0]!.areas).toEqual([face]);

    const empty = new PhotoQueue({ worker: fakeWorker({ detect: () => Promise.resolve([]) }) });
    empty.add([jpeg('b.jpg')]);
    await empty.whenPrepared();
    expect(empty.getSnapshot().items[0]).toMatchObject({ stage: 'ready', detection: 'none' });
  });

  it('marks a photo the browser cannot open, and lets a failed preparation be retried', async () => {
    let attempts = 0;
    const worker = fakeWorker({
      prepare: (file) => {
        attempts++;
        if (file.name === 'bad.jpg') return Promise.reject(new Error('cannot_decode'));
        if (attempts === 2) return Promise.reject(new Error('worker crashed'));
        return Promise.resolve(prepared(file.name));
      },
    });
    const queue = new PhotoQueue({ worker });
    queue.add([jpeg('bad.jpg'), jpeg('flaky.jpg', 2)]);
    await queue.whenPrepared();
    const [bad, flaky] = queue.getSnapshot().items;
    expect(bad).toMatchObject({ stage: 'failed', problem: 'cannot_decode' });
    expect(flaky).toMatchObject({ stage: 'failed', problem: 'prepare_failed' });
    expect(queue.sendable).toHaveLength(0);
    queue.retryPrepare(flaky!.id);
    await queue.whenPrepared();
    expect(queue.getSnapshot().items[1]).toMatchObject({ stage: 'ready', problem: undefined });
  });

  it('records files refused before any work, and counts the photos the ad already has', () => {
    const queue = new PhotoQueue({ worker: fakeWorker() });
    queue.add([jpeg('a.jpg'), new File(['x'], 'b.gif', { type: 'image/gif' }), jpeg('c.jpg', 3)], 29);
    expect(queue.getSnapshot().items.map((i) => i.file.name)).toEqual(['a.jpg']);
    expect(queue.getSnapshot().rejected).toEqual([
      { name: 'b.gif', problem: 'unsupported_type' },
      { name: 'c.jpg', problem: 'too_many_files' },
    ]);
    queue.dismissRejected();
    expect(queue.getSnapshot().rejected).toEqual([]);
  });

  it('sends each photo pixelated as its areas say, ad first, with per-photo progress; accepted photos leave the queue', async () => {
    const worker = fakeWorker();
    const sent: { fields: [string, string][] }[] = [];
    const progress: number[] = [];
    const uploader: Uploader = async (body, onProgress) => {
      sent.push({ fields: [...body.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]) });
      onProgress(50, 100);
      const name = (body.get('images') as File).name;
      return answer([image(sent.length, name)]);
    };
    const queue = new PhotoQueue({ worker, uploader });
    queue.subscribe(() => {
      const item = queue.getSnapshot().items.find((i) => i.stage === 'uploading');
      if (item) progress.push(item.progress);
    });
    queue.add([jpeg('IMG_1.PNG'), jpeg('b.jpg', 2)]);
    await queue.whenPrepared();
    const first = queue.getSnapshot().items[0]!;
    queue.setAreas(first.id, [face, { x: 0, y: 0, w: 50, h: 50 }]);
    const result = await queue.upload(42);

    expect(sent.map((s) => s.fields).sort()).toEqual([
      [
        ['ad_id', '42'],
        ['images', 'IMG_1.jpg'],
      ],
      [
        ['ad_id', '42'],
        ['images', 'b.jpg'],
      ],
    ]);
    expect(worker.rendered.map((r) => r.areas.length).sort()).toEqual([1, 2]);
    expect(progress).toContain(50);
    expect(result.media.map((m) => m.file)).toEqual(['IMG_1.jpg', 'b.jpg']);
    expect(result.message).toBe('Anuncio pendiente de revisión!');
    expect(result.refused).toEqual([]);
    expect(queue.getSnapshot().items).toEqual([]);
    expect(queue.getSnapshot().uploading).toBe(false);
    expect(worker.released).toBe(2);
  });

  it('sends the first chosen photo alone, so it is stored first and becomes the cover; the others then two at a time', async () => {
    // The server makes the first photo it stores the cover. A smaller second photo sent alongside would finish first.
    const stored: string[] = [];
    const calls: string[] = [];
    const waiting = new Map<string, () => void>();
    const uploader: Uploader = (body) => {
      const name = (body.get('images') as File).name;
      calls.push(name);
      return new Promise((resolve) => {
        waiting.set(name, () => {
          stored.push(name);
          resolve(answer([image(stored.length, name)]));
        });
      });
    };
    const settle = () => new Promise((r) => setTimeout(r, 0));
    const queue = new PhotoQueue({ worker: fakeWorker(), uploader });
    queue.add([jpeg('first.jpg'), jpeg('second.jpg', 2), jpeg('third.jpg', 3)]);
    await queue.whenPrepared();
    const done = queue.upload(42);
    await settle();
    expect(calls).toEqual(['first.jpg']);
    waiting.get('first.jpg')!();
    await settle();
    expect(calls).toEqual(['first.jpg', 'second.jpg', 'third.jpg']);
    waiting.get('third.jpg')!();
    waiting.get('second.jpg')!();
    const result = await done;
    expect(stored[0]).toBe('first.jpg');
    expect(result.media.map((m) => [m.file, m.is_cover])).toEqual([
      ['first.jpg', true],
      ['second.jpg', false],
      ['third.jpg', false],
    ]);
  });

  it('when the first photo is refused, the next one goes alone before the rest', async () => {
    const calls: string[] = [];
    const uploader: Uploader = (body) => {
      const name = (body.get('images') as File).name;
      calls.push(name);
      if (name === 'a.jpg') return Promise.resolve(answer([], [{ file: name, index: 0, reason: 'unsuitable', message: 'No' }]));
      return new Promise((resolve) => setTimeout(() => resolve(answer([image(calls.length, name)])), 0));
    };
    const queue = new PhotoQueue({ worker: fakeWorker(), uploader });
    queue.add([jpeg('a.jpg'), jpeg('b.jpg', 2), jpeg('c.jpg', 3), jpeg('d.jpg', 4)]);
    await queue.whenPrepared();
    const done = queue.upload(7);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual(['a.jpg', 'b.jpg']);
    const result = await done;
    expect(calls).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    expect(result.media.map((m) => m.file)).toEqual(['b.jpg', 'c.jpg', 'd.jpg']);
    expect(result.refused.map((r) => r.file)).toEqual(['a.jpg']);
  });

  it('keeps refused photos with the reason, from a 201 warning and from a 422 where nothing was accepted', async () => {
    const refusal = (file: string): RefusedFile => ({
      file,
      index: 0,
      reason: 'unsuitable',
      message: 'La foto no cumple las normas de contenido.',
    });
    const uploader: Uploader = (body) => {
      const name = (body.get('images') as File).name;
      if (name === 'a.jpg') return Promise.resolve(answer([], [refusal(name)]));
      return Promise.reject(
        new ValidationError(422, {
          channel: 'notification',
          type: 'error',
          message: 'x',
          error: 'validation_failed',
          data: { media: [], refused: [refusal(name)] },
        }),
      );
    };
    const queue = new PhotoQueue({ worker: fakeWorker(), uploader });
    queue.add([jpeg('a.jpg'), jpeg('b.jpg', 2)]);
    await queue.whenPrepared();
    const result = await queue.upload(1);
    expect(result.media).toEqual([]);
    expect(result.refused.map((r) => r.file).sort()).toEqual(['a.jpg', 'b.jpg']);
    expect(queue.getSnapshot().items.map((i) => [i.stage, i.refusal?.reason])).toEqual([
      ['refused', 'unsuitable'],
      ['refused', 'unsuitable'],
    ]);
    // Refused photos are not sent again.
    expect(queue.sendable).toHaveLength(0);
  });

  it('an automated refusal can go to a person: the kept photo is named by its token, a retry reuses the key (issue 24 B7)', async () => {
    const review = { token: 'tok-1', rule: 'erotica' as const, automated: true as const, expires_at: '2026-11-29T00:00:00Z' };
    const uploader: Uploader = (body) =>
      Promise.resolve(answer([], [{ file: (body.get('images') as File).name, index: 0, reason: 'unsuitable', message: 'R', review }]));
    const asked: { token: string; key: string }[] = [];
    let online = false;
    const reviewRequester = vi.fn((token: string, key: string) => {
      asked.push({ token, key });
      if (!online) return Promise.reject(new OfflineError());
      return Promise.resolve({
        id: 1,
        status: 'requested' as const,
        rule: 'erotica' as const,
        ad_id: 1,
        requested_at: 'now',
        statement_id: 9,
      });
    });
    const queue = new PhotoQueue({ worker: fakeWorker(), uploader, reviewRequester });
    queue.add([jpeg('fiesta.jpg')]);
    await queue.whenPrepared();
    await queue.upload(1);
    const id = queue.getSnapshot().items[0]!.id;
    await queue.requestReview(id);
    expect(queue.getSnapshot().items[0]!.review).toMatchObject({ state: 'failed' });
    online = true;
    await queue.requestReview(id);
    expect(queue.getSnapshot().items[0]!.review).toMatchObject({ state: 'requested', statementId: 9 });
    // Same token, same key: if the first try reached the server, the second is its stored answer.
    expect(asked.map((a) => a.token)).toEqual(['tok-1', 'tok-1']);
    expect(asked[1]!.key).toBe(asked[0]!.key);
    // Asked once it is asked: nothing more is sent.
    await queue.requestReview(id);
    expect(reviewRequester).toHaveBeenCalledTimes(2);
  });

  it('keeps photos whose upload failed, ready to be sent again', async () => {
    let online = false;
    const uploader: Uploader = (body) =>
      online ? Promise.resolve(answer([image(7, (body.get('images') as File).name)])) : Promise.reject(new OfflineError());
    const queue = new PhotoQueue({ worker: fakeWorker(), uploader });
    queue.add([jpeg('a.jpg')]);
    await queue.whenPrepared();
    const first = await queue.upload(1);
    expect(first).toMatchObject({ media: [], failed: 1 });
    expect(queue.getSnapshot().items[0]).toMatchObject({ stage: 'failed', failure: { kind: 'offline' } });
    expect(queue.sendable).toHaveLength(1);
    online = true;
    const second = await queue.upload(1);
    expect(second.media.map((m) => m.media_id)).toEqual([7]);
    expect(queue.getSnapshot().items).toEqual([]);
  });

  it('sends the same Idempotency-Key when a failed photo is sent again, and a new one once its areas change', async () => {
    const keys: (string | undefined)[] = [];
    const uploader: Uploader = (_body, _progress, key) => {
      keys.push(key);
      return Promise.reject(new OfflineError());
    };
    const queue = new PhotoQueue({ worker: fakeWorker(), uploader });
    queue.add([jpeg('a.jpg')]);
    await queue.whenPrepared();
    await queue.upload(1);
    await queue.upload(1);
    const id = queue.getSnapshot().items[0]!.id;
    queue.setAreas(id, [face]);
    await queue.upload(1);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('stops preparing a photo that is removed, and frees what was prepared', async () => {
    let signal: AbortSignal | undefined;
    const worker = fakeWorker({
      prepare: (file, _p, s) => {
        signal = s;
        return new Promise((resolve) => setTimeout(() => resolve(prepared(file.name)), 10));
      },
    });
    const queue = new PhotoQueue({ worker });
    const [id] = queue.add([jpeg('a.jpg')]);
    await new Promise((r) => setTimeout(r, 1));
    queue.remove(id!);
    expect(signal?.aborted).toBe(true);
    await queue.whenPrepared();
    expect(queue.getSnapshot().items).toEqual([]);
    expect(worker.released).toBe(1);
  });

  it('without a network, hands the pixelated JPEG (not the original) with a thumbnail and the same key to park', async () => {
    const parked: ParkedPhoto[] = [];
    const keys: (string | undefined)[] = [];
    const uploader: Uploader = (_body, _progress, key) => {
      keys.push(key);
      return Promise.reject(new OfflineError());
    };
    const worker = fakeWorker({ thumbnail: () => Promise.resolve(new Blob(['thumb'], { type: 'image/jpeg' })) });
    const queue = new PhotoQueue({ worker, uploader, park: async (p) => void parked.push(p) });
    queue.add([jpeg('playa.png'), jpeg('b.jpg', 2)]);
    await queue.whenPrepared();
    const result = await queue.upload(12);
    expect(result).toMatchObject({ media: [], failed: 0, queued: 2 });
    expect(parked.map((p) => [p.adId, p.name, p.key])).toEqual([
      [12, 'playa.jpg', keys[0]],
      [12, 'b.jpg', keys[1]],
    ]);
    // What is stored is what the renderer made (the areas pixelated), never the picked file.
    expect(await parked[0]!.jpeg.text()).toBe('jpeg');
    expect(await parked[0]!.thumbnail.text()).toBe('thumb');
    expect(worker.rendered.map((r) => r.areas)).toEqual([[face], [face]]);
    // They left the queue: the outbox shows them now.
    expect(queue.getSnapshot().items).toEqual([]);
  });

  it('keeps a photo as failed when the outbox cannot store it', async () => {
    const queue = new PhotoQueue({
      worker: fakeWorker(),
      uploader: () => Promise.reject(new OfflineError()),
      park: () => Promise.reject(new Error('QuotaExceededError')),
    });
    queue.add([jpeg('a.jpg')]);
    await queue.whenPrepared();
    expect(await queue.upload(1)).toMatchObject({ failed: 1, queued: 0 });
    expect(queue.getSnapshot().items.map((i) => [i.stage, i.failure?.kind])).toEqual([['failed', 'offline']]);
  });
});
