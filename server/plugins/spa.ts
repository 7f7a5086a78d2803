/**
 * Serves the built PWA from DIST_DIR: hashed assets cached for a year, the shell and the service worker
 * always revalidated, and every other non-API GET answered with index.html so client routes deep-link.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic, { type FastifyStaticOptions } from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.ts';

export default fp<{ distDir: string }>(async (app, opts) => {
  const indexFile = path.join(opts.distDir, 'index.html');
  const hasDist = fs.existsSync(indexFile);
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      index: false,
      // @fastify/static 10 hands us the Fastify reply here, not the raw response.
      setHeaders(reply: FastifyReply, filePath: string) {
        const rel = path.relative(opts.distDir, filePath);
        if (rel.startsWith(`assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'no-cache');
      },
    } as FastifyStaticOptions);
  } else {
    app.log.warn(`No built PWA in ${opts.distDir}: run "npm run build" (the API still works).`);
  }

  const sendShell = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await fs.promises.readFile(indexFile));
  // The directory root would be a 403 from the static plugin: it is the shell.
  if (hasDist) app.get('/', sendShell);

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !url.startsWith('/api/') && !path.extname(url);
    if (wantsPage && hasDist) {
      return sendShell(req, reply);
    }
    return sendError(req, reply, 404, 'not_found');
  });
});
