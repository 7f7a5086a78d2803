/**
 * What the home route costs the browser: the entry chunk, everything it imports statically, the lazily loaded home
 * route chunk (src/features/listings/routes/home.tsx) and its own static imports, and the CSS of all of them —
 * each file gzipped with zlib at its default level. Read from Vite's manifest of a fresh build.
 *
 * On its own, without the rest of the benchmark: `npx tsx bench/lib/bundle.ts` prints the figure and every file
 * in it (a few seconds; BENCH_DIST_DIR=… measures an existing `vite build --manifest` instead).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface BundleFile {
  file: string;
  role: 'entry' | 'entry import' | 'home route' | 'home import' | 'css';
  raw: number;
  gzip: number;
}

export type BundleReport =
  { ok: true; source: string; js: number; css: number; files: BundleFile[] } | { ok: false; source: string; error: string };

const HOME = /src\/features\/listings\/routes\/home\.tsx$/;

function build(root: string): string {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-dist-'));
  // A separate output folder: dist/ may be in use by a running server (end-to-end tests).
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return outDir;
}

export function measureHomeBundle(root: string): BundleReport {
  const given = process.env.BENCH_DIST_DIR;
  let outDir: string | undefined;
  try {
    outDir = given ? path.resolve(given) : build(root);
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    return { ok: false, source: 'vite build', error: (e.stderr?.toString() || e.message).trim().split('\n').slice(0, 8).join('\n') };
  }
  const source = given ? `existing build in ${given}` : 'fresh `vite build --manifest` into a temporary folder';
  try {
    const manifestFile = path.join(outDir, '.vite', 'manifest.json');
    if (!fs.existsSync(manifestFile)) return { ok: false, source, error: `no ${manifestFile} (build with --manifest)` };
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('index.html'));
    const homeKey = Object.keys(manifest).find((k) => HOME.test(k));
    if (!entryKey) return { ok: false, source, error: 'no index.html entry in the manifest' };
    if (!homeKey) return { ok: false, source, error: 'no chunk for src/features/listings/routes/home.tsx in the manifest' };

    const closure = (key: string, into: Set<string>) => {
      if (into.has(key)) return;
      into.add(key);
      for (const k of manifest[key]?.imports ?? []) closure(k, into);
    };
    const entrySet = new Set<string>();
    closure(entryKey, entrySet);
    const homeSet = new Set<string>();
    closure(homeKey, homeSet);

    const size = (file: string) => {
      const buf = fs.readFileSync(path.join(outDir, file));
      return { raw: buf.length, gzip: zlib.gzipSync(buf).length };
    };
    const files: BundleFile[] = [];
    const seen = new Set<string>();
    const add = (file: string, role: BundleFile['role']) => {
      if (seen.has(file)) return;
      seen.add(file);
      files.push({ file, role, ...size(file) });
    };
    add(manifest[entryKey]!.file, 'entry');
    for (const k of entrySet) add(manifest[k]!.file, 'entry import');
    add(manifest[homeKey]!.file, 'home route');
    for (const k of homeSet) add(manifest[k]!.file, 'home import');
    for (const k of new Set([...entrySet, ...homeSet])) for (const css of manifest[k]?.css ?? []) add(css, 'css');

    const sum = (pred: (f: BundleFile) => boolean) => files.filter(pred).reduce((n, f) => n + f.gzip, 0);
    return { ok: true, source, js: sum((f) => f.role !== 'css'), css: sum((f) => f.role === 'css'), files };
  } finally {
    if (!given) fs.rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = measureHomeBundle(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'));
  if (!report.ok) {
    console.error(`${report.source}: ${report.error}`);
    process.exit(1);
  }
  for (const f of [...report.files].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`${f.role.padEnd(12)} ${String(f.gzip).padStart(7)} B gz ${String(f.raw).padStart(8)} B  ${f.file}`);
  }
  console.log(`Home route: JS ${(report.js / 1000).toFixed(1)} KB, CSS ${(report.css / 1000).toFixed(1)} KB (gzip, 1 KB = 1000 B)`);
}
