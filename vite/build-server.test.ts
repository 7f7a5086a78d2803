// @vitest-environment node
/**
 * The server's build (vite/build-server.ts) as `npm start` and the image run it: every file it read through
 * `import.meta.url` is found from the bundle, and the moderation worker starts from its plain-JavaScript file (no tsx
 * in the process) and loads the model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_ENTRIES } from './build-server.ts';
import { serverBuildIsCurrent } from './build-stamp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let out: string;

beforeAll(async () => {
  // Inside the checkout, like dist-server/: the bundle's packages are resolved from its own folder up.
  const cache = path.join(ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  out = fs.mkdtempSync(path.join(cache, 'vitrina-server-build-'));
  await buildServer(ROOT, out);
}, 60_000);
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('the server build', () => {
  it('writes one file per entry and a stamp that matches the sources', () => {
    for (const name of Object.keys(SERVER_ENTRIES)) expect(fs.existsSync(path.join(out, `${name}.js`)), name).toBe(true);
    expect(serverBuildIsCurrent(ROOT, out)).toBe(true);
  });

  it('points every import.meta of the sources at the source file, which exists', () => {
    for (const name of Object.keys(SERVER_ENTRIES)) {
      const code = fs.readFileSync(path.join(out, `${name}.js`), 'utf8');
      // Only the banner's own use is left: the bundle's location.
      expect(code.match(/import\.meta\.\w+/g), name).toEqual(['import.meta.url']);
      const sources = [...code.matchAll(/new URL\("([^"]+\.ts)", __bundleUrl\)/g)].map((m) => m[1]!);
      if (name === 'main') expect(sources).toEqual(expect.arrayContaining([expect.stringMatching(/server\/db\/client\.ts$/)]));
      for (const rel of sources)
        expect(fs.existsSync(fileURLToPath(new URL(rel, pathToFileURL(path.join(out, 'main.js'))))), rel).toBe(true);
    }
  });

  it('starts the moderation worker from its JavaScript file, and it loads the model', async () => {
    const worker = new Worker(path.join(out, 'nsfw-worker.js'));
    try {
      const first = await new Promise<{ type: string; backend?: string; error?: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(first, first.error).toMatchObject({ type: 'ready', backend: 'wasm' });
    } finally {
      await worker.terminate();
    }
  }, 60_000);
});
