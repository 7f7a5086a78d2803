/**
 * Face detection on the device, so faces can be pixelated before a photo leaves it. Runs inside the photo worker
 * (photo-worker.ts), never on the page's main thread: a search took about a second of computation there, and the page
 * froze for as long (bench/client-compression.ts measures the longest task).
 *
 * @vladmandic/face-api's build without TensorFlow.js inside, on the TensorFlow.js packages we pin (4.22.0, also the
 * server's). Backends, fastest first: WASM (SIMD where the browser has it: about 0.1 s per photo on this machine's
 * CPU, against 1–2 s on WebGL without a GPU — docs/benchmarks.md), else WebGL (an OffscreenCanvas in a worker), else
 * the CPU backend. WASM needs 'wasm-unsafe-eval' in our Content-Security-Policy (decision 0023).
 *
 * Every file — the code, the tiny face detector's weights (190 KB), the .wasm binaries — is fetched from our own
 * origin under a hashed name (Vite's `?url`), never from a CDN, and the service worker keeps them once fetched
 * (sw/runtime-cache.ts, isFaceModelRequest), so the search works offline too.
 *
 * Network: the tiny face detector at an input of 512. SSD MobileNet v1 finds a few more small faces, but took 2.8 s
 * per photo on software WebGL against 1.1 s, and 5.6 MB of weights to keep for offline use.
 */
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import * as faceapi from '@vladmandic/face-api/dist/face-api.esm-nobundle.js';
import tinyManifest from '@vladmandic/face-api/model/tiny_face_detector_model-weights_manifest.json';
import tinyWeightsUrl from '@vladmandic/face-api/model/tiny_face_detector_model.bin?url';
import type { Box } from './box-geometry.ts';

/**
 * A low bar on purpose: a missed face is sent sharp, a false alarm only costs the user a tap on "remove".
 */
export const MIN_CONFIDENCE = 0.3;
/** 512 rather than the default 416: more small faces found, for about 1.5× the time. */
export const INPUT_SIZE = 512;

/** The backend calls of the bundled TensorFlow.js, present at run time but left out of face-api's typings. */
interface TfBackends {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  getBackend(): string | undefined;
}

type WeightsManifest = { weights: Parameters<typeof faceapi.tf.io.decodeWeights>[1]; paths: string[] }[];

export interface FaceDetector {
  /** Faces in the picture, in its pixels. */
  detect(picture: ImageBitmap): Promise<Box[]>;
  backend: string;
  model: 'tiny';
}

/** 'auto': WASM, else WebGL, else CPU; the others force one (for measurements). */
export type FaceBackend = 'auto' | 'cpu' | 'webgl' | 'wasm';

/**
 * face-api looks for HTMLImageElement and friends to tell inputs apart, and a worker has none: it is told what a
 * worker has instead. Only tensors reach it here, so these are never used to draw.
 */
function workerEnvironment(): void {
  if (typeof document !== 'undefined') return;
  class Never {}
  faceapi.env.setEnv({
    Canvas: OffscreenCanvas,
    CanvasRenderingContext2D: OffscreenCanvasRenderingContext2D,
    Image: Never,
    ImageData,
    Video: Never,
    createCanvasElement: () => new OffscreenCanvas(1, 1),
    createImageElement: () => {
      throw new Error('no images in a worker');
    },
    createVideoElement: () => {
      throw new Error('no videos in a worker');
    },
    fetch: (input: RequestInfo, init?: RequestInit) => fetch(input, init),
    readFile: () => {
      throw new Error('no file system in a worker');
    },
  } as unknown as Parameters<typeof faceapi.env.setEnv>[0]);
}

async function load(backendChoice: FaceBackend): Promise<FaceDetector> {
  workerEnvironment();
  const tf = faceapi.tf;
  const backends = tf as unknown as TfBackends;
  // Our copies, not the CDN TensorFlow.js would otherwise fetch them from. The threaded build is never chosen: it
  // needs SharedArrayBuffer, which only a cross-origin isolated page has.
  setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmUrl,
    'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
    'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl,
  });
  const order = backendChoice === 'auto' ? ['wasm', 'webgl', 'cpu'] : [backendChoice];
  let chosen = false;
  for (const name of order) {
    try {
      if (await backends.setBackend(name)) {
        chosen = true;
        break;
      }
    } catch {
      // Next one.
    }
  }
  if (!chosen) await backends.setBackend('cpu');
  await backends.ready();
  const backend = backends.getBackend() ?? 'cpu';
  if (!faceapi.nets.tinyFaceDetector.isLoaded) {
    const res = await fetch(tinyWeightsUrl, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`face model: HTTP ${res.status}`);
    const weights = tf.io.decodeWeights(
      await res.arrayBuffer(),
      (tinyManifest as unknown as WeightsManifest).flatMap((group) => group.weights),
    );
    faceapi.nets.tinyFaceDetector.loadFromWeightMap(weights);
  }
  const options = new faceapi.TinyFaceDetectorOptions({ scoreThreshold: MIN_CONFIDENCE, inputSize: INPUT_SIZE });
  return {
    backend,
    model: 'tiny',
    async detect(picture) {
      const pixels = tf.browser.fromPixels(picture);
      try {
        const found = await faceapi.detectAllFaces(pixels, options);
        return found.map(({ box }) => ({ x: box.x, y: box.y, w: box.width, h: box.height }));
      } finally {
        pixels.dispose();
      }
    },
  };
}

const loading = new Map<FaceBackend, Promise<FaceDetector>>();

/**
 * The detector, loaded once per worker; a failed load (offline before the model was ever fetched) is retried on the
 * next call. TensorFlow.js has one backend per worker: mixing choices is for nothing but experiments.
 */
export function getFaceDetector(backend: FaceBackend = 'auto'): Promise<FaceDetector> {
  let pending = loading.get(backend);
  if (!pending) {
    pending = load(backend).catch((err: unknown) => {
      loading.delete(backend);
      throw err;
    });
    loading.set(backend, pending);
  }
  return pending;
}
