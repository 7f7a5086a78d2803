/**
 * `npm start` builds the PWA only when what the build reads has changed since the build in dist/ (issue 27 point 4):
 * an unchanged checkout starts in seconds instead of waiting for a full `vite build`, and a fresh clone (no dist/)
 * still builds first. The stamp is a hash of the content of every input of the build — not of modification times,
 * which a checkout or a copy changes without changing a byte — written into the build folder after a build that
 * succeeded (`vite build` empties the folder first, so a failed build leaves no stamp and the next start builds
 * again).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What `vite build` reads: the app, the service worker, the contract, translations, static files, build plugins. */
export const BUILD_INPUT_DIRS = ['src', 'sw', 'contract', 'locales', 'public', 'vite'];
export const BUILD_INPUT_FILES = ['index.html', 'vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];
export const STAMP_FILE = '.build-stamp';
/** Tests sit beside the code but are never part of the build: changing one should not cost a rebuild. */
const NOT_AN_INPUT = /\.test\.tsx?$|(^|\/)\.DS_Store$/;

function filesUnder(root: string, dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true, withFileTypes: false }) as string[])
    .map((rel) => path.join(dir, rel).split(path.sep).join('/'))
    .filter((rel) => !NOT_AN_INPUT.test(rel) && fs.statSync(path.join(root, rel)).isFile());
}

/** A hash of the build's inputs (their paths and bytes) and of BUILD_ID, which the build writes into the app. */
export function buildFingerprint(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = crypto.createHash('sha256');
  const files = [
    ...BUILD_INPUT_DIRS.flatMap((d) => filesUnder(root, d)),
    ...BUILD_INPUT_FILES.filter((f) => fs.existsSync(path.join(root, f))),
  ].sort();
  for (const rel of files) {
    hash
      .update(rel)
      .update('\0')
      .update(fs.readFileSync(path.join(root, rel)))
      .update('\0');
  }
  hash.update(`BUILD_ID=${env.BUILD_ID ?? ''}`);
  return hash.digest('hex');
}

/** True when `outDir` holds a complete build made from exactly these inputs. */
export function buildIsCurrent(root: string, outDir: string, fingerprint = buildFingerprint(root)): boolean {
  try {
    return (
      fs.readFileSync(path.join(outDir, STAMP_FILE), 'utf8').trim() === fingerprint &&
      fs.existsSync(path.join(outDir, 'index.html')) &&
      fs.existsSync(path.join(outDir, '.ssr'))
    );
  } catch {
    return false;
  }
}

export function writeStamp(outDir: string, fingerprint: string): void {
  fs.writeFileSync(path.join(outDir, STAMP_FILE), `${fingerprint}\n`);
}

/**
 * The server's build (vite/build-server.ts) reads what its entry points import, nothing else: its stamp lists those
 * files (from esbuild's metafile) and hashes them with the lockfile, package.json (its `imports` map) and the build
 * scripts. A file added under server/ matters only once an existing one imports it, which changes that one.
 */
const SERVER_BUILD_FILES = ['package.json', 'package-lock.json', 'vite/build-server.ts', 'vite/build-stamp.ts'];

export function serverFingerprint(root: string, inputs: readonly string[]): string {
  const hash = crypto.createHash('sha256');
  for (const rel of [...new Set([...inputs, ...SERVER_BUILD_FILES])].sort()) {
    const abs = path.join(root, rel);
    hash
      .update(rel)
      .update('\0')
      .update(fs.existsSync(abs) ? fs.readFileSync(abs) : 'missing')
      .update('\0');
  }
  return hash.digest('hex');
}

export function writeServerStamp(root: string, outDir: string, inputs: readonly string[]): void {
  const stamp = { fingerprint: serverFingerprint(root, inputs), inputs: [...inputs].sort() };
  fs.writeFileSync(path.join(outDir, STAMP_FILE), `${JSON.stringify(stamp, null, 1)}\n`);
}

/** True when `outDir` holds a server build (main.js and its stamp) made from the same bytes of the same inputs. */
export function serverBuildIsCurrent(root: string, outDir: string): boolean {
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(outDir, STAMP_FILE), 'utf8')) as { fingerprint: string; inputs: string[] };
    return (
      Array.isArray(stamp.inputs) &&
      stamp.inputs.length > 0 &&
      stamp.fingerprint === serverFingerprint(root, stamp.inputs) &&
      fs.existsSync(path.join(outDir, 'main.js'))
    );
  } catch {
    return false;
  }
}
