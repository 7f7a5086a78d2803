/**
 * The default moderation provider: nsfwjs MobileNetV2Mid on TensorFlow.js's WASM backend, in one worker thread
 * (nsfw-worker.ts), started on the first check (or by warmUp) and ended once no check has come for `idleMs`
 * (MODERATION_IDLE_MS): the loaded model is ≈150 MB of the process's memory (docs/benchmarks.md, "Server memory"),
 * and most of the time nobody is uploading a photo. The next check starts a fresh worker and waits for the model to
 * load again (≈1–2 s). If the worker dies or a check times out, the pending checks fail (their photos are refused as
 * `moderation_failed`) and the next check starts a fresh worker.
 *
 * nsfwjs's five classes become the three scores of SPEC §5 (docs/decisions/0005-local-moderation-class-mapping.md):
 *   sexual_activity = Porn, sexual_display = Hentai, erotica = Sexy   (Neutral and Drawing are the safe rest).
 * The model and its thresholds were chosen on a labelled set of clothed photos (decision 0017, bench/moderation-set.ts):
 * MobileNetV2 with SPEC §5's numbers refused most of them.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import {
  ModerationFailure,
  type ModerationImage,
  type ModerationProvider,
  type ModerationResult,
  type ModerationScores,
} from './moderation.ts';
import type { WorkerMessage, WorkerRequest } from './nsfw-worker.ts';

/** nsfwjs's input size (MobileNetV2Mid, like MobileNetV2). */
const SIZE = 224;

/**
 * The local model's thresholds (decision 0017): nsfwjs's probabilities are not Sightengine's intensities, and with
 * SPEC §5's 0.1 / 0.1 / 0.4 this model refused ordinary photos of clothed women. Above these, no clothed photo of the
 * measured set was refused; explicit photos, which nsfwjs puts at Porn/Hentai ≈ 0.9+, still are, and staff review
 * every photo that passes.
 */
export const LOCAL_THRESHOLDS: Readonly<ModerationScores> = Object.freeze({
  sexual_activity: 0.8,
  sexual_display: 0.6,
  erotica: 0.8,
});
/** The first check also waits for the model to load (≈0.5–2 s): it gets this long on top of the usual deadline. */
const LOAD_TIMEOUT_MS = 60_000;

export type NsfwClasses = Partial<Record<'Drawing' | 'Hentai' | 'Neutral' | 'Porn' | 'Sexy', number>>;

/** The documented mapping (ADR 0005). Missing classes count as 0. */
export function scoresFromNsfwClasses(c: NsfwClasses): ModerationScores {
  return { sexual_activity: c.Porn ?? 0, sexual_display: c.Hentai ?? 0, erotica: c.Sexy ?? 0 };
}

interface Pending {
  resolve(classes: Record<string, number>): void;
  reject(err: Error): void;
}

/** Set by the server's build (vite/build-server.ts) to the bundle's URL; undefined when the sources run as TypeScript. */
declare const __bundleUrl: string | undefined;

/**
 * Spawns the worker. Built (`npm start`, the image: vite/build-server.ts), it is plain JavaScript beside the server's
 * bundle. From the sources (vitest, `npm run dev`, the e2e server under tsx), the worker's first act is to register
 * tsx's loader in its own thread, then it imports nsfw-worker.ts.
 */
function spawnWorker(): Worker {
  if (typeof __bundleUrl === 'string') return new Worker(new URL('./nsfw-worker.js', __bundleUrl), { name: 'nsfw-moderation' });
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
  const entry = new URL('./nsfw-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, name: 'nsfw-moderation' });
}

export interface LocalNsfwOptions {
  /**
   * How long the worker may stay without a check before it is ended (its memory returned); 0 keeps it for the life of
   * the process. Default: 5 minutes.
   */
  idleMs?: number;
}

export const DEFAULT_IDLE_MS = 300_000;

export interface LocalNsfwProvider extends ModerationProvider {
  /** How long the last worker took to load the model, ms. */
  readonly loadMs: number | undefined;
  /** Whether a worker is running (or starting) now. */
  readonly running: boolean;
  /** How many workers have been started so far. */
  readonly starts: number;
}

export function createLocalNsfwProvider(options: LocalNsfwOptions = {}): LocalNsfwProvider {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let worker: Worker | undefined;
  let ready: Promise<void> | undefined;
  let nextId = 1;
  let loadMs: number | undefined;
  let starts = 0;
  const pending = new Map<number, Pending>();
  /** Checks and warm-ups under way, from their first step (the resize) to their answer: none → the quiet period runs. */
  let active = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  function busy() {
    active++;
    clearTimeout(idleTimer);
    idleTimer = undefined;
  }

  function done() {
    active--;
    if (active > 0 || idleMs === 0 || !worker) return;
    clearTimeout(idleTimer);
    // Unref'd: a quiet period never keeps the process alive by itself.
    idleTimer = setTimeout(release, idleMs).unref();
  }

  /**
   * The quiet period is over: end the worker. Nothing is pending (every check is counted in `active`), so nobody's
   * check fails; the next one finds no worker and starts a new one. The ended worker's exit is not this provider's
   * concern any more (`worker` no longer names it).
   */
  function release() {
    idleTimer = undefined;
    if (active > 0 || pending.size) return;
    const w = worker;
    worker = undefined;
    ready = undefined;
    if (w) void w.terminate();
  }

  function failAll(err: Error) {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  }

  function stop(reason: Error) {
    const w = worker;
    worker = undefined;
    ready = undefined;
    failAll(reason);
    if (w) void w.terminate();
  }

  function start(): Promise<void> {
    if (ready) return ready;
    const w = spawnWorker();
    worker = w;
    starts++;
    ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new ModerationFailure('the local model did not load in time'));
        stop(new ModerationFailure('the local model did not load in time'));
      }, LOAD_TIMEOUT_MS);
      w.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          loadMs = m.loadMs;
          resolve();
        } else if (m.type === 'fatal') {
          clearTimeout(timer);
          reject(new ModerationFailure(`the local model failed to load: ${m.error}`));
          stop(new ModerationFailure(m.error));
        } else {
          const p = pending.get(m.id);
          if (!p) return;
          pending.delete(m.id);
          if (m.type === 'result') p.resolve(m.classes);
          else p.reject(new ModerationFailure(`the local model failed: ${m.error}`));
          if (!pending.size) w.unref();
        }
      });
      w.on('error', (err) => {
        clearTimeout(timer);
        reject(new ModerationFailure(`the moderation worker crashed: ${err.message}`, err));
        if (worker === w) stop(new ModerationFailure(`the moderation worker crashed: ${err.message}`, err));
      });
      w.on('exit', (code) => {
        clearTimeout(timer);
        reject(new ModerationFailure(`the moderation worker exited (${code})`));
        if (worker === w) stop(new ModerationFailure(`the moderation worker exited (${code})`));
      });
    });
    // A failed start is reported to whoever awaited it; nobody else should see an unhandled rejection.
    ready.catch(() => {});
    return ready;
  }

  async function classify(image: ModerationImage, signal: AbortSignal): Promise<Record<string, number>> {
    // nsfwjs squashes its input to 224×224 whatever the aspect ratio; doing it here (sharp, off the event loop)
    // means the worker receives 150 KB of pixels instead of decoding a JPEG itself.
    const rgb = await sharp(image.jpeg).resize(SIZE, SIZE, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer();
    signal.throwIfAborted();
    await start();
    signal.throwIfAborted();
    const w = worker;
    if (!w) throw new ModerationFailure('the moderation worker is not running');
    const id = nextId++;
    return new Promise<Record<string, number>>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      signal.addEventListener(
        'abort',
        () => {
          if (!pending.has(id)) return;
          // A check that overran its deadline may have wedged the worker: start afresh next time.
          stop(new ModerationFailure('the local model did not answer in time'));
        },
        { once: true },
      );
      w.ref();
      // A copy of exactly these bytes, handed over without a second copy.
      const data = new Uint8Array(rgb);
      w.postMessage({ id, rgb: data, size: SIZE } satisfies WorkerRequest, [data.buffer]);
    });
  }

  return {
    name: 'local',
    thresholds: LOCAL_THRESHOLDS,
    get loadMs() {
      return loadMs;
    },
    get running() {
      return worker !== undefined;
    },
    get starts() {
      return starts;
    },
    async warmUp() {
      busy();
      try {
        await start();
      } finally {
        done();
      }
    },
    async check(image: ModerationImage, signal: AbortSignal): Promise<ModerationResult> {
      busy();
      try {
        const classes = await classify(image, signal);
        return { scores: scoresFromNsfwClasses(classes), details: { classes } };
      } finally {
        done();
      }
    },
    async close() {
      clearTimeout(idleTimer);
      idleTimer = undefined;
      const w = worker;
      worker = undefined;
      ready = undefined;
      failAll(new ModerationFailure('the server is shutting down'));
      if (w) await w.terminate();
    },
  };
}
