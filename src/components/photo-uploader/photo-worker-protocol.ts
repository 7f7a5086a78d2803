/**
 * What the page and the photo worker (photo-worker.ts) say to each other, and the arithmetic both sides share.
 * Kept apart from both so it can be tested without a worker, a canvas or TensorFlow.js.
 */
import { padFaceBox, scaleBox, type Box, type Size } from './box-geometry.ts';
import type { FaceBackend } from './face-detector.ts';

/** Longer side of the editor's picture; also what the face detector looks at (its network sees 512 × 512 anyway). */
export const PREVIEW_MAX_SIDE = 1024;

export type PhotoWorkerRequest =
  /** Decode a compressed photo, answer its preview, then (detect) search it for faces. */
  | { type: 'prepare'; id: number; blob: Blob; detect: boolean; backend?: FaceBackend }
  /** Load the face model now (its files are then in the service worker's cache for offline use). */
  | { type: 'warm'; id: number };

export type PhotoWorkerAnswer =
  | { type: 'prepared'; id: number; width: number; height: number; preview: ImageBitmap }
  /** Padded areas in pixels of the photo. */
  | { type: 'faces'; id: number; areas: Box[]; backend: string; model: string }
  | { type: 'warmed'; id: number; backend: string }
  /** `decode`: the photo itself cannot be opened (as opposed to the face model failing to load). */
  | { type: 'error'; id: number; decode: boolean; message: string };

/** The preview's size: the photo's, scaled down so its longer side is at most `max`, never up, never 0. */
export function previewSize(photo: Size, max = PREVIEW_MAX_SIDE): Size & { scale: number } {
  const scale = Math.min(1, max / Math.max(photo.width, photo.height));
  const width = Math.max(1, Math.round(photo.width * scale));
  const height = Math.max(1, Math.round(photo.height * scale));
  // The scale actually applied horizontally, after rounding (what the editor multiplies by).
  return { width, height, scale: width / photo.width };
}

/** Faces found in the preview (its pixels) → padded pixelation areas in pixels of the photo. */
export function facesToAreas(faces: readonly Box[], previewScale: number, photo: Size): Box[] {
  return faces.map((f) => padFaceBox(scaleBox(f, 1 / previewScale), photo));
}
