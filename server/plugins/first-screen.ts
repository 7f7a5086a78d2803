/**
 * The first screen's data inside the page (issue 13 point 2): for the home (`/{lng}`, no query) and a model's page
 * (`/{lng}/models/{id}`) the shell goes out with the public answers that screen asks for first, as a JSON data block
 * (`<script type="application/json" id="first-screen">`, read by src/lib/first-screen.ts), and a preload of the
 * photo that will be the largest paint. On a phone the photo then loads while the JavaScript does, and the screen
 * renders as soon as its code has run instead of after another round trip for its data.
 *
 * Only public listing answers go in, asked as an anonymous visitor would ask them (no cookie of the request is
 * passed on): the page may be kept by caches and the answers are the same for everyone. Each answer is produced by
 * the API route itself (app.inject), so it is exactly what the client would have fetched. A failing or slow answer
 * is simply left out: the client then fetches it as usual.
 *
 * The home is also rendered here, with the build's own components (DIST_DIR/.ssr/entry-server.js, made by the build
 * from src/app/entry-server.tsx) and those same answers, and the browser hydrates over that markup: the page and its
 * photos paint before the JavaScript has arrived. Without that file (a build from before it, the tests) or if
 * rendering fails, the page goes out with the data block only.
 *
 * A rendered page links its stylesheets in the head, as the shell does: its first paint waits for them. Until
 * 2026-11-29 it carried inline the rules its markup used (Beasties) and linked the whole stylesheets after the markup,
 * so that the first paint waited for the page alone; but the whole stylesheets, arriving after that paint, made the
 * browser match every element again, in a task of its own that Lighthouse counted as blocking time. Measured side by
 * side (docs/decisions/0030-stylesheets-in-the-head.md): Total Blocking Time fell from ~190 to ~60 ms (home) and from
 * ~150 to ~35 ms (model page) at a later first paint (+0.35 s simulated) and the same largest paint. The theme script
 * stays inline, allowed by its hash in the CSP (themeInitHash, server/app.ts).
 */
import { createHash } from 'node:crypto';
import { API } from '#contract/routes.ts';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { isLanguage, toLocaleTag } from '#contract/languages.ts';

export const FIRST_SCREEN_ID = 'first-screen';
/** An answer that takes longer than this is not worth holding the page for. */
const ANSWER_TIMEOUT_MS = 1500;

interface Preload {
  href: string;
  srcset?: string;
  sizes: string;
}

interface Plan {
  lng: string;
  /** The screen's module, as Vite's manifest names it: its CSS and code are linked from the page. */
  screen: string;
  /** Rendered on the server too (when the build has the renderer). */
  render: boolean;
  /** API paths, exactly as the client asks for them (the block is keyed by them). */
  paths: string[];
  /** The photos to preload, from the answers. */
  preloads: (answers: Record<string, unknown>) => Preload[];
}

interface Cover {
  url?: unknown;
  srcset?: unknown;
}
const asCover = (c: unknown): Preload | undefined => {
  const { url, srcset } = (c ?? {}) as Cover;
  return typeof url === 'string' ? { href: url, srcset: typeof srcset === 'string' ? srcset : undefined, sizes: '' } : undefined;
};
const listOf = (answer: unknown): unknown[] => {
  const data = (answer as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? data : [];
};

/** Must equal the `sizes` of the home's cards (model-card.tsx) and the gallery's slide (model-gallery.tsx). */
export const CARD_SIZES = '(min-width: 62em) 20vw, (min-width: 35.5em) 30vw, 48vw';
export const SLIDE_SIZES = '(min-width: 75em) 688px, (min-width: 48em) 55vw, 100vw';
/** The home's first row on a phone (two columns): its photos are the largest paint. */
const HOME_PRELOADS = 2;

function planFor(pathname: string, search: string): Plan | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const lng = parts[0];
  if (!isLanguage(lng)) return undefined;
  // The home with a query (a search, a city) is someone's own listing: asked for by the client as usual.
  if (parts.length === 1 && !search) {
    const models = `${API.models}?`;
    return {
      lng,
      screen: 'src/features/listings/routes/home.tsx',
      render: true,
      paths: [models, API.sections, API.publicityAds],
      preloads: (answers) =>
        listOf(answers[models])
          .slice(0, HOME_PRELOADS)
          .map((m) => asCover((m as { cover?: unknown }).cover))
          .filter((p): p is Preload => !!p)
          .map((p) => ({ ...p, sizes: CARD_SIZES })),
    };
  }
  if (parts.length === 3 && parts[1] === 'models' && /^[1-9]\d{0,9}$/.test(parts[2]!)) {
    const images = API.imagesByAd(parts[2]!);
    return {
      lng,
      screen: 'src/features/models/routes/model-show.tsx',
      render: true,
      paths: [API.model(parts[2]!), images],
      preloads: (answers) =>
        listOf(answers[images])
          .slice(0, 1)
          .map(asCover)
          .filter((p): p is Preload => !!p)
          .map((p) => ({ ...p, sizes: SLIDE_SIZES })),
    };
  }
  return undefined;
}

/** JSON that cannot end the <script> element or start a comment in it: `<`, `>` and `&` as \u escapes. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

async function answer(app: FastifyInstance, lng: string, path: string): Promise<unknown> {
  const res = await app.inject({
    method: 'GET',
    url: path,
    headers: { 'x-requested-with': 'XMLHttpRequest', 'x-locale': lng, accept: 'application/json' },
  });
  if (res.statusCode !== 200 || !String(res.headers['content-type'] ?? '').includes('json')) return undefined;
  return res.json();
}

/** The build's server renderer (src/app/entry-server.tsx, built to DIST_DIR/.ssr/entry-server.js). */
export interface FirstScreenRenderer {
  renderFirstScreen(input: {
    url: string;
    lng: string;
    translations: Record<string, unknown>;
    answers: Record<string, unknown>;
  }): Promise<string | undefined>;
}

/** What the build offers: the server renderer, and the files of each screen (from Vite's manifest). */
export interface FirstScreenBuild {
  renderer?: FirstScreenRenderer;
  /** A screen's stylesheets and code (its chunk and the chunks it imports), for links in the page's head. */
  files(screen: string): { css: string[]; js: string[] };
  /** public/theme-init.js as built, to inline. */
  themeInit?: string;
  /** public/app-start.js as built, to inline in place of the entry script of a server-rendered screen. */
  appStart?: string;
}

const THEME_INIT_TAG = '<script src="/theme-init.js"></script>';
function inlineHash(distDir: string, name: string): string | undefined {
  const file = path.join(distDir, name);
  if (!fs.existsSync(file)) return undefined;
  return `'sha256-${createHash('sha256').update(fs.readFileSync(file, 'utf8')).digest('base64')}'`;
}

/** The CSP source that allows the inlined theme script, when the build has one. */
export function themeInitHash(distDir: string): string | undefined {
  return inlineHash(distDir, 'theme-init.js');
}

/** The CSP source that allows the inlined app start script (public/app-start.js), when the build has one. */
export function appStartHash(distDir: string): string | undefined {
  return inlineHash(distDir, 'app-start.js');
}

/** The page with `lang` on its <html> element, unless it has one (comments, which may mention the tag, skipped). */
export function withLang(page: string, tag: string): string {
  let done = false;
  return page.replace(/<!--[\s\S]*?-->|<html\b[^>]*>/g, (m) => {
    if (done || m.startsWith('<!--')) return m;
    done = true;
    return /\slang=/.test(m) ? m : m.replace('<html', `<html lang="${attr(tag)}"`);
  });
}

/** The entry script Vite writes into the shell, and the modulepreload links of the shell and the screen. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
const MODULEPRELOAD_LINK = /<link rel="modulepreload"[^>]*>/g;

export const ROOT_ELEMENT = '<div id="root"></div>';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** Reads the build's renderer and manifest, when the build has them; what does not load is left out (logged). */
export async function loadFirstScreenBuild(app: FastifyInstance, distDir: string): Promise<FirstScreenBuild> {
  let manifest: Record<string, ManifestChunk> = {};
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    // A build without a manifest: the screen's files are found by the app as usual.
  }
  const files = (screen: string) => {
    const css = new Set<string>();
    const js = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      // The entry's own files are in the shell already.
      if (!chunk || chunk.isEntry || js.has(chunk.file)) return;
      js.add(chunk.file);
      for (const c of chunk.css ?? []) css.add(c);
      for (const i of chunk.imports ?? []) visit(i);
    };
    visit(screen);
    return { css: [...css], js: [...js] };
  };
  let renderer: FirstScreenRenderer | undefined;
  const file = path.join(distDir, '.ssr', 'entry-server.js');
  if (fs.existsSync(file)) {
    try {
      const mod = (await import(pathToFileURL(file).href)) as Partial<FirstScreenRenderer>;
      if (typeof mod.renderFirstScreen === 'function') renderer = mod as FirstScreenRenderer;
    } catch (err) {
      app.log.warn({ err }, 'first screen: the server renderer did not load; pages go out without it');
    }
  }
  let appStart: string | undefined;
  try {
    appStart = fs.readFileSync(path.join(distDir, 'app-start.js'), 'utf8');
  } catch {
    // Without it the entry script stays as Vite wrote it.
  }
  let themeInit: string | undefined;
  try {
    themeInit = fs.readFileSync(path.join(distDir, 'theme-init.js'), 'utf8');
  } catch {
    // Linked as the shell has it.
  }
  return { renderer, files, themeInit, appStart };
}

/** Rendered markup by URL and answers: the same answers (the listing's micro-cache) give the same markup. */
const rendered = new Map<string, string>();
const RENDERED_MAX = 50;

/**
 * The shell with the first screen's answers and photo preloads in it, and for the home its server-rendered markup,
 * or undefined when the URL has no first screen of ours or nothing could be added.
 */
export async function firstScreenPage(
  app: FastifyInstance,
  shell: string,
  url: string,
  build?: FirstScreenBuild,
): Promise<string | undefined> {
  const [pathname = '/', search = ''] = url.split('?', 2);
  const plan = planFor(pathname.replace(/\/+$/, '') || '/', search);
  if (!plan) return undefined;
  const answers: Record<string, unknown> = {};
  const timeout = delay(ANSWER_TIMEOUT_MS, undefined, { ref: false });
  await Promise.all(
    plan.paths.map(async (path) => {
      const value = await Promise.race([answer(app, plan.lng, path).catch(() => undefined), timeout]);
      if (value !== undefined) answers[path] = value;
    }),
  );
  if (!Object.keys(answers).length) return undefined;
  const preloads = plan
    .preloads(answers)
    .map(
      (p) =>
        `<link rel="preload" as="image" href="${attr(p.href)}"${p.srcset ? ` imagesrcset="${attr(p.srcset)}" imagesizes="${attr(p.sizes)}"` : ''} fetchpriority="high" />`,
    )
    .join('');
  const block = `<script type="application/json" id="${FIRST_SCREEN_ID}">${jsonForHtml({ lng: plan.lng, answers })}</script>`;
  // The screen's stylesheets before its markup paints (else the server-rendered cards would move when they arrive),
  // and its code fetched with the entry's instead of after it.
  const files = build?.files(plan.screen) ?? { css: [], js: [] };
  const links =
    files.css.map((f) => `<link rel="stylesheet" crossorigin href="/${attr(f)}" />`).join('') +
    files.js.map((f) => `<link rel="modulepreload" crossorigin href="/${attr(f)}" />`).join('');
  const at = shell.indexOf('</head>');
  if (at < 0) return undefined;
  let page = `${shell.slice(0, at)}${preloads}${links}${block}${shell.slice(at)}`;
  if (build?.themeInit && !build.themeInit.includes('</script')) page = page.replace(THEME_INIT_TAG, `<script>${build.themeInit}</script>`);
  const markup = plan.render && build?.renderer ? await renderScreen(app, build, plan, url, answers) : undefined;
  if (markup !== undefined) {
    page = page.replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`);
    // The page reads in its language before the app sets it (the shell has none: see index.html).
    if (isLanguage(plan.lng)) page = withLang(page, toLocaleTag(plan.lng));
    const entry = build?.appStart && !build.appStart.includes('</script') ? ENTRY_SCRIPT.exec(page) : null;
    if (entry) {
      // The screen is readable without the app: its code is fetched after the photos (public/app-start.js).
      page = page.replace(ENTRY_SCRIPT, '').replace(MODULEPRELOAD_LINK, '');
      page = page.replace('</body>', () => `<script data-entry="${attr(entry[1]!)}">${build!.appStart}</script></body>`);
    }
  }
  return page;
}

async function renderScreen(
  app: FastifyInstance,
  build: FirstScreenBuild,
  plan: Plan,
  url: string,
  answers: Record<string, unknown>,
): Promise<string | undefined> {
  const renderer = build.renderer!;
  // Every answer the screen needs, or the browser would render something else than the server did.
  if (plan.paths.some((p) => !(p in answers))) return undefined;
  // In the plan's order: `answers` is filled in the order the answers arrived, which varies from call to call.
  const key = createHash('sha256')
    .update(url)
    .update('\0')
    .update(JSON.stringify(plan.paths.map((p) => answers[p])))
    .digest('base64');
  const cached = rendered.get(key);
  if (cached !== undefined) return cached;
  const translations = await answer(app, plan.lng, API.language(plan.lng)).catch(() => undefined);
  if (!translations || typeof translations !== 'object') return undefined;
  try {
    const timeout = delay(ANSWER_TIMEOUT_MS, undefined, { ref: false });
    const html = await Promise.race([
      renderer.renderFirstScreen({ url, lng: plan.lng, translations: translations as Record<string, unknown>, answers }),
      timeout,
    ]);
    if (html === undefined) return undefined;
    if (rendered.size >= RENDERED_MAX) rendered.delete(rendered.keys().next().value!);
    rendered.set(key, html);
    return html;
  } catch (err) {
    app.log.warn({ err, url }, 'first screen: server rendering failed; the page goes out without it');
    return undefined;
  }
}
