/**
 * `npm start`'s first step: builds the PWA into dist/ unless dist/ already holds the build of these very sources
 * (vite/build-stamp.ts; every build writes its stamp), then the server starts in a process of its own, so none of
 * the build's memory stays with it. `--force` builds in any case.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent } from './build-stamp.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv.includes('--force') && buildIsCurrent(root, path.join(root, 'dist'))) {
  console.log('Build: dist/ is the build of these sources, not rebuilt (npm run build rebuilds it).');
} else {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}
