/**
 * The work done on a photo on the device, loaded on demand (dynamic import) with its heavy dependencies:
 *   1. compress: browser-image-compression in a web worker (orientation applied, longer side ≤ 2400 px, ≤ 2 MB,
 *      JPEG, metadata such as GPS position dropped by the re-encode);
 *   2. a preview of at most 1024 px, which is also what the face detector looks at (its network sees 512 × 512
 *      anyway, so a larger input only costs time);
 *   3. detect faces and turn them into padded pixelation areas, in pixels of the compressed photo;
 *   4. at upload time, render the compressed photo with its areas pixelated into the JPEG that is actually sent.
 *
 * The library's worker imports the library's UMD build with importScripts(); by default from a CDN. `libURL`
 * points it at the copy Vite emits from node_modules (`?url`), so nothing is fetched from another origin.
 */
import imageCompression from 'browser-image-compression';
import compressionLibUrl from 'browser-image-compression/dist/browser-image-compression.js?url';
import { padFaceBox, scaleBox, type Box } from '../../../src/components/photo-uploader/box-geometry.ts';
import { getFaceDetector, type FaceBackend, type FaceModel } from './face-detector.ts';
import { imageTypeOf } from '../../../src/components/photo-uploader/file-checks.ts';
import { pixelateAreas } from '../../../src/components/photo-uploader/pixelate.ts';

/** Longer side of the photo sent: the server's largest variant is 1600 px wide, which a 3:4 portrait of 2400 px still reaches. */
export const MAX_SIDE = 2400;
export const MAX_SIZE_MB = 2;
export const PREVIEW_MAX_SIDE = 1024;
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

/** Step 2: the compressed photo's size and its preview. */
export async function makePreview(blob: Blob): Promise<PreparedPhoto> {
  const full = await decode(blob);
  const { width, height } = full;
  const scale = Math.min(1, PREVIEW_MAX_SIDE / Math.max(width, height));
  const preview = canvas(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
  const ctx = preview.getContext('2d');
  if (!ctx) throw new PhotoDecodeError(new Error('no 2d context'));
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(full, 0, 0, preview.width, preview.height);
  full.close();
  return { blob, width, height, preview, previewScale: preview.width / width };
}

/** Step 3: faces found in the preview, as padded areas in photo pixels. */
export async function detectAreas(photo: PreparedPhoto, model: FaceModel = 'auto', backend: FaceBackend = 'auto'): Promise<Detection> {
  const detector = await getFaceDetector(model, backend);
  const faces = await detector.detect(photo.preview);
  const bounds = { width: photo.width, height: photo.height };
  return {
    backend: detector.backend,
    model: detector.model,
    areas: faces.map((f) => padFaceBox(scaleBox(f, 1 / photo.previewScale), bounds)),
  };
}

/** Step 4: the JPEG that is sent — the compressed photo with every area pixelated, without any metadata. */
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
