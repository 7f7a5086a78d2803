/**
 * The uploader's state, outside React so a multi-step form can own it (and keep the prepared photos while the
 * user goes back and forth between steps) and so its rules are unit-tested without a DOM canvas.
 *
 * Each photo goes: preparing (compression, with progress) → detecting (faces) → ready (areas editable) →
 * uploading (bytes sent, with progress) → uploaded | refused (the server said why) | failed (retry possible).
 * Photos are prepared one at a time (decoding a 12 MP photo takes a lot of memory on a phone) and uploaded one request
 * per photo so each has its own progress bar and its own outcome: the first one chosen alone (it becomes the cover of
 * an ad without one), then two at a time.
 *
 * The heavy work (compression library, face detector) lives in prepare-photo.ts and is imported on first use.
 *
 * Offline (issue 15): with a `park` option (the Photos screen gives one that stores into the outbox), a photo whose
 * upload cannot reach the server — the browser is offline, or the request failed for want of network — is handed
 * over as the pixelated JPEG that would have been sent (never the original) with a small thumbnail and the same
 * Idempotency-Key, and leaves the queue as 'queued': the outbox sends it when the network returns.
 */
import { UPLOAD_FIELDS, type RefusedFile, type UploadAnswer, type UploadedImage } from '#contract/media.ts';
import type { PhotoReview } from '#contract/photo-reviews.ts';
import { API } from '#contract/routes.ts';
import { ApiError, apiRequest, OfflineError } from '#src/lib/api-client.ts';
import { apiUpload } from '#src/lib/api-upload.ts';
import type { Box } from './box-geometry.ts';
import { checkFiles, fileKey, jpegName, type FileProblem } from './file-checks.ts';
import type { PreparedPhoto } from './prepare-photo.ts';

export type PhotoStage = 'preparing' | 'detecting' | 'ready' | 'uploading' | 'uploaded' | 'queued' | 'refused' | 'failed';

export interface QueuedPhoto {
  id: string;
  file: File;
  stage: PhotoStage;
  /** 0–100: compression while preparing, bytes sent while uploading. */
  progress: number;
  photo?: PreparedPhoto;
  /** Pixelation areas, in pixels of the prepared photo. */
  areas: Box[];
  /** Outcome of the automatic face search. */
  detection?: 'found' | 'none' | 'unavailable';
  /** Why a photo could not be prepared here ('cannot_decode': this browser cannot open it). */
  problem?: 'cannot_decode' | 'prepare_failed';
  /** The server refused the file, with its reason and translated message. */
  refusal?: RefusedFile;
  /**
   * Asking a person to review an automated refusal (issue 24 B7): sending, asked (the server keeps the photo), or
   * failed with the server's (or the offline) message. `key` is the request's Idempotency-Key: the same on a retry.
   */
  review?: { state: 'sending' | 'requested' | 'failed'; key: string; message?: string; statementId?: number | null };
  /** The upload failed; `message` is the server's translated text when it gave one. */
  failure?: { kind: 'offline' | 'server'; message?: string };
  /** The stored photo, once accepted. */
  media?: UploadedImage;
  /**
   * Idempotency-Key of this photo's upload: the same while the photo and its areas stay the same, so a retry after a
   * lost answer is not stored twice; a new one when the areas change (the bytes sent change with them).
   */
  uploadKey?: string;
}

export interface RejectedFile {
  name: string;
  problem: FileProblem;
}

export interface UploadBatchResult {
  /** Photos accepted and stored, in the order they were queued. */
  media: UploadedImage[];
  /** Files refused by the server, with reasons. */
  refused: RefusedFile[];
  /** Photos whose upload failed (network, server error): still queued, can be sent again. */
  failed: number;
  /** The server's translated notice for the accepted photos ("Anuncio pendiente de revisión!"). */
  message?: string;
  /** Photos handed to the outbox (no network): stored on the device, sent when the connection is back. */
  queued: number;
}

/** What `park` is given: the photo exactly as it would have been sent, to be sent later. */
export interface ParkedPhoto {
  adId: number;
  /** The pixelated JPEG (what the server would have got). */
  jpeg: Blob;
  /** A small JPEG of the same pixelated photo, to show while it waits. */
  thumbnail: Blob;
  /** The file name sent (`….jpg`). */
  name: string;
  /** The upload's Idempotency-Key: the same as the attempt that may have reached the server. */
  key: string;
}

export interface QueueSnapshot {
  items: readonly QueuedPhoto[];
  /** Files refused before any work (type, size, count, picked twice), until dismissed. */
  rejected: readonly RejectedFile[];
  uploading: boolean;
}

/** What the queue needs from prepare-photo.ts; replaced by a fake in unit tests. */
export interface PhotoWorker {
  prepare(file: File, onProgress: (p: number) => void, signal: AbortSignal): Promise<PreparedPhoto>;
  detect(photo: PreparedPhoto): Promise<Box[]>;
  render(photo: PreparedPhoto, areas: readonly Box[]): Promise<Blob>;
  /** A small copy of a rendered JPEG (for a photo waiting in the outbox); the JPEG itself where missing. */
  thumbnail?(jpeg: Blob): Promise<Blob>;
  release(photo: PreparedPhoto): void;
}

const browserWorker: PhotoWorker = {
  async prepare(file, onProgress, signal) {
    const work = await import('./prepare-photo.ts');
    return work.makePreview(await work.compressPhoto(file, { onProgress, signal }));
  },
  async detect(photo) {
    const work = await import('./prepare-photo.ts');
    return (await work.detectAreas(photo)).areas;
  },
  async render(photo, areas) {
    const work = await import('./prepare-photo.ts');
    return work.renderForUpload(photo, areas);
  },
  async thumbnail(jpeg) {
    const work = await import('./prepare-photo.ts');
    return work.renderThumbnail(jpeg);
  },
  release(photo) {
    photo.preview.width = 0;
    photo.preview.height = 0;
  },
};

export type Uploader = (
  body: FormData,
  onProgress: (loaded: number, total: number) => void,
  idempotencyKey?: string,
) => Promise<{ status: number; data: UploadAnswer }>;

const defaultUploader: Uploader = (body, onProgress, idempotencyKey) =>
  apiUpload<UploadAnswer>(API.uploadImages, body, { onProgress, ...(idempotencyKey ? { idempotencyKey } : {}) });

const UPLOAD_CONCURRENCY = 2;

let counter = 0;
const newId = () => `photo-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Asks a person to review an automated refusal (POST API.photoReviews); resolves with the request as stored. */
export type ReviewRequester = (token: string, idempotencyKey: string) => Promise<PhotoReview>;
const defaultReviewRequester: ReviewRequester = async (token, idempotencyKey) =>
  (await apiRequest<{ data: PhotoReview }>(API.photoReviews, { method: 'POST', body: { token }, idempotencyKey })).data.data;

export interface PhotoQueueOptions {
  worker?: PhotoWorker;
  uploader?: Uploader;
  reviewRequester?: ReviewRequester;
  /** Stores a photo that cannot be sent now (no network) to be sent later; rejects if it cannot be stored. */
  park?: (photo: ParkedPhoto) => Promise<void>;
}

export class PhotoQueue {
  private snapshot: QueueSnapshot = { items: [], rejected: [], uploading: false };
  private listeners = new Set<() => void>();
  private preparing: Promise<void> = Promise.resolve();
  private aborts = new Map<string, AbortController>();
  private readonly worker: PhotoWorker;
  private readonly uploader: Uploader;
  private readonly reviewRequester: ReviewRequester;
  /** Set by the screen that owns the queue (setPark), or given at construction. */
  private park: PhotoQueueOptions['park'];

  constructor(opts: PhotoQueueOptions = {}) {
    this.worker = opts.worker ?? browserWorker;
    this.uploader = opts.uploader ?? defaultUploader;
    this.reviewRequester = opts.reviewRequester ?? defaultReviewRequester;
    this.park = opts.park;
  }

  /** Where photos go when there is no network (undefined: they fail with 'offline' and stay, as before). */
  setPark(park: PhotoQueueOptions['park']) {
    this.park = park;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  private set(next: Partial<QueueSnapshot>) {
    this.snapshot = { ...this.snapshot, ...next };
    for (const l of this.listeners) l();
  }
  private patch(id: string, patch: Partial<QueuedPhoto>) {
    if (!this.snapshot.items.some((i) => i.id === id)) return;
    this.set({ items: this.snapshot.items.map((i) => (i.id === id ? { ...i, ...patch } : i)) });
  }
  private item(id: string) {
    return this.snapshot.items.find((i) => i.id === id);
  }

  /**
   * Queues picked files: refused ones go to `rejected`, the others are prepared one after the other. `existing` is
   * how many photos the ad already has (they count against its limit).
   */
  add(files: readonly File[], existing = 0) {
    const queued = this.snapshot.items.filter((i) => i.stage !== 'uploaded' && i.stage !== 'refused');
    const { accepted, rejected } = checkFiles(files, {
      taken: existing + queued.length,
      known: new Set(queued.map((i) => fileKey(i.file))),
    });
    const added: QueuedPhoto[] = accepted.map((file) => ({
      id: newId(),
      file,
      stage: 'preparing',
      progress: 0,
      areas: [],
      uploadKey: crypto.randomUUID(),
    }));
    this.set({
      items: [...this.snapshot.items, ...added],
      rejected: [...this.snapshot.rejected, ...rejected.map(({ file, problem }) => ({ name: file.name, problem }))],
    });
    for (const { id } of added) this.preparing = this.preparing.then(() => this.prepareOne(id));
    return added.map((i) => i.id);
  }

  private async prepareOne(id: string) {
    const item = this.item(id);
    if (!item) return;
    const abort = new AbortController();
    this.aborts.set(id, abort);
    try {
      const photo = await this.worker.prepare(item.file, (p) => this.patch(id, { progress: Math.round(p) }), abort.signal);
      if (!this.item(id)) {
        this.worker.release(photo);
        return;
      }
      this.patch(id, { photo, stage: 'detecting', progress: 100 });
      let areas: Box[] = [];
      let detection: QueuedPhoto['detection'];
      try {
        areas = await this.worker.detect(photo);
        detection = areas.length ? 'found' : 'none';
      } catch {
        // No automatic search (model not loaded, no backend): the user marks the faces by hand.
        detection = 'unavailable';
      }
      this.patch(id, { stage: 'ready', areas, detection });
    } catch (err) {
      if (abort.signal.aborted) return;
      const problem = err instanceof Error && err.message === 'cannot_decode' ? 'cannot_decode' : 'prepare_failed';
      this.patch(id, { stage: 'failed', problem });
    } finally {
      this.aborts.delete(id);
    }
  }

  /** Takes a photo out of the queue (stops its preparation). Not possible while it is being sent. */
  remove(id: string) {
    const item = this.item(id);
    if (!item || item.stage === 'uploading') return;
    this.aborts.get(id)?.abort();
    if (item.photo) this.worker.release(item.photo);
    this.set({ items: this.snapshot.items.filter((i) => i.id !== id) });
  }

  setAreas(id: string, areas: Box[]) {
    const item = this.item(id);
    if (!item || (item.stage !== 'ready' && item.stage !== 'failed')) return;
    this.patch(id, { areas, uploadKey: crypto.randomUUID() });
  }

  /**
   * Asks a person to look at a photo the automated check refused (POST API.photoReviews with the refusal's token).
   * The server keeps the photo, so nothing is sent again; a retry reuses the key, so it is never asked twice.
   */
  async requestReview(id: string): Promise<void> {
    const item = this.item(id);
    const token = item?.refusal?.review?.token;
    if (!item || !token || item.review?.state === 'sending' || item.review?.state === 'requested') return;
    const key = item.review?.key ?? crypto.randomUUID();
    this.patch(id, { review: { state: 'sending', key } });
    try {
      const review = await this.reviewRequester(token, key);
      this.patch(id, { review: { state: 'requested', key, statementId: review.statement_id } });
    } catch (err) {
      // Offline (or no answer): the card says so; the same key makes the retry safe if the first did arrive.
      const message = err instanceof ApiError && !(err instanceof OfflineError) ? err.data?.message : undefined;
      this.patch(id, { review: { state: 'failed', key, ...(message ? { message } : {}) } });
    }
  }

  /** Prepares a photo again after a failed preparation. */
  retryPrepare(id: string) {
    const item = this.item(id);
    if (!item || item.stage !== 'failed' || item.photo) return;
    this.patch(id, { stage: 'preparing', progress: 0, problem: undefined });
    this.preparing = this.preparing.then(() => this.prepareOne(id));
  }

  dismissRejected() {
    this.set({ rejected: [] });
  }

  /** Photos that would go with the next upload: prepared, or prepared and failed to send. */
  get sendable(): QueuedPhoto[] {
    return this.snapshot.items.filter((i) => i.photo && (i.stage === 'ready' || (i.stage === 'failed' && i.failure)));
  }
  /** Still being compressed or searched for faces. */
  get busy(): boolean {
    return this.snapshot.items.some((i) => i.stage === 'preparing' || i.stage === 'detecting');
  }

  /** Resolves once every photo queued so far has been prepared (or has failed to be). */
  whenPrepared(): Promise<void> {
    return this.preparing;
  }

  /** Releases every prepared photo (when the form that owns the queue is left for good). */
  clear() {
    for (const a of this.aborts.values()) a.abort();
    for (const i of this.snapshot.items) if (i.photo) this.worker.release(i.photo);
    this.set({ items: [], rejected: [] });
  }

  /**
   * Sends every sendable photo to the ad, pixelated as its areas say. Accepted photos leave the queue (they are
   * the ad's now); refused and failed ones stay, with the reason. Resolves when all have an outcome.
   */
  async upload(adId: number): Promise<UploadBatchResult> {
    const result: UploadBatchResult = { media: [], refused: [], failed: 0, queued: 0 };
    if (this.snapshot.uploading) return result;
    const batch = this.sendable;
    if (!batch.length) return result;
    this.set({ uploading: true });
    for (const item of batch) this.patch(item.id, { stage: 'uploading', progress: 0, failure: undefined });
    const order = new Map(batch.map((item, index) => [item.id, index]));
    const accepted: { index: number; media: UploadedImage }[] = [];
    const next = [...batch];
    const run = async (limit = Infinity) => {
      for (let count = 0; count < limit; count++) {
        const item = next.shift();
        if (!item) return;
        const outcome = await this.uploadOne(item, adId);
        if (outcome.media) accepted.push({ index: order.get(item.id)!, media: outcome.media });
        if (outcome.refused) result.refused.push(outcome.refused);
        if (outcome.failed) result.failed++;
        if (outcome.queued) result.queued++;
        if (outcome.message) result.message = outcome.message;
      }
    };
    try {
      // The server makes the ad's first stored photo its cover: the first photo chosen goes alone, and the others
      // only once one is stored (or all have failed), so a smaller second photo cannot overtake it.
      while (next.length && !accepted.length && !result.queued) await run(1);
      await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, next.length) }, () => run()));
    } finally {
      result.media = accepted.sort((a, b) => a.index - b.index).map((a) => a.media);
      const done = new Set(batch.filter((b) => ['uploaded', 'queued'].includes(this.item(b.id)?.stage ?? '')).map((b) => b.id));
      for (const item of this.snapshot.items) if (done.has(item.id) && item.photo) this.worker.release(item.photo);
      this.set({ uploading: false, items: this.snapshot.items.filter((i) => !done.has(i.id)) });
    }
    return result;
  }

  /** Hands a photo that could not be sent to `park`; true once it is stored (it then leaves the queue as 'queued'). */
  private async parkOne(item: QueuedPhoto, current: QueuedPhoto, adId: number, jpeg: Blob): Promise<boolean> {
    try {
      const thumbnail = this.worker.thumbnail ? await this.worker.thumbnail(jpeg).catch(() => jpeg) : jpeg;
      await this.park!({ adId, jpeg, thumbnail, name: jpegName(item.file.name), key: current.uploadKey ?? crypto.randomUUID() });
      this.patch(item.id, { stage: 'queued', progress: 0, failure: undefined });
      return true;
    } catch {
      // Not stored (storage full, no IndexedDB): the photo stays here as failed, to be sent again later.
      return false;
    }
  }

  private async uploadOne(
    item: QueuedPhoto,
    adId: number,
  ): Promise<{ media?: UploadedImage; refused?: RefusedFile; failed?: boolean; queued?: boolean; message?: string }> {
    const current = this.item(item.id) ?? item;
    let jpeg: Blob | undefined;
    try {
      jpeg = await this.worker.render(current.photo!, current.areas);
      // Known offline: straight to the outbox (the request could only fail).
      if (this.park && typeof navigator !== 'undefined' && navigator.onLine === false) throw new OfflineError(new Error('offline'));
      const body = new FormData();
      // The ad first: the server checks who may add photos to it before it reads any file.
      body.append(UPLOAD_FIELDS.adId, String(adId));
      body.append(UPLOAD_FIELDS.files, jpeg, jpegName(item.file.name));
      const res = await this.uploader(
        body,
        (loaded, total) => {
          if (total > 0) this.patch(item.id, { progress: Math.min(100, Math.round((loaded / total) * 100)) });
        },
        current.uploadKey,
      );
      const media = res.data.data.media[0];
      const refused = res.data.data.refused[0];
      if (media) {
        this.patch(item.id, { stage: 'uploaded', progress: 100, media });
        return { media, message: res.data.message };
      }
      if (refused) {
        this.patch(item.id, { stage: 'refused', refusal: refused });
        return { refused };
      }
      this.patch(item.id, { stage: 'failed', failure: { kind: 'server' } });
      return { failed: true };
    } catch (err) {
      const refused = refusalIn(err);
      if (refused) {
        this.patch(item.id, { stage: 'refused', refusal: refused });
        return { refused };
      }
      if (err instanceof OfflineError && jpeg && this.park && (await this.parkOne(item, current, adId, jpeg))) return { queued: true };
      const failure: QueuedPhoto['failure'] =
        err instanceof OfflineError
          ? { kind: 'offline' }
          : { kind: 'server', ...(err instanceof ApiError && err.data?.message ? { message: err.data.message } : {}) };
      this.patch(item.id, { stage: 'failed', failure });
      return { failed: true };
    }
  }
}

/** The refusal carried by a 422 answer in which no file was accepted (`data.refused`). */
function refusalIn(err: unknown): RefusedFile | undefined {
  if (!(err instanceof ApiError) || err.status !== 422) return undefined;
  const data = (err.data as { data?: { refused?: RefusedFile[] } } | undefined)?.data;
  return data?.refused?.[0];
}
