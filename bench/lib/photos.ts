/**
 * Server time per 12-megapixel photo: the image pipeline (header check, one decode, three WebP variants, screening
 * copy), screening with the local model (nsfwjs MobileNetV2Mid, WASM, worker thread), and a whole
 * POST /api/upload/images through the real app (pipeline + screening + storage + database) on PGlite.
 * `npm run bench -- --only photos` runs this part alone and rewrites only its section of docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { IMAGE_VARIANT_WIDTHS, type UploadAnswer } from '../../contract/media.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { seedReferenceData } from '../../server/db/seed/reference.ts';
import { processImage } from '../../server/modules/media/image-pipeline.ts';
import { loginAs, uploadBody } from '../../server/modules/media/test-helpers.ts';
import { createLocalNsfwProvider } from '../../server/modules/moderation/local-nsfw.ts';
import { screen } from '../../server/modules/moderation/moderation.ts';
import { createDiskStorage } from '../../server/plugins/storage.ts';
import { buildModel } from '../../tests/factories.ts';
import { summarize, type Summary } from './stats.ts';

export const PHOTO_START = '<!-- server-photos:start -->';
export const PHOTO_END = '<!-- server-photos:end -->';

export interface PhotoReport {
  date: string;
  runs: number;
  input: { width: number; height: number; bytes: number };
  variants: { width: number; height: number; bytes: number }[];
  /** Pipeline steps, ms. */
  header: Summary;
  pipeline: Summary;
  /** Screening with the local model, warm (model already loaded), ms. */
  moderation: Summary;
  /** First check of a fresh worker: model load + first inference, ms. */
  moderationCold: number;
  modelLoadMs: number | undefined;
  /** Whole upload of one photo through the app (PGlite), ms. */
  upload: Summary;
  /** Peak RSS growth of this process during the pipeline runs, MB. */
  rssPeakMB: number;
  /** 1-minute load average when the photo bench started (the machine may be shared). */
  loadAverage: number;
}

/** A camera-like 4000 × 3000 photo: smooth gradients, edges and sensor noise (JPEG quality 90). */
export async function cameraLikeJpeg(width = 4000, height = 3000): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let s = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
      const noise = (s >> 16) & 15;
      const i = (y * width + x) * 3;
      const band = ((x >> 7) + (y >> 7)) & 1 ? 40 : 0;
      raw[i] = Math.min(255, ((x * 200) / width + band + noise) | 0);
      raw[i + 1] = Math.min(255, ((y * 180) / height + noise) | 0);
      raw[i + 2] = Math.min(255, (((x + y) * 120) / (width + height) + 60 + band / 2 + noise) | 0);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const out = await fn();
  return [performance.now() - t, out];
}

export async function benchPhotos(runs: number, log: (msg: string) => void): Promise<PhotoReport> {
  const loadAverage = os.loadavg()[0] ?? 0;
  const photo = await cameraLikeJpeg();
  const opts = { maxBytes: 15 * 1024 * 1024, maxPixels: 40_000_000, widths: IMAGE_VARIANT_WIDTHS };
  log(`photos: ${(photo.length / 1e6).toFixed(2)} MB 4000×3000 JPEG, ${runs} runs per step`);

  // Warm-up: libvips' first run loads codecs.
  const first = await processImage(photo, opts);
  if (!first.ok) throw new Error(`the bench photo was refused: ${first.reason}`);
  const header: number[] = [];
  const pipeline: number[] = [];
  const rss0 = process.memoryUsage().rss;
  let rssPeak = rss0;
  for (let i = 0; i < runs; i++) {
    header.push((await time(() => sharp(photo).metadata()))[0]);
    pipeline.push((await time(() => processImage(photo, opts)))[0]);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }
  log(`photos: pipeline p50 ${summarize(pipeline).p50.toFixed(0)} ms`);

  const provider = createLocalNsfwProvider();
  const moderation: number[] = [];
  let moderationCold: number;
  try {
    [moderationCold] = await time(() => screen(provider, first.image.moderationCopy, 120_000));
    for (let i = 0; i < runs; i++) {
      const [ms, outcome] = await time(() => screen(provider, first.image.moderationCopy, 60_000));
      if (outcome.verdict === 'failed') throw new Error(`screening failed: ${outcome.error}`);
      moderation.push(ms);
    }
  } finally {
    await provider.close();
  }
  log(`photos: screening p50 ${summarize(moderation).p50.toFixed(0)} ms (cold ${moderationCold.toFixed(0)} ms)`);

  const upload = await benchUpload(photo, runs, log);
  return {
    date: new Date().toISOString(),
    runs,
    input: { width: 4000, height: 3000, bytes: photo.length },
    variants: first.image.variants.map((v) => ({ width: v.width, height: v.height, bytes: v.data.length })),
    header: summarize(header),
    pipeline: summarize(pipeline),
    moderation: summarize(moderation),
    moderationCold,
    modelLoadMs: provider.loadMs,
    upload: summarize(upload),
    rssPeakMB: (rssPeak - rss0) / 2 ** 20,
    loadAverage,
  };
}

/** POST /api/upload/images with one photo, through the real app with the local model, on PGlite in a temp folder. */
async function benchUpload(photo: Buffer, runs: number, log: (msg: string) => void): Promise<number[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-photos-'));
  const database = await openDatabase({ databaseUrl: undefined, dataDir });
  try {
    await database.migrate();
    await seedReferenceData(database.db);
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      APP_KEY: 'b'.repeat(32),
      SEED_DEMO: 'false',
    });
    const app = await buildApp(config, database, createDiskStorage(dataDir));
    try {
      await app.ready();
      await app.moderation.provider.warmUp?.();
      const model = await buildModel(database.db, { name: 'Bench' });
      const agent = await loginAs(app, database.db, model.userId);
      const times: number[] = [];
      for (let i = 0; i <= runs; i++) {
        const body = uploadBody(model.adId, [{ filename: 'camera.jpg', data: photo }]);
        const [ms, res] = await time(() => agent.post('/api/upload/images', body.payload, body.headers));
        if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
        const media = res.json<UploadAnswer>().data.media[0]!;
        // Keep the ad under its photo limit; the delete is not timed.
        await agent.post('/api/media/delete', { media_id: media.media_id });
        if (i > 0) times.push(ms); // the first is a warm-up
      }
      log(`photos: upload p50 ${summarize(times).p50.toFixed(0)} ms`);
      return times;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const f0 = (v: number) => v.toFixed(0);
const row = (label: string, s: Summary) => `| ${label} | ${f0(s.p50)} | ${f0(s.p95)} | ${f0(s.max)} |`;

export function renderPhotoSection(r: PhotoReport | undefined, skipped = 'Skipped (BENCH_SKIP_PHOTOS).'): string {
  const body = r
    ? [
        `Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC by \`npm run bench -- --only photos\` (bench/lib/photos.ts), ${r.runs} runs per step after`,
        `a warm-up. Input: a generated camera-like ${r.input.width} × ${r.input.height} JPEG (12 MP, ${(r.input.bytes / 1e6).toFixed(2)} MB, quality 90).`,
        `Output: ${r.variants.map((v) => `${v.width} × ${v.height} (${(v.bytes / 1000).toFixed(0)} KB)`).join(', ')} WebP.`,
        '',
        '| Step, one photo | p50 ms | p95 ms | max ms |',
        '| --- | ---: | ---: | ---: |',
        row('Header read (type, size, pixel limit: no decode)', r.header),
        row('Pipeline: decode (shrink-on-load) + upright + 3 WebP variants + screening copy', r.pipeline),
        row('Screening with the local model (warm: model loaded, worker thread)', r.moderation),
        row('Whole `POST /api/upload/images` with 1 photo (pipeline + screening + storage + PGlite)', r.upload),
        '',
        `First check of a fresh worker (model load + first inference): ${f0(r.moderationCold)} ms` +
          (r.modelLoadMs !== undefined ? ` (load alone ${f0(r.modelLoadMs)} ms)` : '') +
          `. Peak RSS growth of the process during the pipeline runs: ${r.rssPeakMB.toFixed(0)} MB.`,
        `Load average when the photo bench started: ${r.loadAverage.toFixed(1)} (on \`nproc\` = ${os.availableParallelism()};`,
        'above that, other work shared the cores and the times are higher than on an idle machine).',
        'The pipeline runs on libuv threads (sharp), screening in its worker thread: neither blocks the event loop,',
        "but on a 2-core machine one photo's work occupies most of both cores while it runs. WebP is encoded at sharp's",
        'default effort 4; effort 2 would take the three encodes from ≈220 to ≈100 ms for files ≈6 % larger.',
      ].join('\n')
    : skipped;
  return `${PHOTO_START}\n## Photo upload (server)\n\n${body}\n${PHOTO_END}`;
}

/** Puts the photo section into an existing docs/benchmarks.md: in place of the old one, or before the caveats. */
export function spliceSection(markdown: string, section: string): string {
  const start = markdown.indexOf(PHOTO_START);
  const end = markdown.indexOf(PHOTO_END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + section + markdown.slice(end + PHOTO_END.length);
  const at = markdown.indexOf('## Method and caveats');
  if (at >= 0) return `${markdown.slice(0, at)}${section}\n\n${markdown.slice(at)}`;
  return `${markdown.trimEnd()}\n\n${section}\n`;
}
