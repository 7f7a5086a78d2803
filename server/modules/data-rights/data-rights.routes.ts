/**
 * Data rights (GDPR arts. 15, 17, 20):
 *   POST /api/user/data-export          ask for an archive of everything held about the caller (202; 429 while one is
 *                                       being built or after DATA_EXPORTS_PER_DAY in 24 h)
 *   GET  /api/user/data-export          its state: none | pending | ready (with the signed link) | failed
 *   GET  /data-export/{id}/{expires}/{signature}.zip   the archive, to its owner's session only, until it expires
 * The download lives outside /api so a plain link can fetch it (no XHR header); the signature, the expiry and the
 * session are all checked.
 *   DELETE /api/profile/delete/{id}     erasure (art. 17): one's own account, or staff removing one (account-deletion.ts)
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successSchema } from '#contract/answers.ts';
import { dataExportRequestedSchema, dataExportStateSchema } from '#contract/data-rights.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import { ok } from '../../answers.ts';
import { AppError } from '../../errors.ts';
import { authenticate, requireUser } from '../../plugins/session.ts';
import { deleteAccount } from './account-deletion.ts';
import {
  buildExport,
  latestExport,
  openDownload,
  purgeExpiredExports,
  requestDataExport,
  toState,
  type ExportDeps,
} from './data-export.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Export builds running in this process (tests await them; shutdown waits for them). */
    dataExportJobs: Set<Promise<void>>;
  }
}

const downloadParams = z.object({
  id: z.string().regex(/^[1-9]\d{0,9}$/),
  expires: z.string().regex(/^\d{1,12}$/),
  file: z.string().regex(/^[0-9a-f]{64}\.zip$/),
});

function exportDeps(app: FastifyInstance): ExportDeps {
  return { db: app.db, storage: app.storage, appKey: app.config.appKey, log: app.log, tFor: app.tFor, appUrl: app.config.appUrl };
}

/** Starts the job once the answer has gone; a durable queue can take this place later. */
function startBuild(app: FastifyInstance, reply: FastifyReply, exportId: number) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const job = buildExport(exportDeps(app), exportId).finally(() => app.dataExportJobs.delete(job));
    app.dataExportJobs.add(job);
  };
  // 'close' too: a client that hangs up before the answer is sent still gets its archive built.
  reply.raw.once('finish', start);
  reply.raw.once('close', start);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.decorate('dataExportJobs', new Set<Promise<void>>());
  app.addHook('onClose', async () => {
    await Promise.allSettled([...app.dataExportJobs]);
  });
  // Expired archives leave storage at start-up and hourly (and before each new request).
  app.addHook('onReady', async () => {
    await purgeExpiredExports(exportDeps(app));
  });
  // Hourly on one node (a recurring job, modules/jobs).
  app.jobs.every('purge-data-exports', 60 * 60 * 1000, (now) => purgeExpiredExports(exportDeps(app), now));

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

  app.get(API.dataExport, { config: { auth: true }, schema: { response: { 200: dataExportStateSchema } } }, async (req, reply) => {
    const user = requireUser(req);
    noStore(reply);
    return toState(app.config.appKey, await latestExport(app.db, user.id));
  });

  app.post(API.dataExport, { config: { auth: true }, schema: { response: { 202: dataExportRequestedSchema } } }, async (req, reply) => {
    const user = requireUser(req);
    noStore(reply);
    let row;
    try {
      row = await requestDataExport(exportDeps(app), user.id);
    } catch (err) {
      // The error answer says how long to wait in `data.retry_after`; the header says it to HTTP clients.
      const wait = err instanceof AppError ? (err.data as { retry_after?: number } | undefined)?.retry_after : undefined;
      if (wait) reply.header('retry-after', wait);
      throw err;
    }
    startBuild(app, reply, row.id);
    return reply.status(202).send({ ...ok(req, 'dataRights.export.requested', toState(app.config.appKey, row)), type: 'info' as const });
  });

  app.delete(
    API.accountDelete(':id'),
    { config: { auth: true }, schema: { params: idParamsSchema, response: { 200: successSchema } } },
    async (req, reply) => {
      const whose = await deleteAccount(app, req, reply, req.params.id);
      // One's own account gone, the session is too: back to the home page.
      return ok(req, 'accountApi.accountDeleted', undefined, whose === 'own' ? { redirect: '/' } : {});
    },
  );

  app.get(API.dataExportDownloadPattern, async (req, reply) => {
    const gone = (status: number) =>
      reply
        .status(status)
        .header('cache-control', 'no-store')
        .type('text/plain')
        .send(status === 410 ? 'Gone' : 'Not found');
    const params = downloadParams.safeParse(req.params);
    if (!params.success) return gone(404);
    await authenticate(app, req, reply);
    if (!req.user) return gone(404);
    const outcome = await openDownload(exportDeps(app), req.user.id, {
      id: Number(params.data.id),
      expires: Number(params.data.expires),
      signature: params.data.file.slice(0, -'.zip'.length),
    });
    if (outcome.status !== 200) return gone(outcome.status);
    const { file, filename } = outcome;
    return reply
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('content-length', file.size)
      .type('application/zip')
      .send(file.stream);
  });
};

/** Not encapsulated: `app.dataExportJobs` is seen from the root instance (tests and shutdown wait on it). */
export const dataRightsRoutes = fp(routes, { name: 'data-rights' });
