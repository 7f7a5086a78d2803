/**
 * The server's footprint outside memory (issue 27 points 4 and 5): how long `npm start` takes to be ready, and what the
 * production image holds.
 *
 * Start: the README's `npm start` in this checkout, as a person runs it, timed from the command to the server's
 * "Vitrina is ready" line: (1) an unchanged checkout with its data folder (the build in dist/ reused), (2) the same
 * with an empty data folder (migrations and demo data; the build reused), and, for the ratio, (3) what every start did
 * before: a full `vite build` first (the same sources, so dist/ ends as it was).
 *
 * Image: no container engine runs on this machine, so the image's layers are computed as the Dockerfile makes them:
 * `npm ci --omit=dev` into a clean folder, pruned by deploy/prune-runtime-modules.sh, beside the server's code and
 * the built PWA that the runtime stage copies. The base image (node:20-bookworm-slim) is not measured here. "Before" is
 * the same for the lockfile of BENCH_FOOTPRINT_BEFORE (a commit, default 36f599d: before issue 27), unpruned as its
 * Dockerfile left it.
 *
 * `npm run bench -- --only footprint` writes its section of docs/benchmarks.md; the full run includes it unless
 * BENCH_SKIP_FOOTPRINT=1. BENCH_FOOTPRINT_PORT (8196).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_OUT_DIR } from '../../vite/build-server.ts';
import { buildIsCurrent, serverBuildIsCurrent } from '../../vite/build-stamp.ts';
import { developmentEnv } from './app-server.ts';

export const FOOTPRINT_START = '<!-- footprint:start -->';
export const FOOTPRINT_END = '<!-- footprint:end -->';

export interface StartTiming {
  label: string;
  seconds: number;
}

export interface ImageLayer {
  label: string;
  bytes: number;
}

export interface FootprintReport {
  starts: StartTiming[];
  layers: ImageLayer[];
  before: ImageLayer[];
  beforeRef: string;
  biggest: { name: string; bytes: number }[];
}

function duBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** `npm start` until its ready line; the server is stopped then. */
function timeStart(root: string, port: number, dataDir: string, args: { force?: boolean } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // The old `npm start`: `vite build` (into dist/, as it always did) before the server.
    const command = args.force ? 'npx vite build --logLevel warn && npx tsx server/main.ts' : 'npm start';
    const child = spawn('sh', ['-c', command], {
      cwd: root,
      env: {
        ...developmentEnv(),
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const timer = setTimeout(() => finish(new Error(`npm start was not ready in 5 minutes: ${out.slice(-1500)}`)), 300_000);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      if (err) reject(err);
      else resolve(Number(process.hrtime.bigint() - started) / 1e9);
    };
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Vitrina is ready/.test(out)) finish();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      if (!/Vitrina is ready/.test(out)) finish(new Error(`npm start exited (${code}): ${out.slice(-1500)}`));
    });
  });
}

/** The deps stage of the Dockerfile, for this lockfile: node_modules of production dependencies, pruned or not. */
function productionModules(packageJson: string, lockfile: string, prune: string | undefined): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-image-'));
  fs.writeFileSync(path.join(dir, 'package.json'), packageJson);
  fs.writeFileSync(path.join(dir, 'package-lock.json'), lockfile);
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  if (prune) execFileSync('sh', [prune, dir], { stdio: 'ignore' });
  return dir;
}

export async function benchFootprint(root: string, log: (msg: string) => void): Promise<FootprintReport> {
  const port = Number(process.env.BENCH_FOOTPRINT_PORT ?? 8196);
  const beforeRef = process.env.BENCH_FOOTPRINT_BEFORE ?? '36f599d';
  if (!buildIsCurrent(root, path.join(root, 'dist'))) {
    log('footprint: building dist/ once (npm start reuses it from then on)');
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'ignore' });
  }
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-start-'));
  const starts: StartTiming[] = [];
  try {
    // A first start fills the data folder; the timed ones follow.
    const seeded = await timeStart(root, port, data);
    starts.push({ label: '`npm start`, unchanged checkout, empty data folder (migrations and demo data; build reused)', seconds: seeded });
    log(`footprint: npm start with an empty data folder: ${seeded.toFixed(1)} s`);
    const again: number[] = [];
    for (let i = 0; i < 3; i++) again.push(await timeStart(root, port, data));
    again.sort((a, b) => a - b);
    starts.unshift({ label: '`npm start`, unchanged checkout, existing data folder (median of 3)', seconds: again[1]! });
    log(`footprint: npm start, unchanged checkout: ${again.map((s) => s.toFixed(1)).join(', ')} s`);
    const rebuilt = await timeStart(root, port, data, { force: true });
    starts.push({ label: 'the same with a full `vite build` first, as every `npm start` did before', seconds: rebuilt });
    log(`footprint: with a full build first: ${rebuilt.toFixed(1)} s`);
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }

  log('footprint: npm ci --omit=dev for this lockfile and for the one before');
  const now = productionModules(
    fs.readFileSync(path.join(root, 'package.json'), 'utf8'),
    fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'),
    path.join(root, 'deploy', 'prune-runtime-modules.sh'),
  );
  const before = productionModules(
    execFileSync('git', ['show', `${beforeRef}:package.json`], { cwd: root, encoding: 'utf8' }),
    execFileSync('git', ['show', `${beforeRef}:package-lock.json`], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
    undefined,
  );
  try {
    const code = ['server', 'contract', 'locales'].reduce((n, d) => n + duBytes(path.join(root, d)), 0);
    // The image's build stage deletes the source maps (Dockerfile).
    const mapsIn = (dir: string) =>
      execFileSync('find', [dir, '-name', '*.map', '-printf', '%s\n'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .reduce((n, size) => n + Number(size), 0);
    const maps = mapsIn(path.join(root, 'dist'));
    const dist = duBytes(path.join(root, 'dist')) - maps;
    const serverOut = path.join(root, SERVER_OUT_DIR);
    if (!serverBuildIsCurrent(root, serverOut)) await buildServer(root);
    const layers = [
      { label: 'node_modules (deps stage: production dependencies, pruned)', bytes: duBytes(path.join(now, 'node_modules')) },
      { label: 'server/, contract/, locales/ (the server and what it reads)', bytes: code },
      { label: 'dist-server/ (the server compiled, decision 0026, no source maps)', bytes: duBytes(serverOut) - mapsIn(serverOut) },
      { label: 'dist/ (the built PWA with its precompressed copies and the first screen’s renderer, no source maps)', bytes: dist },
    ];
    const beforeLayers = [
      { label: 'node_modules (production dependencies, as its Dockerfile copied them)', bytes: duBytes(path.join(before, 'node_modules')) },
      layers[1]!,
      // Its Dockerfile copied the source maps too.
      { label: 'dist/', bytes: dist + maps },
    ];
    const modules = path.join(now, 'node_modules');
    const biggest = fs
      .readdirSync(modules)
      .flatMap((name) => (name.startsWith('@') ? fs.readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`) : [name]))
      .filter((name) => !name.startsWith('.'))
      .map((name) => ({ name, bytes: duBytes(path.join(modules, name)) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 8);
    return { starts, layers, before: beforeLayers, beforeRef, biggest };
  } finally {
    fs.rmSync(now, { recursive: true, force: true });
    fs.rmSync(before, { recursive: true, force: true });
  }
}

const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;

export function renderFootprintSection(r: FootprintReport): string {
  const total = (layers: ImageLayer[]) => layers.reduce((n, l) => n + l.bytes, 0);
  const base = r.starts.find((s) => s.label.startsWith('the same with a full'))?.seconds;
  const lines = [
    FOOTPRINT_START,
    '',
    '## Start and image size (issue 27 points 4 and 5)',
    '',
    `Written by \`npm run bench -- --only footprint\` (bench/lib/footprint.ts) — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? ''} × ${os.cpus().length}, Node ${process.version}.`,
    '',
    '**Start** — from the command to the server\'s "Vitrina is ready" line (target: ≤ 15 s on an unchanged checkout).',
    '',
    '| Start | Ready in | ÷ full build first |',
    '| --- | --: | --: |',
    ...r.starts.map((s) => `| ${s.label} | ${s.seconds.toFixed(1)} s | ${base ? `${(s.seconds / base).toFixed(2)}` : '—'} |`),
    '',
    '**Production image** — no container engine runs on this machine, so the layers are computed as the Dockerfile builds them',
    `(\`npm ci --omit=dev\` into a clean folder, then deploy/prune-runtime-modules.sh) beside what the runtime stage copies; the base`,
    `image (node:20-bookworm-slim) is not counted. Target: ≤ 400 MB. "Before" is commit ${r.beforeRef}'s lockfile, unpruned.`,
    '',
    '| Layer | Before | Now |',
    '| --- | --: | --: |',
    ...r.layers.map((l, i) => `| ${l.label} | ${mb(r.before[i]!.bytes)} | ${mb(l.bytes)} |`),
    `| **Total without the base image** | **${mb(total(r.before))}** | **${mb(total(r.layers))}** (${(total(r.layers) / total(r.before)).toFixed(2)}×) |`,
    '',
    `Largest packages left: ${r.biggest.map((b) => `${b.name} ${mb(b.bytes)}`).join(', ')}.`,
    '',
    FOOTPRINT_END,
  ];
  return lines.join('\n');
}

export function spliceFootprintSection(existing: string, section: string): string {
  const a = existing.indexOf(FOOTPRINT_START);
  const b = existing.indexOf(FOOTPRINT_END);
  if (a >= 0 && b > a) return existing.slice(0, a) + section + existing.slice(b + FOOTPRINT_END.length);
  const at = existing.indexOf('<!-- realtime:start -->');
  return at >= 0 ? `${existing.slice(0, at)}${section}\n\n${existing.slice(at)}` : `${existing}\n${section}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  const report = await benchFootprint(root, (m) => console.error(m));
  console.log(renderFootprintSection(report));
}
