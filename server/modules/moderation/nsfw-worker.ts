/**
 * Worker thread of the local moderation provider: nsfwjs (MobileNetV2Mid, 224×224) on TensorFlow.js's WASM backend.
 * The model ships inside the nsfwjs package as JS modules (dist/models/mobilenet_v2_mid; decision 0017); nothing is downloaded. It is
 * loaded once when the worker starts; each message is one 224×224 RGB image, answered with the five class
 * probabilities. Inference runs here so the server's event loop never waits on it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';

export type WorkerRequest = { id: number; rgb: Uint8Array; size: number };
export type WorkerMessage =
  | { type: 'ready'; backend: string; loadMs: number }
  | { type: 'fatal'; error: string }
  | { type: 'result'; id: number; classes: Record<string, number> }
  | { type: 'error'; id: number; error: string };

const port = parentPort;
if (!port) throw new Error('nsfw-worker.ts runs only as a worker thread');

// TensorFlow.js greets Node users (suggesting tfjs-node) and nsfwjs names the model it uses on every load: noise in
// the server's log.
const NOISE = /tfjs-node|Hi there|NSFWJS docs|You're using the model/;
for (const level of ['log', 'info', 'warn'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    if (!NOISE.test(args.map(String).join(' '))) original(...args);
  };
}

const send = (m: WorkerMessage) => port.postMessage(m);

async function main() {
  const started = performance.now();
  const tf = await import('@tensorflow/tfjs');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  const require = createRequire(import.meta.url);
  // The .wasm binaries sit beside the package's JS; in Node the backend reads them from disk through this prefix.
  setWasmPaths(`${path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}${path.sep}`);
  // One thread: the machine's cores belong to the requests, sharp and the database as much as to this model.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.enableProdMode();
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend did not start');
  await tf.ready();
  const nsfwjs = await import('nsfwjs');
  const model = await nsfwjs.load('MobileNetV2Mid');
  send({ type: 'ready', backend: tf.getBackend(), loadMs: Math.round(performance.now() - started) });

  port!.on('message', (req: WorkerRequest) => {
    void (async () => {
      const input = tf.tensor3d(req.rgb, [req.size, req.size, 3], 'int32');
      try {
        const predictions = await model.classify(input, 5);
        const classes: Record<string, number> = {};
        for (const p of predictions) classes[p.className] = p.probability;
        send({ type: 'result', id: req.id, classes });
      } catch (err) {
        send({ type: 'error', id: req.id, error: err instanceof Error ? err.message : String(err) });
      } finally {
        input.dispose();
      }
    })();
  });
}

main().catch((err: unknown) => send({ type: 'fatal', error: err instanceof Error ? err.message : String(err) }));
