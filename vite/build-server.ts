/**
 * Compiles the server's TypeScript ahead of time into `dist-server/` (issue 27 point 3): `npm start` and the image run
 * `node dist-server/main.js` instead of `tsx server/main.ts`, so the process holds no TypeScript loader (esbuild's
 * service, a loader thread, the transformed sources and their inline source maps: ≈35–60 MB of RSS measured,
 * docs/decisions/0026-server-precompiled.md).
 *
 * Only the project's own code is bundled; every package stays an import that Node resolves from node_modules as
 * before (native modules — sharp, argon2 — and the WASM files of PGlite and TensorFlow.js are found where they are
 * installed). One file per process or thread the server starts: the server, the moderation worker and the first
 * start's seeding process.
 *
 * The server reads files beside its sources (migrations, reference data, word lists, translations, package.json)
 * through `import.meta.url`; in the bundle every such use is rewritten to the source file's own URL, computed at run
 * time from the bundle's location (`../server/…` from `dist-server/`), so `server/` keeps its data files where they are
 * and the bundle can be moved together with the checkout (the image copies both).
 *
 * `tsx vite/build-server.ts` builds; `--if-changed` builds only when the stamp (vite/build-stamp.ts: a hash of every
 * source file the last build read, of the lockfile and of this script) does not match.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { serverBuildIsCurrent, writeServerStamp } from './build-stamp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT_DIR = 'dist-server';
/** What `dist-server/` holds: `<name>.js` from each source entry. */
export const SERVER_ENTRIES: Record<string, string> = {
  main: 'server/main.ts',
  'nsfw-worker': 'server/modules/moderation/nsfw-worker.ts',
  seed: 'server/db/seed/cli.ts',
};

/**
 * `import.meta.url` / `import.meta.dirname` of each source file → the source file's URL / folder, resolved from the
 * bundle's own URL (`__bundleUrl`, declared by the banner) at run time.
 */
function sourceLocations(outDir: string): Plugin {
  return {
    name: 'vitrina-source-locations',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = fs.readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.')) return { contents: source, loader: 'ts' };
        const rel = path.relative(outDir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(rel)}, __bundleUrl).href`;
        const dir = `__bundlePath(new URL(${JSON.stringify(`${path.posix.dirname(rel)}/`)}, __bundleUrl)).replace(/\\/$/, '')`;
        return {
          contents: source.replaceAll('import.meta.url', url).replaceAll('import.meta.dirname', dir),
          loader: 'ts',
        };
      });
    },
  };
}

export async function buildServer(root = ROOT, outDir = path.join(root, SERVER_OUT_DIR)): Promise<void> {
  // Built beside the folder (same depth, so the same relative paths to the sources) and swapped in only once complete:
  // a failed build leaves the previous one and no stamp of its own.
  const next = `${outDir}.tmp.${process.pid}`;
  fs.rmSync(next, { recursive: true, force: true });
  const previous = `${outDir}.tmp.old.${process.pid}`;
  try {
    await buildInto(root, next);
    if (fs.existsSync(outDir)) fs.renameSync(outDir, previous);
    fs.renameSync(next, outDir);
  } finally {
    fs.rmSync(next, { recursive: true, force: true });
    fs.rmSync(previous, { recursive: true, force: true });
  }
}

async function buildInto(root: string, outDir: string): Promise<void> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Stack traces name the TypeScript sources; the map stays on disk and is read only when an error is printed.
    sourcemap: 'linked',
    banner: {
      js: [
        "import { fileURLToPath as __bundlePath } from 'node:url';",
        // Read by the sources in the bundle (rewritten import.meta, and "am I bundled?" in main.ts and local-nsfw.ts).
        'const __bundleUrl = import.meta.url;',
      ].join('\n'),
    },
    plugins: [sourceLocations(outDir)],
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules/'));
  writeServerStamp(root, outDir, inputs);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-changed') && serverBuildIsCurrent(ROOT, path.join(ROOT, SERVER_OUT_DIR))) {
    console.log(`Build: ${SERVER_OUT_DIR}/ is the build of these server sources, not rebuilt.`);
  } else {
    await buildServer();
  }
}
