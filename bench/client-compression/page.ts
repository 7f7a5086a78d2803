/**
 * The page bench/client-compression.ts opens (through a Vite dev server): runs the uploader's real pipeline
 * (src/components/photo-uploader/prepare-photo.ts) on a photo the script supplies, and reports the time of each step.
 */
import type { FaceBackend, FaceModel } from '../../src/components/photo-uploader/face-detector.ts';
import { compressPhoto, detectAreas, makePreview, renderForUpload } from '../../src/components/photo-uploader/prepare-photo.ts';

export interface StepTimes {
  inputBytes: number;
  compressMs: number;
  compressedBytes: number;
  width: number;
  height: number;
  previewMs: number;
  detectMs: number;
  faces: number;
  backend: string;
  renderMs: number;
  renderedBytes: number;
}

async function run(url: string, model: FaceModel, backend: FaceBackend): Promise<StepTimes> {
  const bytes = await (await fetch(url)).blob();
  const file = new File([bytes], 'photo.jpg', { type: 'image/jpeg', lastModified: 0 });
  let t = performance.now();
  const compressed = await compressPhoto(file);
  const compressMs = performance.now() - t;
  t = performance.now();
  const photo = await makePreview(compressed);
  const previewMs = performance.now() - t;
  t = performance.now();
  const detection = await detectAreas(photo, model, backend);
  const detectMs = performance.now() - t;
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
    faces: detection.areas.length,
    backend: `${detection.backend}, ${detection.model}`,
    renderMs,
    renderedBytes: rendered.size,
  };
}

declare global {
  interface Window {
    benchRun: typeof run;
  }
}
window.benchRun = run;
document.title = 'ready';
