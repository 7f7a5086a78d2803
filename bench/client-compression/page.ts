/**
 * The page bench/client-compression.ts opens (through a Vite dev server): runs the uploader's pipeline on a photo the
 * script supplies and reports the time of each step, and the page's longest main-thread task meanwhile.
 *   - after: the uploader's real code (src/components/photo-uploader/prepare-photo.ts): compression in the library's
 *     worker, then preview and face search in the photo worker;
 *   - after-inline: the same steps, with the same code, all on the page's main thread (compression included):
 *     Chromium's CPU throttling only slows a page's main thread, never a worker, so this is how the workers' work is
 *     timed at a phone's pace;
 *   - before: the code as it was before issue 27 (./before/, copied from git), everything but the compression on
 *     the main thread, SSD MobileNet v1 on WebGL or the tiny detector.
 */
import imageCompression from 'browser-image-compression';
import type { Box } from '../../src/components/photo-uploader/box-geometry.ts';
import { getFaceDetector } from '../../src/components/photo-uploader/face-detector.ts';
import { facesToAreas, previewSize } from '../../src/components/photo-uploader/photo-worker-protocol.ts';
import {
  compressPhoto,
  detectAreas,
  makePreview,
  MAX_SIDE,
  MAX_SIZE_MB,
  renderForUpload,
  UPLOAD_QUALITY,
} from '../../src/components/photo-uploader/prepare-photo.ts';
import type { FaceBackend as BeforeBackend } from './before/face-detector.ts';
import * as before from './before/prepare-photo.ts';

export interface StepTimes {
  inputBytes: number;
  compressMs: number;
  compressedBytes: number;
  width: number;
  height: number;
  previewMs: number;
  detectMs: number;
  /** Pick → faces known: compression, preview and face search. */
  totalMs: number;
  faces: number;
  backend: string;
  renderMs: number;
  renderedBytes: number;
  /** The longest main-thread task while the photo was prepared (0: none of 50 ms or more). */
  longestTaskMs: number;
}

export type Pipeline = 'after' | 'after-inline' | 'before-ssd' | 'before-tiny';

const longTasks: PerformanceEntry[] = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: false });

function longestTaskBetween(from: number, to: number): number {
  return longTasks.filter((e) => e.startTime + e.duration > from && e.startTime < to).reduce((max, e) => Math.max(max, e.duration), 0);
}

async function run(url: string, pipeline: Pipeline, backend: BeforeBackend = 'auto'): Promise<StepTimes> {
  const bytes = await (await fetch(url)).blob();
  const file = new File([bytes], 'photo.jpg', { type: 'image/jpeg', lastModified: 0 });
  const start = performance.now();
  let t = start;
  const compressed =
    pipeline === 'after'
      ? await compressPhoto(file)
      : pipeline === 'after-inline'
        ? await imageCompression(file, {
            maxWidthOrHeight: MAX_SIDE,
            maxSizeMB: MAX_SIZE_MB,
            initialQuality: UPLOAD_QUALITY,
            fileType: 'image/jpeg',
            useWebWorker: false,
            preserveExif: false,
          })
        : await before.compressPhoto(file);
  const compressMs = performance.now() - t;
  t = performance.now();
  let detectMs: number;
  let previewMs: number;
  let photo: { blob: Blob; width: number; height: number };
  let detection: { areas: Box[]; backend: string; model: string };
  if (pipeline === 'after-inline') {
    const full = await createImageBitmap(compressed);
    const size = previewSize(full);
    const preview = await createImageBitmap(full, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
    photo = { blob: compressed, width: full.width, height: full.height };
    full.close();
    previewMs = performance.now() - t;
    t = performance.now();
    const found = await getFaceDetector();
    detection = { areas: facesToAreas(await found.detect(preview), size.scale, photo), backend: found.backend, model: found.model };
    preview.close();
    detectMs = performance.now() - t;
  } else if (pipeline === 'after') {
    const prepared = await makePreview(compressed);
    previewMs = performance.now() - t;
    t = performance.now();
    detection = await detectAreas(prepared);
    detectMs = performance.now() - t;
    photo = prepared;
  } else {
    const prepared = await before.makePreview(compressed);
    previewMs = performance.now() - t;
    t = performance.now();
    detection = await before.detectAreas(prepared, pipeline === 'before-ssd' ? 'ssd' : 'tiny', backend);
    detectMs = performance.now() - t;
    photo = prepared;
  }
  const end = performance.now();
  // Long tasks are reported a little after they end.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const longestTaskMs = longestTaskBetween(start, end);
  const area = { x: photo.width * 0.3, y: photo.height * 0.1, w: photo.width * 0.3, h: photo.height * 0.3 };
  t = performance.now();
  const rendered = await renderForUpload(photo, [area]);
  const renderMs = performance.now() - t;
  return {
    inputBytes: file.size,
    compressMs,
    compressedBytes: compressed.size,
    width: photo.width,
    height: photo.height,
    previewMs,
    detectMs,
    totalMs: end - start,
    faces: detection.areas.length,
    backend: `${detection.backend}, ${detection.model}`,
    renderMs,
    renderedBytes: rendered.size,
    longestTaskMs,
  };
}

/** The areas each pipeline finds in one photo (for comparing what they find on real photos of people). */
async function faces(url: string, pipeline: Exclude<Pipeline, 'after-inline'>): Promise<{ width: number; height: number; areas: Box[] }> {
  const bytes = await (await fetch(url)).blob();
  const file = new File([bytes], 'photo.jpg', { type: 'image/jpeg', lastModified: 0 });
  if (pipeline === 'after') {
    const photo = await makePreview(await compressPhoto(file));
    return { width: photo.width, height: photo.height, areas: (await detectAreas(photo)).areas };
  }
  const photo = await before.makePreview(await before.compressPhoto(file));
  const model = pipeline === 'before-ssd' ? 'ssd' : 'tiny';
  return { width: photo.width, height: photo.height, areas: (await before.detectAreas(photo, model)).areas };
}

declare global {
  interface Window {
    benchRun: typeof run;
    benchFaces: typeof faces;
  }
}
window.benchRun = run;
window.benchFaces = faces;
document.title = 'ready';
