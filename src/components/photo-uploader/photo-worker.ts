/**
 * The photo worker: decodes a compressed photo, answers the editor's preview (an ImageBitmap, transferred, not
 * copied) and then searches it for faces, all off the page's main thread so the page keeps answering taps while a
 * photo is prepared. One worker per page, started by prepare-photo.ts; photos are prepared one at a time.
 *
 * The face detector (TensorFlow.js, 1.3 MB) is imported on first need, so a photo's preview never waits for it to
 * be parsed; the page asks for it ahead ('warm') when the uploader opens.
 */
import type { Box } from './box-geometry.ts';
import type { FaceBackend, FaceDetector } from './face-detector.ts';
import { facesToAreas, previewSize, type PhotoWorkerAnswer, type PhotoWorkerRequest } from './photo-worker-protocol.ts';

/** The parts of a dedicated worker's global scope used here (the project's TypeScript lib is the DOM's). */
const scope = self as unknown as {
  postMessage(message: PhotoWorkerAnswer, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<PhotoWorkerRequest>) => void) | null;
};

function detector(backend: FaceBackend = 'auto'): Promise<FaceDetector> {
  return import('./face-detector.ts').then((m) => m.getFaceDetector(backend));
}

async function prepare(request: Extract<PhotoWorkerRequest, { type: 'prepare' }>): Promise<void> {
  const { id } = request;
  let full: ImageBitmap;
  try {
    full = await createImageBitmap(request.blob);
  } catch (err) {
    scope.postMessage({ type: 'error', id, decode: true, message: String(err) });
    return;
  }
  const photo = { width: full.width, height: full.height };
  const size = previewSize(photo);
  let forDetection: ImageBitmap | undefined;
  try {
    const preview = await createImageBitmap(full, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
    // The preview goes to the page (transferred: it is gone from here), the detector reads its own copy.
    if (request.detect) forDetection = await createImageBitmap(preview);
    scope.postMessage({ type: 'prepared', id, ...photo, preview }, [preview]);
  } catch (err) {
    forDetection?.close();
    scope.postMessage({ type: 'error', id, decode: false, message: String(err) });
    return;
  } finally {
    full.close();
  }
  if (!forDetection) return;
  try {
    const found = await detector(request.backend);
    const faces: Box[] = await found.detect(forDetection);
    scope.postMessage({ type: 'faces', id, areas: facesToAreas(faces, size.scale, photo), backend: found.backend, model: found.model });
  } catch (err) {
    scope.postMessage({ type: 'error', id, decode: false, message: String(err) });
  } finally {
    forDetection.close();
  }
}

// One request at a time, in order: two 12 MP photos decoded at once would take twice the memory.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'prepare') {
    queue = queue.then(() => prepare(request));
    return;
  }
  // Not queued: a photo picked meanwhile is decoded while the model loads, and its search waits for the same load.
  detector().then(
    (found) => scope.postMessage({ type: 'warmed', id: request.id, backend: found.backend }),
    (err: unknown) => scope.postMessage({ type: 'error', id: request.id, decode: false, message: String(err) }),
  );
};
