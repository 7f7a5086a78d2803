/**
 * What the home route costs the browser, counted as `npm test`'s budget check counts it (vite/bundle-budget.ts: the
 * entry and its static imports, what src/main.tsx imports at start-up, the home screen's chunk and its imports, and
 * their CSS; each file gzipped with zlib at its default level), from Vite's manifest of a fresh build.
 *
 * On its own, without the rest of the benchmark: `npx tsx bench/lib/bundle.ts` prints the figure and every file
 * in it (a few seconds; BENCH_DIST_DIR=… measures an existing `vite build --manifest` instead).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureBuild, type BundleFile } from '../../vite/bundle-budget.ts';

export type { BundleFile } from '../../vite/bundle-budget.ts';

export type BundleReport =
  { ok: true; source: string; js: number; css: number; files: BundleFile[] } | { ok: false; source: string; error: string };

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

/** The home route's files, counted as the budget check counts them (vite/bundle-budget.ts). */
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
    const measured = measureBuild(outDir);
    return { ok: true, source, ...measured };
  } catch (err) {
    return { ok: false, source, error: (err as Error).message };
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
