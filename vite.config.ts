import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { baseMapPlugin } from './vite/base-map.ts';
import { buildFingerprint, writeStamp } from './vite/build-stamp.ts';
import { mantineStableIds } from './vite/mantine-stable-ids.ts';

const API_TARGET = `http://localhost:${process.env.PORT ?? 8080}`;

/**
 * The build's id: BUILD_ID if set, else the commit built, else the time of the build. The persisted query cache of
 * another build is dropped (its `buster`, src/lib/query-persist.ts): answers' shapes may have changed.
 */
function buildId(): string {
  if (process.env.BUILD_ID) return process.env.BUILD_ID;
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return `t${Date.now()}`;
  }
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Text the browser fetches; not source maps (only developer tools ask for them). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
/** Below this a compressed copy saves less than a round trip's worth: the file goes out as it is. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (.br, best quality) and a gzip (.gz, level 9) copy beside every compressible file of the build, so
 * the server sends them without compressing per request (server/plugins/spa.ts: @fastify/static preCompressed).
 * Last of all (closeBundle, order post): sw.js is written by vite-plugin-pwa in its own closeBundle.
 */
/**
 * React DOM's client is imported by src/main.tsx at start-up rather than statically, so that its set-up runs in a task
 * of its own (a phone's Total Blocking Time): the shell asks for it with the entry (a modulepreload link) instead of
 * once the entry has run. A server-rendered first screen drops the shell's preload links and fetches all of it after
 * the photos (server/plugins/first-screen.ts, public/app-start.js).
 */
function preloadStartupChunks(): Plugin {
  return {
    name: 'vitrina-preload-startup-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.replace(/\\/g, '/').endsWith('node_modules/react-dom/client.js'),
        );
        if (!chunk) return html;
        return html.replace('</head>', `  <link rel="modulepreload" crossorigin href="/${chunk.fileName}">\n  </head>`);
      },
    },
  };
}

/**
 * Writes the fingerprint of the build's inputs into the build (vite/build-stamp.ts) once everything else is written,
 * so `npm start` can tell that dist/ already is the build of these sources and skip rebuilding it.
 */
function buildStamp(): Plugin {
  let outDir = '';
  let fingerprint = '';
  return {
    name: 'vitrina-build-stamp',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      fingerprint = buildFingerprint(config.root);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        writeStamp(outDir, fingerprint);
      },
    },
  };
}

function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'vitrina-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (fs.readdirSync(outDir, { recursive: true, withFileTypes: false }) as string[])
          .map((f) => path.join(outDir, f))
          // Not the server's renderer (.ssr): it is never sent.
          .filter((f) => COMPRESSIBLE.test(f) && !f.includes(`${path.sep}.ssr${path.sep}`) && fs.statSync(f).size >= MIN_BYTES);
        await Promise.all(
          files.map(async (file) => {
            const data = await fs.promises.readFile(file);
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
            ]);
            // A copy that is not smaller is not worth a header (the server falls back to the plain file).
            if (br.length < data.length) await fs.promises.writeFile(`${file}.br`, br);
            if (gz.length < data.length) await fs.promises.writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}

/**
 * After the browser's build, the server's rendering of the first screen: src/app/entry-server.tsx and everything it
 * imports, bundled whole (it runs from DIST_DIR, wherever that is, without node_modules) into <outDir>/.ssr, which
 * the server never serves (a dot folder) and the service worker never precaches. server/plugins/first-screen.ts loads
 * it when present.
 */
function ssrFirstScreen(): Plugin {
  let outDir = '';
  let root = '';
  let skip = false;
  return {
    name: 'vitrina-ssr-first-screen',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      skip = !!config.build.ssr;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (skip) return;
        const { build } = await import('vite');
        await build({
          configFile: false,
          root,
          mode: 'production',
          logLevel: 'warn',
          publicDir: false,
          plugins: [react(), mantineStableIds()],
          define: { 'process.env.NODE_ENV': JSON.stringify('production') },
          ssr: { noExternal: true, target: 'node' },
          build: {
            ssr: 'src/app/entry-server.tsx',
            outDir: path.join(outDir, '.ssr'),
            emptyOutDir: true,
            target: 'node20',
            minify: false,
            rolldownOptions: { output: { entryFileNames: 'entry-server.js' } },
          },
        });
      },
    },
  };
}

// The PWA build. The service worker is ours (sw/sw.ts, injectManifest): Workbox precaches the shell that
// Vite emits, and sw.ts adds the reference data and translations.
export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(buildId()) },
  // The photo worker (src/components/photo-uploader/photo-worker.ts) is a module worker that imports the face
  // detector on demand: a code-splitting build, which only the ES format allows.
  worker: { format: 'es' },
  plugins: [
    react(),
    // Mantine's ids without their re-render after mount (vite/mantine-stable-ids.ts).
    mantineStableIds(),
    // The embedded base map (issue 16), generated from es-atlas and world-atlas: assets/base-map-*.json.
    baseMapPlugin(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // Registered by src/app/sw-updates.ts (workbox-window): a new version waits for the visitor's choice.
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: {
        // Spain's base map is precached so every map works offline; the world's (other countries) is cached when used.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}', 'assets/base-map-es-*.json'],
        // The face search (the photo worker, face-api with TensorFlow.js: 2.2 MB, 0.35 MB gzipped; its .wasm and
        // weights are not matched anyway) is fetched only by people who upload photos, when the uploader opens, and
        // kept by the service worker from then on (sw/runtime-cache.ts, decision 0023): precaching it would make every
        // visitor download it at install.
        // MapLibre GL (a vector style, only when MAP_STYLE_URL is set) likewise: fetched by the maps that use it.
        globIgnores: [
          '**/photo-worker*.js',
          '**/face-api*.js',
          '**/face-detector*.js',
          '**/maplibre-gl*.js',
          '**/leaflet-maplibre-gl*.js',
          '**/maplibre-gl*.css',
          '.ssr/**',
        ],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      // One manifest for the four languages (docs/decisions/0013-one-web-app-manifest.md): the
      // scope is the whole site and start_url `/` opens the language the person chose last (its cookie), as the
      // root does on the web.
      manifest: {
        id: '/',
        name: 'Vitrina',
        short_name: 'Vitrina',
        description: 'Anuncios de modelos verificados en tu ciudad: búscalos, guárdalos y consúltalos también sin conexión.',
        lang: 'es',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        // The dark theme's body and header (Mantine's dark-7), so the splash screen and title bar match the first paint.
        background_color: '#242424',
        theme_color: '#242424',
        categories: ['lifestyle', 'social', 'business'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // Real screens of the app (taken with Playwright from the demo catalogue), shown by install dialogs.
        screenshots: [
          {
            src: '/screenshots/home-phone.webp',
            sizes: '824x1784',
            type: 'image/webp',
            form_factor: 'narrow',
            label: 'Anuncios verificados en el móvil',
          },
          {
            src: '/screenshots/home-desktop.webp',
            sizes: '1280x800',
            type: 'image/webp',
            form_factor: 'wide',
            label: 'El listado de anuncios en el escritorio',
          },
        ],
      },
      devOptions: { enabled: false },
    }),
    ssrFirstScreen(),
    precompress(),
    buildStamp(),
    preloadStartupChunks(),
  ],
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    // .vite/manifest.json (never served: a dot folder): the server links the landing screen's CSS and code from the
    // shell (server/plugins/first-screen.ts).
    manifest: true,
    modulePreload: {
      // A lazily loaded screen's own imports are left to the module graph (fetched once its chunk is read); only its
      // stylesheets are loaded with it, so that it never shows unstyled. Why:
      // - the landing screens' code is imported while the entry is evaluated (src/app/router.tsx preloadLandingScreen):
      //   preload links added then make the browser compile each dependency inside that one long task; left to the
      //   module graph, they are fetched and compiled in tasks of their own (a phone's Total Blocking Time);
      // - the other screens' lists of dependencies were 4 KB gzip of the entry, which every first visit loads
      //   (issue 27's 150 KB budget, decision 0029), for one round trip saved on a screen's first opening before the
      //   service worker has stored the app (it does some seconds after the first visit's page has loaded).
      resolveDependencies: (_url, deps) => deps.filter((d) => d.endsWith('.css')),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically is loaded on every first visit anyway: one chunk instead of a
          // dozen (each its own request and compression overhead on a phone's first visit).
          groups: [
            { name: 'app', tags: ['$initial'] },
            // libphonenumber on its own: left to the bundler, its shared modules went into the profile contract's
            // chunk, and the model page's phone formatting (src/features/models/lib/contact.ts) loaded and ran zod
            // and every profile schema with it (~20 ms on this machine, ~90 ms on a phone, during the page's start).
            { name: 'libphonenumber', test: /[\\/]node_modules[\\/]libphonenumber-js[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': API_TARGET,
      '/sanctum': API_TARGET,
      '/broadcasting': API_TARGET,
      '/app': { target: API_TARGET.replace('http', 'ws'), ws: true },
    },
  },
});
