/**
 * Serves the built PWA from DIST_DIR: hashed assets cached for a year, the shell, the service worker and the
 * manifest always revalidated, and every other non-API GET answered with index.html so client routes deep-link.
 *
 * The build writes a brotli (.br) and a gzip (.gz) copy beside every text file worth compressing (vite.config.ts,
 * precompress): @fastify/static's preCompressed picks the one the browser accepts (brotli first), with
 * `Content-Encoding` and `Vary: Accept-Encoding`, so no asset is compressed per request.
 *
 * The home and a model's page go out with their first screen's public answers and photo preloads in the shell
 * (first-screen.ts); that page is built per request and compressed like any dynamic answer.
 */
import fs from 'node:fs';
import { API_PREFIX } from '#contract/routes.ts';
import path from 'node:path';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { withPageViewer } from '../modules/ad-stats/ad-counter.ts';
import { sendError } from './errors.ts';
import { firstScreenPage, loadFirstScreenBuild } from './first-screen.ts';
import { peekSessionUser } from './session.ts';

/** Content-hashed by Vite: a new build gives a new name, so the old one can be kept for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export default fp<{ distDir: string }>(async (app, opts) => {
  const indexFile = path.join(opts.distDir, 'index.html');
  const hasDist = fs.existsSync(indexFile);
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      index: false,
      preCompressed: true,
      // The build's own folders (.vite/manifest.json, .ssr/: the server's renderer) are for the server, not the web.
      dotfiles: 'ignore',
      // @fastify/static 10 hands us the Fastify reply here, not the raw response. filePath may be the .br/.gz copy.
      setHeaders(reply: FastifyReply, filePath: string) {
        const rel = path.relative(opts.distDir, filePath);
        // Everything outside assets/ keeps its name across builds (index.html, sw.js, the manifest, icons): revalidated.
        reply.header('cache-control', rel.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
      },
    } as FastifyStaticOptions);
  } else {
    app.log.warn(`No built PWA in ${opts.distDir}: run "npm run build" (the API still works).`);
  }

  // Read once: a new build comes with a restart.
  const shellHtml = hasDist ? fs.readFileSync(indexFile, 'utf8') : '';
  const firstScreen = hasDist ? await loadFirstScreenBuild(app, opts.distDir) : undefined;
  // Through the static plugin, so the shell goes out precompressed too (setHeaders: no-cache).
  const sendShell = (_req: FastifyRequest, reply: FastifyReply) => reply.type('text/html; charset=utf-8').sendFile('index.html');
  // The directory root would be a 403 from the static plugin: it is the shell.
  if (hasDist) app.get('/', sendShell);

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    // /apps is Pusher's HTTP API (server/realtime/http-api.ts): a path it lacks is a JSON 404 there too, so that an
    // SDK's get() fails at once instead of "succeeding" with the PWA's HTML.
    const api = url.startsWith(API_PREFIX) || url === '/apps' || url.startsWith('/apps/');
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !api && !path.extname(url);
    if (wantsPage && hasDist) {
      // The first screen's answers are anonymous, but the advertisers' numbers must not count an owner's own page load
      // (ad-counter.ts, withPageViewer): who is signed in is looked up (pages only, not assets) and handed to the counting.
      // Read only: a page answer sets no cookie and does not slide the session.
      const viewer = req.method === 'GET' ? await peekSessionUser(app, req) : null;
      const page =
        req.method === 'GET' ? await withPageViewer(viewer, () => firstScreenPage(app, shellHtml, req.url, firstScreen)) : undefined;
      if (page) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
      return sendShell(req, reply);
    }
    return sendError(req, reply, 404, 'not_found');
  });
});
