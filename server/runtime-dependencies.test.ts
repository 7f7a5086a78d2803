/**
 * The production image installs `dependencies` only (Dockerfile: `npm ci --omit=dev`), and every browser-only package
 * is a dev dependency because the build bundles it into dist/ (issue 27 point 5). A server file that starts importing
 * a dev dependency would pass every other test here (they run with dev dependencies installed) and fail only in the
 * image: this test bundles the server's entry points the way Node will load them and names any such import.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the image runs: the server, its moderation worker (spawned by file) and the operators' commands. */
const ENTRIES = [
  'server/main.ts',
  'server/modules/moderation/nsfw-worker.ts',
  'server/db/migrate-cli.ts',
  'server/db/seed/cli.ts',
  'server/storage-migrate-cli.ts',
];
/** Loaded by name rather than imported, so the bundler cannot see them (pino's transport for readable logs). */
const LOADED_BY_NAME = ['pino-pretty'];

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The packages the server's code imports, read from esbuild's metafile (packages left external, as Node resolves them). */
async function serverPackages(entries: string[] = ENTRIES): Promise<string[]> {
  const result = await build({
    entryPoints: entries.map((e) => path.join(ROOT, e)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    outdir: path.join(ROOT, '.runtime-deps-check'),
    metafile: true,
    logLevel: 'silent',
  });
  const found = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !imported.path.startsWith('node:') && !imported.path.startsWith('.')) found.add(packageOf(imported.path));
    }
  }
  return [...found].sort();
}

describe('the server at run time', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('imports only packages listed in dependencies (the image has no dev dependencies)', async () => {
    const imported = await serverPackages();
    // A sanity check that the bundle was read at all: the server cannot run without these.
    expect(imported).toEqual(expect.arrayContaining(['fastify', 'sharp', 'nsfwjs']));
    const missing = [...imported, ...LOADED_BY_NAME].filter((name) => !(name in pkg.dependencies));
    expect(missing, 'move these to dependencies, or stop importing them from the server').toEqual([]);
  }, 60_000);

  it('keeps browser-only packages out of dependencies (they are bundled by the build)', () => {
    const browserOnly = [
      'react',
      'react-dom',
      '@mantine/core',
      '@tabler/icons-react',
      '@vladmandic/face-api',
      'maplibre-gl',
      'workbox-precaching',
    ];
    expect(browserOnly.filter((name) => name in pkg.dependencies)).toEqual([]);
  });
});
