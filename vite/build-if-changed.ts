/**
 * `npm start`'s first step: builds the PWA into dist/ unless dist/ already holds the build of these very sources
 * (vite/build-stamp.ts; every build writes its stamp), and the server into dist-server/ likewise (vite/build-server.ts:
 * plain JavaScript, so the server runs on Node alone, without a TypeScript loader); then the server starts in a
 * process of its own, so none of the build's memory stays with it. `--force` builds both in any case.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsCurrent, serverBuildIsCurrent } from './build-stamp.ts';
import { buildServer, SERVER_OUT_DIR } from './build-server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
if (!force && buildIsCurrent(root, path.join(root, 'dist'))) {
  console.log('Build: dist/ is the build of these sources, not rebuilt (npm run build rebuilds it).');
} else {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}
if (!force && serverBuildIsCurrent(root, path.join(root, SERVER_OUT_DIR))) {
  console.log(`Build: ${SERVER_OUT_DIR}/ is the build of these server sources, not rebuilt.`);
} else {
  await buildServer(root);
}
