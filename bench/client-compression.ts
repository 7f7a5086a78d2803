/**
 * `npx tsx bench/client-compression.ts`: how long the photo uploader's on-device work takes for a 12-megapixel
 * photo in Chromium — compression (browser-image-compression in its web worker), preview, face detection
 * (@vladmandic/face-api, SSD MobileNet v1) and the final pixelated JPEG. Runs the real code of
 * src/components/photo-uploader/prepare-photo.ts in a page served by a Vite dev server on 127.0.0.1, unthrottled and
 * with Chromium's CPU throttling (4×, roughly a mid-range phone). Also checks that nothing is fetched from another
 * origin (the compression worker's script and the face model come from ours).
 *
 * Writes its own section of docs/benchmarks.md, between the client-compression markers, leaving the rest alone.
 * Environment: BENCH_RUNS (5), BENCH_PORT (5391), CHROME_PATH (/usr/bin/chromium), BENCH_OUT (docs/benchmarks.md).
 * Never part of `npm test`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as prettier from 'prettier';
import sharp from 'sharp';
import { createServer } from 'vite';
import type { StepTimes } from './client-compression/page.ts';

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
 * What is measured: both networks on the backend the uploader picks (WebGL, software-rendered here) and on the CPU
 * backend (where the uploader falls back to the tiny detector). SSD on the CPU under 4× throttling is left out: about
 * 35 s per photo, which is why the uploader never does that.
 */
const CONFIGS = [
  { throttle: 1, model: 'ssd', backend: 'auto' },
  { throttle: 1, model: 'tiny', backend: 'auto' },
  { throttle: 1, model: 'ssd', backend: 'cpu' },
  { throttle: 1, model: 'tiny', backend: 'cpu' },
  { throttle: 4, model: 'ssd', backend: 'auto' },
  { throttle: 4, model: 'tiny', backend: 'auto' },
  { throttle: 4, model: 'tiny', backend: 'cpu' },
] as const;

interface Series {
  label: string;
  first: StepTimes;
  runs: StepTimes[];
}

async function main() {
  const started = Date.now();
  log('generating a 12 MP photo');
  const photo = await twelveMegapixelPhoto();
  log(`photo: ${mb(photo.length)}`);

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
  const chromiumVersion = browser.version();
  try {
    for (const { throttle, model, backend } of CONFIGS) {
      {
        const page = await browser.newPage();
        page.on('request', (req) => {
          const url = new URL(req.url());
          if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['blob:', 'data:'].includes(url.protocol)) foreign.push(req.url());
          // The UMD build is what the worker importScripts() (the page itself uses the ESM build).
          if (url.pathname.endsWith('/dist/browser-image-compression.js')) workerScripts.add(url.pathname);
        });
        page.on('worker', () => workers++);
        page.on('pageerror', (err) => log(`page error: ${err.message}`));
        await page.route('**/bench-photo.jpg', (route) => route.fulfill({ body: photo, contentType: 'image/jpeg' }));
        await page.goto(`http://127.0.0.1:${PORT}/bench/client-compression/index.html`, { timeout: 180_000 });
        await page.waitForFunction(() => document.title === 'ready', undefined, { timeout: 180_000 });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
        const label = `${throttle === 1 ? 'no throttling' : `CPU throttled ${throttle}×`}, ${model === 'ssd' ? 'SSD MobileNet v1' : 'tiny detector'}${backend === 'cpu' ? ', CPU backend forced' : ''}`;
        log(`${label}: first run (loads the face model)`);
        const first = await page.evaluate((m) => window.benchRun('/bench-photo.jpg', m.model, m.backend), { model, backend });
        const runs: StepTimes[] = [];
        for (let i = 0; i < RUNS; i++) {
          runs.push(await page.evaluate((m) => window.benchRun('/bench-photo.jpg', m.model, m.backend), { model, backend }));
          log(`${label}: run ${i + 1}/${RUNS}: compress ${ms(runs[i]!.compressMs)} ms, detect ${ms(runs[i]!.detectMs)} ms`);
        }
        series.push({ label, first, runs });
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const s0 = series[0]!.runs[0]!;
  const rows = series.map(({ label, first, runs }) => {
    const m = (k: keyof StepTimes) => median(runs.map((r) => r[k] as number));
    return `| ${label} | ${ms(m('compressMs'))} | ${ms(m('previewMs'))} | ${ms(m('detectMs'))} (first: ${ms(first.detectMs)}) | ${ms(m('renderMs'))} | ${ms(m('compressMs') + m('previewMs') + m('detectMs'))} | ${runs[0]!.backend} |`;
  });
  const section = [
    START,
    '## Client: photo compression (uploader)',
    '',
    `Written by \`npx tsx bench/client-compression.ts\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${((Date.now() - started) / 60000).toFixed(1)} minutes.`,
    `Chromium ${chromiumVersion} headless (\`--disable-gpu\`), on the machine above (\`nproc\` = ${os.cpus().length}). The page runs the uploader's own`,
    'code (src/components/photo-uploader/prepare-photo.ts) from a Vite dev server on 127.0.0.1. Input: a generated',
    `4000 × 3000 JPEG (${mb(s0.inputBytes)}, quality 92, camera-like content). Median of ${RUNS} runs after one warm-up run; times in ms.`,
    '',
    '| Chromium, face model | Compress (worker) | Preview | Face detection | Pixelated JPEG | Before the editor shows (compress + preview + detect) | TF.js backend |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    `Output: ${s0.width} × ${s0.height}, ${mb(s0.compressedBytes)} after compression, ${mb(s0.renderedBytes)} as sent (one pixelated area).`,
    `"first" = the first detection of the page, which also downloads and decodes the weights (SSD MobileNet v1 5.6 MB, tiny detector 190 KB) and, on WebGL, compiles the shaders.`,
    `Requests to another origin during the runs: ${foreign.length === 0 ? 'none' : foreign.join(', ')}. Web workers started: ${workers}; the`,
    `compression worker's script came from ${[...workerScripts].map((p) => `\`${p}\``).join(', ') || '(not requested)'} on our origin.`,
    '',
    'Headless Chromium here runs with `--disable-gpu`: WebGL is software-rendered (SwiftShader), so detection is far',
    'slower than on a phone with a GPU. The uploader picks SSD MobileNet v1 when the WebGL backend is available and the',
    "tiny detector on TensorFlow.js's CPU backend otherwise; the other rows show why (SSD on the CPU backend). Chromium's",
    "CPU throttling (4×, a usual stand-in for a mid-range phone) slows the page's main thread — detection, preview and",
    "the final JPEG — but not the compression worker, so the compression column is this CPU's speed in every row.",
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
