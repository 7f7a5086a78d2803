/**
 * `npx tsx bench/client-compression.ts`: how long the photo uploader's on-device work takes for a 12-megapixel
 * photo in Chromium — compression (browser-image-compression in its web worker), preview and face search (in the
 * photo worker since issue 27) and the final pixelated JPEG — before and after issue 27 in the same run, unthrottled
 * and with Chromium's CPU throttling (4×, roughly a mid-range phone), with the page's longest main-thread task while a
 * photo is prepared. Runs the code in a page served by a Vite dev server on 127.0.0.1 (bench/client-compression/),
 * compares the faces each pipeline finds in real photos of people, and checks that nothing is fetched from another
 * origin (the workers' scripts, the .wasm and the face model come from ours).
 *
 * Writes its own section of docs/benchmarks.md, between the client-compression markers, leaving the rest alone.
 * Environment: BENCH_RUNS (5), BENCH_PORT (5391), CHROME_PATH (/usr/bin/chromium), BENCH_OUT (docs/benchmarks.md),
 * BENCH_ONLY (one pipeline, while developing). Never part of `npm test`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as prettier from 'prettier';
import sharp from 'sharp';
import { createServer } from 'vite';
import type { Box } from '../src/components/photo-uploader/box-geometry.ts';
import type { Pipeline, StepTimes } from './client-compression/page.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
const RUNS = int(process.env.BENCH_RUNS, 5);
const PORT = int(process.env.BENCH_PORT, 5391);
const OUT = path.resolve(ROOT, process.env.BENCH_OUT ?? 'docs/benchmarks.md');
const START = '<!-- client-compression:start -->';
const END = '<!-- client-compression:end -->';
const log = (msg: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

/**
 * A 4000 × 3000 JPEG that compresses like a camera photo: smooth shapes (a low-resolution random field scaled up)
 * plus fine sensor-like noise, at quality 92. Pure noise would be a worst case no camera produces; a flat image
 * would make the compressor's job trivial.
 */
async function twelveMegapixelPhoto(): Promise<Buffer> {
  const [w, h] = [4000, 3000];
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;
  const coarse = Buffer.alloc(80 * 60 * 3, 0).map(() => rand());
  const base = await sharp(coarse, { raw: { width: 80, height: 60, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + (rand() / 255 - 0.5) * 24));
  return sharp(base, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/**
 * What is measured, in one run: the uploader as it was before issue 27 (everything but compression on the main
 * thread; it picked SSD MobileNet v1 wherever WebGL runs, and the tiny detector is the other choice it had) against
 * the uploader now (preview and tiny detector in the photo worker), unthrottled and at 4× CPU throttling.
 */
const CONFIGS = [
  { throttle: 1, pipeline: 'before-ssd' },
  { throttle: 1, pipeline: 'before-tiny' },
  { throttle: 1, pipeline: 'after' },
  { throttle: 4, pipeline: 'before-ssd' },
  { throttle: 4, pipeline: 'before-tiny' },
  { throttle: 4, pipeline: 'after' },
  { throttle: 4, pipeline: 'after-inline' },
] as const satisfies readonly { throttle: number; pipeline: Pipeline }[];
const ONLY = process.env.BENCH_ONLY; // e.g. "after": a quick look at one pipeline, while developing

const PIPELINE_NAMES: Record<Pipeline, string> = {
  'before-ssd': 'before: main thread, SSD MobileNet v1 (what it picked)',
  'before-tiny': 'before: main thread, tiny detector 512',
  after: 'after: photo worker, tiny detector 512',
  'after-inline': "after's steps all on the main thread (a phone's pace for the workers' work)",
};

/** Real photos of people: the demo pictures face-api ships (node_modules, not in the repository). */
const FACE_PHOTOS = [1, 2, 3, 4, 5, 6].map((n) => `node_modules/@vladmandic/face-api/demo/sample${n}.jpg`);

interface Series {
  label: string;
  throttle: number;
  pipeline: Pipeline;
  first: StepTimes;
  runs: StepTimes[];
}

const iou = (a: Box, b: Box) => {
  const w = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  return (w * h) / (a.w * a.h + b.w * b.h - w * h);
};
/** How many of `found` overlap one of `reference` by IoU ≥ 0.5. */
const matched = (found: Box[], reference: Box[]) => found.filter((f) => reference.some((r) => iou(f, r) >= 0.5)).length;

async function main() {
  const started = Date.now();
  log('generating a 12 MP photo');
  const photo = await twelveMegapixelPhoto();
  log(`photo: ${mb(photo.length)}`);
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

  const server = await createServer({
    configFile: path.join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: PORT, strictPort: true, hmr: false },
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const foreign: string[] = [];
  const workerScripts = new Set<string>();
  let workers = 0;
  const series: Series[] = [];
  const quality: { photo: string; found: Record<Pipeline, { width: number; height: number; areas: Box[] }> }[] = [];
  const chromiumVersion = browser.version();
  const openPage = async () => {
    const page = await browser.newPage();
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['blob:', 'data:'].includes(url.protocol)) foreign.push(req.url());
      // The UMD build is what the compression worker importScripts() (the page itself uses the ESM build).
      if (url.pathname.endsWith('/dist/browser-image-compression.js') || /\/photo-worker(?:\.ts|-[\w-]+\.js)$/.test(url.pathname))
        workerScripts.add(url.pathname);
    });
    page.on('worker', () => workers++);
    page.on('pageerror', (err) => log(`page error: ${err.message}`));
    await page.route('**/bench-photo.jpg', (route) => route.fulfill({ body: photo, contentType: 'image/jpeg' }));
    await page.route('**/bench-faces/*.jpg', (route) =>
      route.fulfill({
        body: fs.readFileSync(path.join(ROOT, FACE_PHOTOS[Number(/(\d+)\.jpg$/.exec(route.request().url())![1])]!)),
        contentType: 'image/jpeg',
      }),
    );
    await page.goto(`http://127.0.0.1:${PORT}/bench/client-compression/index.html`, { timeout: 180_000 });
    await page.waitForFunction(() => document.title === 'ready', undefined, { timeout: 180_000 });
    return page;
  };
  try {
    // Vite's dev server transforms modules (and optimizes dependencies) on first request: done once here, unmeasured,
    // so that no "first photo" below includes it.
    log('warming up the dev server');
    for (const pipeline of (['before-ssd', 'before-tiny', 'after', 'after-inline'] as const).filter((p) => !ONLY || p === ONLY)) {
      const page = await openPage();
      await page
        .evaluate((p) => window.benchRun('/bench-photo.jpg', p), pipeline)
        .catch((err: unknown) => log(`warm-up ${pipeline}: ${String(err)}`));
      await page.close();
    }
    for (const { throttle, pipeline } of CONFIGS.filter((c) => !ONLY || c.pipeline === ONLY)) {
      const page = await openPage();
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      const label = `${throttle === 1 ? 'no throttling' : `CPU throttled ${throttle}×`}, ${PIPELINE_NAMES[pipeline]}`;
      log(`${label}: first photo (loads the face model)`);
      const first = await page.evaluate((p) => window.benchRun('/bench-photo.jpg', p), pipeline);
      log(`${label}: first: total ${ms(first.totalMs)} ms, longest task ${ms(first.longestTaskMs)} ms`);
      const runs: StepTimes[] = [];
      for (let i = 0; i < RUNS; i++) {
        runs.push(await page.evaluate((p) => window.benchRun('/bench-photo.jpg', p), pipeline));
        log(
          `${label}: run ${i + 1}/${RUNS}: total ${ms(runs[i]!.totalMs)} ms, detect ${ms(runs[i]!.detectMs)} ms, longest task ${ms(runs[i]!.longestTaskMs)} ms`,
        );
      }
      series.push({ label, throttle, pipeline, first, runs });
      await page.close();
    }
    if (!ONLY) {
      log('faces in real photos');
      const page = await openPage();
      for (let n = 0; n < FACE_PHOTOS.length; n++) {
        const found = {} as Record<Pipeline, { width: number; height: number; areas: Box[] }>;
        for (const pipeline of ['before-tiny', 'before-ssd', 'after'] as const) {
          found[pipeline] = await page.evaluate(([u, p]) => window.benchFaces(u, p), [`/bench-faces/${n}.jpg`, pipeline] as const);
        }
        quality.push({ photo: path.basename(FACE_PHOTOS[n]!), found });
        log(
          `${path.basename(FACE_PHOTOS[n]!)}: tiny before ${found['before-tiny'].areas.length}, ssd ${found['before-ssd'].areas.length}, after ${found.after.areas.length}`,
        );
      }
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const s0 = series[0]!.runs[0]!;
  const med = (x: Series, k: keyof StepTimes) => median(x.runs.map((r) => r[k] as number));
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const baseline = (x: Series) => series.find((y) => y.throttle === x.throttle && y.pipeline === 'before-ssd');
  const rows = series.map((x) => {
    const b = baseline(x);
    const total = med(x, 'totalMs');
    const vs = (v: number, of: number | undefined) => (b && b !== x && of ? ` (${ratio(v, of)})` : '');
    return `| ${x.label} | ${ms(med(x, 'compressMs'))} | ${ms(med(x, 'previewMs'))} | ${ms(med(x, 'detectMs'))} | **${ms(total)}**${vs(total, b && med(b, 'totalMs'))} | ${ms(x.first.totalMs)}${vs(x.first.totalMs, b?.first.totalMs)} | ${ms(med(x, 'longestTaskMs'))} (first: ${ms(x.first.longestTaskMs)}) | ${ms(med(x, 'renderMs'))} | ${x.runs[0]!.backend} |`;
  });
  const qualityRows = quality.map(({ photo, found }) => {
    const [t, d, a] = [found['before-tiny'], found['before-ssd'], found.after];
    return `| ${photo} (${a.width} × ${a.height}) | ${t.areas.length} | ${d.areas.length} | ${a.areas.length} | ${matched(a.areas, t.areas)} of ${t.areas.length} | ${matched(a.areas, d.areas)} of ${d.areas.length} |`;
  });
  const section = [
    START,
    '## Client: photo compression (uploader)',
    '',
    `Written by \`npx tsx bench/client-compression.ts\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${((Date.now() - started) / 60000).toFixed(1)} minutes, load average before the run ${loadBefore}.`,
    `Chromium ${chromiumVersion} headless (\`--disable-gpu\`), on the machine above (\`nproc\` = ${os.cpus().length}, shared). The page runs the uploader's`,
    'code from a Vite dev server on 127.0.0.1: "after" is src/components/photo-uploader/prepare-photo.ts with its photo worker',
    '(issue 27), "before" the same files as they were before it (bench/client-compression/before/, copied from git). Input: a generated',
    `4000 × 3000 JPEG (${mb(s0.inputBytes)}, quality 92, camera-like content). Each row is a fresh page: its first photo (which loads the face`,
    `model: downloads and decodes the weights, compiles the WebGL shaders or the WebAssembly) is timed on its own, then the median of ${RUNS} more; times in ms.`,
    'Ratios are against the "before" row with SSD MobileNet v1 at the same throttling (what the uploader ran before).',
    '',
    '| Chromium, pipeline | Compress (library worker) | Preview | Face search | Ready to send (compress + preview + faces) | First photo, with the model load | Longest main-thread task while preparing | Pixelated JPEG (at upload) | TF.js backend |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `Output: ${s0.width} × ${s0.height}, ${mb(s0.compressedBytes)} after compression, ${mb(s0.renderedBytes)} as sent (one pixelated area).`,
    '"Longest main-thread task": the longest task of 50 ms or more (Long Tasks API) while the photo was prepared; 0 means none reached 50 ms.',
    'In the "after" rows the main thread only draws the 1024 px preview it receives; decoding and the face search run in the photo worker.',
    `Requests to another origin during the runs: ${foreign.length === 0 ? 'none' : foreign.join(', ')}. Web workers started: ${workers}; worker scripts from our`,
    `origin: ${[...workerScripts].map((p) => `\`${p}\``).join(', ') || '(none requested)'}.`,
    '',
    "Chromium's CPU throttling (4×, a usual stand-in for a mid-range phone) slows the page's main thread only: Chromium",
    'refuses it for a worker target ("Operation is only supported for pages, not workers"), so in the throttled rows the',
    "compression library's worker and the photo worker run at this CPU's speed. The last row therefore runs the new",
    "pipeline's steps with the same code on the main thread (compression without its worker, the face detector loaded in",
    "the page), throttled: that is the phone's-pace figure for the new uploader (its longest-task column is not what a",
    'user gets: there the work is in workers). Headless Chromium here runs with `--disable-gpu`: WebGL is software-rendered',
    '(SwiftShader) on the same two cores, which is why the WebGL rows are slow.',
    '',
    ...(qualityRows.length
      ? [
          'Faces found in real photos of people (the six demo photos face-api ships, `node_modules/@vladmandic/face-api/demo/`), unthrottled,',
          'as padded pixelation areas; "matched" = areas of the new uploader overlapping one of the other\'s by IoU ≥ 0.5:',
          '',
          '| Photo | before, tiny 512 | before, SSD (what it picked) | after, tiny 512 in the worker | after matched with before tiny | after matched with before SSD |',
          '| --- | ---: | ---: | ---: | ---: | ---: |',
          ...qualityRows,
          '',
        ]
      : []),
    END,
  ].join('\n');

  const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '# Benchmarks\n';
  const at = current.indexOf(START);
  const to = current.indexOf(END);
  const next =
    at >= 0 && to > at ? current.slice(0, at) + section + current.slice(to + END.length) : `${current.trimEnd()}\n\n${section}\n`;
  // Formatted like the rest of the repository (npm run lint checks it).
  const options = (await prettier.resolveConfig(OUT)) ?? {};
  fs.writeFileSync(OUT, await prettier.format(next, { ...options, filepath: OUT }));
  log(`wrote ${path.relative(ROOT, OUT)}`);
  if (foreign.length) {
    console.error(`requests to another origin: ${foreign.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
