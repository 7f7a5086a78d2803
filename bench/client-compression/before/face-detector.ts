/**
 * Face detection in the browser, so faces can be pixelated before a photo leaves the device. Loaded only when the
 * uploader prepares a photo (dynamic import): @vladmandic/face-api bundles TensorFlow.js (about 1.3 MB) and the
 * SSD MobileNet v1 weights are 5.6 MB, none of which belongs in the home route.
 *
 * The weights are imported with Vite's `?url`, so they are emitted with the build and fetched from our own origin
 * under immutable hashed names — never from a CDN. Their manifests are bundled as JSON and decoded here, because
 * face-api's `loadFromUri` expects the manifest and the weights side by side under their original names.
 *
 * Backends: WebGL where the device has it, else the CPU backend. The WASM backend is never selected: it would need
 * `wasm-unsafe-eval` in our Content-Security-Policy and its binaries served separately.
 */
import type * as FaceApi from '@vladmandic/face-api';
import ssdManifest from '@vladmandic/face-api/model/ssd_mobilenetv1_model-weights_manifest.json';
import ssdWeightsUrl from '@vladmandic/face-api/model/ssd_mobilenetv1_model.bin?url';
import tinyManifest from '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json';
import tinyWeightsUrl from '@vladmandic/face-api/model/tiny_face_detector_model.bin?url';
import type { Box } from '../../../src/components/photo-uploader/box-geometry.ts';

/**
 * A low bar on purpose: a missed face is sent sharp, a false alarm only costs the user a tap on "remove".
 */
export const MIN_CONFIDENCE = 0.3;
const MAX_FACES = 50;

/**
 * Which network: SSD MobileNet v1 (5.6 MB) finds more small, distant and turned faces than the tiny detector
 * (190 KB), so it is the choice wherever WebGL runs it. On the CPU backend it takes seconds per photo even on a
 * desktop (bench/client-compression.ts: 6–11 s for a photo on this 2-core machine, 35 s at 4× CPU throttling), so there the tiny detector runs.
 */
export type FaceModel = 'auto' | 'ssd' | 'tiny';

/** The backend calls of the bundled TensorFlow.js, present at run time but left out of face-api's typings. */
interface TfBackends {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  getBackend(): string | undefined;
}

type WeightsManifest = { weights: Parameters<typeof FaceApi.tf.io.decodeWeights>[1]; paths: string[] }[];

export interface FaceDetector {
  /** Faces in the canvas, in its pixels. */
  detect(canvas: HTMLCanvasElement): Promise<Box[]>;
  backend: string;
  model: 'ssd' | 'tiny';
}

/** 'auto': WebGL where it works, else CPU. 'cpu' forces the CPU backend (bench/client-compression.ts measures both). */
export type FaceBackend = 'auto' | 'cpu';

const loading = new Map<string, Promise<FaceDetector>>();

async function load(choice: FaceModel, backendChoice: FaceBackend): Promise<FaceDetector> {
  const faceapi = await import('@vladmandic/face-api');
  const tf = faceapi.tf;
  const backends = tf as unknown as TfBackends;
  try {
    if (backendChoice === 'cpu' || !(await backends.setBackend('webgl'))) await backends.setBackend('cpu');
  } catch {
    await backends.setBackend('cpu');
  }
  await backends.ready();
  const backend = backends.getBackend() ?? 'cpu';
  const weights = async (url: string, manifest: unknown) => {
    const res = await fetch(url, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`face model: HTTP ${res.status}`);
    return tf.io.decodeWeights(
      await res.arrayBuffer(),
      (manifest as WeightsManifest).flatMap((group) => group.weights),
    );
  };
  const model = choice === 'auto' ? (backend === 'webgl' ? 'ssd' : 'tiny') : choice;
  let options: FaceApi.SsdMobilenetv1Options | FaceApi.TinyFaceDetectorOptions;
  if (model === 'ssd') {
    if (!faceapi.nets.ssdMobilenetv1.isLoaded) faceapi.nets.ssdMobilenetv1.loadFromWeightMap(await weights(ssdWeightsUrl, ssdManifest));
    options = new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE, maxResults: MAX_FACES });
  } else {
    if (!faceapi.nets.tinyFaceDetector.isLoaded)
      faceapi.nets.tinyFaceDetector.loadFromWeightMap(await weights(tinyWeightsUrl, tinyManifest));
    // 512 rather than the default 416: more small faces found, for about 1.5× the time.
    options = new faceapi.TinyFaceDetectorOptions({ scoreThreshold: MIN_CONFIDENCE, inputSize: 512 });
  }
  return {
    backend,
    model,
    async detect(canvas) {
      const found = await faceapi.detectAllFaces(canvas, options);
      return found.map(({ box }) => ({ x: box.x, y: box.y, w: box.width, h: box.height }));
    },
  };
}

/**
 * The detector, loaded once per page; a failed load is retried on the next call. TensorFlow.js has one backend per
 * page: mixing backend choices in one page is for nothing but experiments.
 */
export function getFaceDetector(model: FaceModel = 'auto', backend: FaceBackend = 'auto'): Promise<FaceDetector> {
  const key = `${model}/${backend}`;
  let pending = loading.get(key);
  if (!pending) {
    pending = load(model, backend).catch((err: unknown) => {
      loading.delete(key);
      throw err;
    });
    loading.set(key, pending);
  }
  return pending;
}
