/**
 * The work done on a photo on the device, loaded on demand (dynamic import) with its heavy dependencies:
 *   1. compress: browser-image-compression in its web worker (orientation applied, longer side ≤ 2400 px, ≤ 2 MB,
 *      JPEG, metadata such as GPS position dropped by the re-encode);
 *   2. in the photo worker (photo-worker.ts): decode it, answer a preview of at most 1024 px for the editor, then
 *      search that preview for faces and answer them as padded pixelation areas, in pixels of the compressed photo;
 *   3. at upload time, render the compressed photo with its areas pixelated into the JPEG that is actually sent.
 * Steps 1 and 2 run off the main thread: a face search takes about a second of computation, during which the page
 * used to freeze.
 *
 * The library's worker imports the library's UMD build with importScripts(); by default from a CDN. `libURL`
 * points it at the copy Vite emits from node_modules (`?url`), so nothing is fetched from another origin.
 */
import imageCompression from 'browser-image-compression';
import compressionLibUrl from 'browser-image-compression/dist/browser-image-compression.js?url';
import type { Box } from './box-geometry.ts';
import type { FaceBackend } from './face-detector.ts';
import { imageTypeOf } from './file-checks.ts';
import { pixelateAreas } from './pixelate.ts';
import { PREVIEW_MAX_SIDE, previewSize, type PhotoWorkerAnswer, type PhotoWorkerRequest } from './photo-worker-protocol.ts';

/** Longer side of the photo sent: the server's largest variant is 1600 px wide, which a 3:4 portrait of 2400 px still reaches. */
export const MAX_SIDE = 2400;
export const MAX_SIZE_MB = 2;
export { PREVIEW_MAX_SIDE };
/** Quality of the JPEG sent (the server re-encodes it to WebP variants). */
export const UPLOAD_QUALITY = 0.9;

export class PhotoDecodeError extends Error {
  constructor(cause?: unknown) {
    super('cannot_decode', { cause });
  }
}

export interface PreparedPhoto {
  /** The compressed photo, not yet pixelated (kept on the device only). */
  blob: Blob;
  width: number;
  height: number;
  /** A pristine copy at most PREVIEW_MAX_SIDE px long, for drawing the editor. */
  preview: HTMLCanvasElement;
  /** preview width ÷ photo width. */
  previewScale: number;
}

export interface Detection {
  /** Padded areas in photo pixels; empty when no face was found. */
  areas: Box[];
  backend: string;
  model: string;
}

/** Step 1: compress in a worker. `onProgress` gets 0–100. */
export async function compressPhoto(file: File, opts: { onProgress?: (p: number) => void; signal?: AbortSignal } = {}): Promise<Blob> {
  // Some systems give files no MIME type; the library refuses a file whose type does not start with image/.
  const type = imageTypeOf(file) ?? file.type;
  const input = type === file.type ? file : new File([file], file.name, { type, lastModified: file.lastModified });
  try {
    return await imageCompression(input, {
      maxWidthOrHeight: MAX_SIDE,
      maxSizeMB: MAX_SIZE_MB,
      initialQuality: UPLOAD_QUALITY,
      fileType: 'image/jpeg',
      useWebWorker: true,
      libURL: new URL(compressionLibUrl, window.location.href).href,
      preserveExif: false,
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    // Decoding is what fails here (a damaged file, a format this browser cannot open): nothing to show or pixelate.
    throw new PhotoDecodeError(err);
  }
}

function canvas(width: number, height: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
}

/** Releases a canvas's pixels at once (Safari keeps them until the element is collected otherwise). */
function release(c: HTMLCanvasElement) {
  c.width = 0;
  c.height = 0;
}

async function decode(blob: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(blob);
  } catch (err) {
    throw new PhotoDecodeError(err);
  }
}

/** The preview drawn on the main thread: only when the photo worker cannot run. */
async function previewOnPage(blob: Blob): Promise<PreparedPhoto> {
  const full = await decode(blob);
  const { width, height } = full;
  const size = previewSize(full);
  const preview = canvas(size.width, size.height);
  const ctx = preview.getContext('2d');
  if (!ctx) throw new PhotoDecodeError(new Error('no 2d context'));
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(full, 0, 0, preview.width, preview.height);
  full.close();
  return { blob, width, height, preview, previewScale: preview.width / width };
}

type Listener = (answer: PhotoWorkerAnswer) => void;

let worker: Worker | undefined;
let nextId = 1;
const listeners = new Map<number, Listener>();

/** The page's photo worker, started on first use; if it dies, whatever waited on it fails and the next call starts another. */
function photoWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./photo-worker.ts', import.meta.url), { type: 'module', name: 'photo-worker' });
  started.onmessage = (event: MessageEvent<PhotoWorkerAnswer>) => listeners.get(event.data.id)?.(event.data);
  started.onerror = (event) => {
    event.preventDefault();
    if (worker === started) worker = undefined;
    started.terminate();
    const message = event.message || 'photo worker failed';
    for (const [id, listener] of [...listeners]) listener({ type: 'error', id, decode: false, message });
  };
  worker = started;
  return started;
}

/** A request without its id (Omit over each member of the union, not over the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

function send(request: Unnumbered<PhotoWorkerRequest>, listener: Listener): number {
  const id = nextId++;
  listeners.set(id, listener);
  photoWorker().postMessage({ ...request, id });
  return id;
}

/** The face search started with each preview, answered by detectAreas(). */
const detections = new WeakMap<PreparedPhoto, Promise<Detection>>();

/**
 * Step 2: the compressed photo's size and its preview, from the photo worker; the worker goes on to search the
 * preview for faces (unless `detect` is false), which detectAreas() answers.
 */
export function makePreview(blob: Blob, opts: { detect?: boolean; backend?: FaceBackend } = {}): Promise<PreparedPhoto> {
  return new Promise<PreparedPhoto>((resolvePhoto, rejectPhoto) => {
    let settleDetection: { resolve: (d: Detection) => void; reject: (e: Error) => void } | undefined;
    const detection = new Promise<Detection>((resolve, reject) => (settleDetection = { resolve, reject }));
    // Nobody may ask (a photo removed meanwhile): its failure is then nobody's business.
    detection.catch(() => undefined);
    let photo: PreparedPhoto | undefined;
    const id = send(
      { type: 'prepare', blob, detect: opts.detect ?? true, ...(opts.backend ? { backend: opts.backend } : {}) },
      (answer) => {
        if (answer.type === 'prepared') {
          const preview = canvas(answer.preview.width, answer.preview.height);
          const ctx = preview.getContext('2d');
          if (!ctx) {
            answer.preview.close();
            listeners.delete(id);
            rejectPhoto(new PhotoDecodeError(new Error('no 2d context')));
            return;
          }
          ctx.drawImage(answer.preview, 0, 0);
          answer.preview.close();
          photo = { blob, width: answer.width, height: answer.height, preview, previewScale: preview.width / answer.width };
          detections.set(photo, detection);
          if (opts.detect === false) listeners.delete(id);
          resolvePhoto(photo);
        } else if (answer.type === 'faces') {
          listeners.delete(id);
          settleDetection?.resolve({ areas: answer.areas, backend: answer.backend, model: answer.model });
        } else if (answer.type === 'error') {
          listeners.delete(id);
          settleDetection?.reject(new Error(answer.message));
          if (photo) return;
          if (answer.decode) rejectPhoto(new PhotoDecodeError(new Error(answer.message)));
          // The worker itself is missing (offline before its script was ever kept) or cannot draw here: the preview
          // is made on the page as before the worker existed, and the faces are marked by hand.
          else resolvePhoto(previewOnPage(blob));
        }
      },
    );
  });
}

/** Step 3: faces found in the preview, as padded areas in photo pixels (searched by the worker since the preview). */
export function detectAreas(photo: PreparedPhoto): Promise<Detection> {
  return detections.get(photo) ?? Promise.reject(new Error('no face search for this photo'));
}

/**
 * Loads the face model in the photo worker ahead of the first photo: that photo is then ready sooner, and the
 * model's files pass through the service worker, which keeps them for a face search without a network.
 */
export function warmFaceModel(): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = send({ type: 'warm' }, (answer) => {
      listeners.delete(id);
      if (answer.type === 'warmed') resolve(answer.backend);
      else reject(new Error(answer.type === 'error' ? answer.message : 'unexpected answer'));
    });
  });
}

/** Step 3 at upload time: the JPEG that is sent — the compressed photo with every area pixelated, without any metadata. */
export async function renderForUpload(photo: Pick<PreparedPhoto, 'blob' | 'width' | 'height'>, areas: readonly Box[]): Promise<Blob> {
  const full = await decode(photo.blob);
  const out = canvas(full.width, full.height);
  try {
    const ctx = out.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new PhotoDecodeError(new Error('no 2d context'));
    ctx.drawImage(full, 0, 0);
    full.close();
    // Areas are in pixels of the compressed photo; its decoded size is the same, but scale in case a browser differs.
    pixelateAreas(ctx, areas, out, out.width / photo.width);
    const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/jpeg', UPLOAD_QUALITY));
    if (!blob) throw new PhotoDecodeError(new Error('toBlob gave nothing'));
    return blob;
  } finally {
    release(out);
  }
}

/** Longer side of the thumbnail kept with a photo waiting in the outbox. */
export const THUMBNAIL_MAX_SIDE = 320;

/** A small JPEG of the photo as it will be sent (already pixelated), to show while it waits for the network. */
export async function renderThumbnail(jpeg: Blob): Promise<Blob> {
  const full = await decode(jpeg);
  const scale = Math.min(1, THUMBNAIL_MAX_SIDE / Math.max(full.width, full.height));
  const out = canvas(Math.max(1, Math.round(full.width * scale)), Math.max(1, Math.round(full.height * scale)));
  try {
    const ctx = out.getContext('2d');
    if (!ctx) throw new PhotoDecodeError(new Error('no 2d context'));
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(full, 0, 0, out.width, out.height);
    full.close();
    const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/jpeg', 0.8));
    if (!blob) throw new PhotoDecodeError(new Error('toBlob gave nothing'));
    return blob;
  } finally {
    release(out);
  }
}
