/**
 * The home route's JavaScript, measured from Vite's manifest, and its budget (issue 27 point 1: a first visit's code
 * must not grow unnoticed). What a first visit to the home loads before the app takes over the page:
 *   - the entry (index.html's script) and everything it imports statically;
 *   - what src/main.tsx imports as soon as it runs (`startup` in bundle-budget.json: React DOM's client, kept apart so
 *     its set-up runs in a task of its own, and the persisted query cache's code);
 *   - the home screen's chunk (`route`) and its static imports.
 * Each file gzipped on its own (zlib, default level 6), as the benchmark always counted them; 1 KB = 1000 bytes.
 * Chunks fetched later (the service worker's registration at the first idle moment, the rest of the stylesheets after
 * ten seconds, other screens) are not counted.
 *
 * `npx tsx vite/bundle-budget.ts [distDir]` compares a build with vite/bundle-budget.json and fails above it;
 * `npm run test:e2e` runs it after its build (so `npm test` does). Raising the budget is a decision: say why in the
 * commit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface Budget {
  /** Ceiling of the home route's JS, gzip bytes. */
  homeJsGzip: number;
  /** Ceiling of its CSS, gzip bytes. */
  homeCssGzip: number;
  /** Modules src/main.tsx imports at start-up (manifest keys). */
  startup: string[];
  /** The home screen's module (manifest key). */
  route: string;
}

export interface BundleFile {
  file: string;
  role: 'entry' | 'entry import' | 'start-up' | 'home route' | 'home import' | 'css';
  raw: number;
  gzip: number;
}

export interface HomeBundle {
  js: number;
  css: number;
  files: BundleFile[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUDGET_FILE = path.join(ROOT, 'vite', 'bundle-budget.json');

export function readBudget(file = BUDGET_FILE): Budget {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Budget;
}

/** The files of the home route in a build's manifest, with their sizes read by `size`. */
export function homeBundle(
  manifest: Manifest,
  budget: Pick<Budget, 'startup' | 'route'>,
  size: (file: string) => { raw: number; gzip: number },
): HomeBundle {
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('index.html'));
  if (!entryKey) throw new Error('no index.html entry in the manifest');
  for (const key of [...budget.startup, budget.route])
    if (!manifest[key]) throw new Error(`${key} is not in the manifest (bundle-budget.json names it)`);
  const files: BundleFile[] = [];
  const seen = new Set<string>();
  const cssOf = new Set<string>();
  const add = (file: string, role: BundleFile['role']) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push({ file, role, ...size(file) });
  };
  const walk = (key: string, role: BundleFile['role'], importRole: BundleFile['role']) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    add(chunk.file, role);
    for (const css of chunk.css ?? []) cssOf.add(css);
    for (const k of chunk.imports ?? []) walk(k, importRole, importRole);
  };
  walk(entryKey, 'entry', 'entry import');
  for (const key of budget.startup) walk(key, 'start-up', 'start-up');
  walk(budget.route, 'home route', 'home import');
  for (const css of cssOf) add(css, 'css');
  const sum = (pred: (f: BundleFile) => boolean) => files.filter(pred).reduce((n, f) => n + f.gzip, 0);
  return { js: sum((f) => f.role !== 'css'), css: sum((f) => f.role === 'css'), files };
}

/** The home route of the build in `distDir` (built with its manifest, as `vite build` here always is). */
export function measureBuild(distDir: string, budget: Budget = readBudget()): HomeBundle {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  return homeBundle(manifest, budget, (file) => {
    const buf = fs.readFileSync(path.join(distDir, file));
    return { raw: buf.length, gzip: zlib.gzipSync(buf).length };
  });
}

/** What is over the budget, in words; empty when the build is within it. */
export function overBudget(measured: Pick<HomeBundle, 'js' | 'css'>, budget: Pick<Budget, 'homeJsGzip' | 'homeCssGzip'>): string[] {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const out: string[] = [];
  if (measured.js > budget.homeJsGzip)
    out.push(`the home route's JS is ${kb(measured.js)} gzipped, over its budget of ${kb(budget.homeJsGzip)}`);
  if (measured.css > budget.homeCssGzip)
    out.push(`the home route's CSS is ${kb(measured.css)} gzipped, over its budget of ${kb(budget.homeCssGzip)}`);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const distDir = path.resolve(process.argv[2] ?? process.env.DIST_DIR ?? path.join(ROOT, 'dist'));
  const budget = readBudget();
  const measured = measureBuild(distDir, budget);
  const problems = overBudget(measured, budget);
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  console.log(
    `bundle budget: home route JS ${kb(measured.js)} of ${kb(budget.homeJsGzip)}, CSS ${kb(measured.css)} of ${kb(budget.homeCssGzip)} (gzip, ${distDir})`,
  );
  if (problems.length) {
    for (const f of [...measured.files].sort((a, b) => b.gzip - a.gzip).slice(0, 12))
      console.error(`  ${kb(f.gzip).padStart(9)}  ${f.role.padEnd(12)} ${f.file}`);
    console.error(`bundle budget exceeded: ${problems.join('; ')} (vite/bundle-budget.json)`);
    process.exit(1);
  }
}
