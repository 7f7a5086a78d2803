/**
 * `npx tsx bench/moderation-set.ts`: how often the local screening refuses photos a marketplace of models accepts
 * (issue 24 B7). Runs each model nsfwjs ships in its package (MobileNetV2, MobileNetV2Mid, InceptionV3) over a small
 * hand-labelled set and prints, per model, class and threshold, how many clothed photos would be refused. Writes the
 * raw probabilities to /tmp/moderation-set.json (or MODERATION_SET_OUT). Never part of `npm test`.
 *
 * The set is built only from photos that packages already installed carry, referenced by path (nothing is copied
 * into the repository): the six demo photos of @vladmandic/face-api (MIT; ordinary photos of clothed women at
 * parties, the kind the issue saw refused), each also cut into one strip per person (a model's ad usually shows one
 * person), and @fastify/static's sample image (MIT) as a photo with no person. Every image was looked at and labelled
 * by hand (`label` below). The set holds no explicit photo: it measures false refusals, not what the model catches.
 *
 * Each image goes through the upload's path as closely as a script can: decoded by sharp, a ≤ 640 px JPEG copy
 * (quality 85, as image-pipeline.ts makes), squashed to the model's input size (224, or 299 for InceptionV3) exactly
 * as local-nsfw.ts does, then classified on TensorFlow.js's WASM backend with one thread.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { LOCAL_THRESHOLDS } from '../server/modules/moderation/local-nsfw.ts';
import { MODERATION_THRESHOLDS, type ModerationScores } from '../server/modules/moderation/moderation.ts';

type Label = 'clothed' | 'no_person';
interface Sample {
  id: string;
  file: string;
  /** Fractions of the width: the strip [x0, x1) over the whole height; absent = the whole photo. */
  strip?: [number, number];
  label: Label;
}

const FACE_API = 'node_modules/@vladmandic/face-api/demo';
/** People per demo photo, left to right (counted by eye); each gets an equal-width strip. */
const PEOPLE: Record<string, number> = { sample1: 3, sample2: 3, sample3: 3, sample4: 4, sample5: 4, sample6: 4 };

export const SET: Sample[] = [
  ...Object.entries(PEOPLE).flatMap(([name, n]) => [
    { id: name, file: `${FACE_API}/${name}.jpg`, label: 'clothed' as const },
    ...Array.from({ length: n }, (_, i) => ({
      id: `${name}-strip${i + 1}of${n}`,
      file: `${FACE_API}/${name}.jpg`,
      strip: [i / n, (i + 1) / n] as [number, number],
      label: 'clothed' as const,
    })),
  ]),
  { id: 'fastify-sample', file: 'node_modules/@fastify/static/example/public/images/sample.jpg', label: 'no_person' },
];

const MODELS = [
  { name: 'MobileNetV2', size: 224 },
  { name: 'MobileNetV2Mid', size: 224 },
  { name: 'InceptionV3', size: 299 },
] as const;

/** The thresholds tried per class: "refused when the class's probability is above t". */
const THRESHOLDS: Record<'Sexy' | 'Porn' | 'Hentai', number[]> = {
  Sexy: [0.4, 0.6, 0.8, 0.9, 0.95],
  Porn: [0.1, 0.2, 0.3, 0.5],
  Hentai: [0.1, 0.2, 0.3, 0.5],
};

async function pixels(sample: Sample, size: number): Promise<Uint8Array> {
  let img = sharp(sample.file).rotate();
  if (sample.strip) {
    const { width = 0, height = 0 } = await sharp(sample.file).metadata();
    const left = Math.floor(sample.strip[0] * width);
    img = img.extract({ left, top: 0, width: Math.floor(sample.strip[1] * width) - left, height });
  }
  const copy = await img.resize({ width: 640, height: 640, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
  const raw = await sharp(copy).resize(size, size, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer();
  return new Uint8Array(raw);
}

async function main() {
  const tf = await import('@tensorflow/tfjs');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  const require = createRequire(import.meta.url);
  setWasmPaths(`${path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}${path.sep}`);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.enableProdMode();
  await tf.setBackend('wasm');
  await tf.ready();
  const nsfwjs = await import('nsfwjs');

  const results: Record<string, Record<string, Record<string, number>>> = {};
  /** Per model: load time and median classification time of one image (inputs prepared beforehand), in ms. */
  const timing: Record<string, { loadMs: number; medianMs: number }> = {};
  for (const m of MODELS) {
    const loadStart = performance.now();
    const model = await nsfwjs.load(m.name, { size: m.size });
    const loadMs = Math.round(performance.now() - loadStart);
    results[m.name] = {};
    const times: number[] = [];
    for (const s of SET) {
      const input = tf.tensor3d(await pixels(s, m.size), [m.size, m.size, 3], 'int32');
      const started = performance.now();
      const predictions = await model.classify(input, 5);
      times.push(performance.now() - started);
      input.dispose();
      results[m.name]![s.id] = Object.fromEntries(predictions.map((p) => [p.className, Math.round(p.probability * 1000) / 1000]));
    }
    times.sort((a, b) => a - b);
    timing[m.name] = { loadMs, medianMs: Math.round(times[Math.floor(times.length / 2)]!) };
  }
  writeFileSync(process.env.MODERATION_SET_OUT ?? '/tmp/moderation-set.json', JSON.stringify(results, null, 2));

  const clothed = SET.filter((s) => s.label === 'clothed');
  const wholes = clothed.filter((s) => !s.strip);
  const rate = (model: string, samples: Sample[], refused: (c: Record<string, number>) => boolean) => {
    const n = samples.filter((s) => refused(results[model]![s.id]!)).length;
    return `${n}/${samples.length} (${Math.round((100 * n) / samples.length)} %)`;
  };
  console.log(
    `Set: ${SET.length} images, ${clothed.length} clothed (${wholes.length} whole photos + ${clothed.length - wholes.length} strips)\n`,
  );
  console.log('| model | rule | whole photos refused | strips refused | all clothed refused |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const m of MODELS) {
    for (const [cls, ts] of Object.entries(THRESHOLDS)) {
      for (const t of ts) {
        const f = (c: Record<string, number>) => (c[cls] ?? 0) > t;
        const strips = clothed.filter((s) => s.strip);
        console.log(
          `| ${m.name} | ${cls} > ${t} | ${rate(m.name, wholes, f)} | ${rate(m.name, strips, f)} | ${rate(m.name, clothed, f)} |`,
        );
      }
    }
    const strips = clothed.filter((s) => s.strip);
    const any = (t: ModerationScores) => (c: Record<string, number>) =>
      (c.Porn ?? 0) > t.sexual_activity || (c.Hentai ?? 0) > t.sexual_display || (c.Sexy ?? 0) > t.erotica;
    for (const [label, t] of [
      ['SPEC §5 / 0005 (any class)', MODERATION_THRESHOLDS],
      ['local, 0017 (any class)', LOCAL_THRESHOLDS],
    ] as const)
      console.log(
        `| ${m.name} | **${label}** | ${rate(m.name, wholes, any(t))} | ${rate(m.name, strips, any(t))} | ${rate(m.name, clothed, any(t))} |`,
      );
  }
  console.log('\nTiming (WASM, one thread):', JSON.stringify(timing));
  console.log('No-person control:', JSON.stringify(Object.fromEntries(MODELS.map((m) => [m.name, results[m.name]!['fastify-sample']]))));
}

await main();
