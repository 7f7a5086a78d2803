/**
 * For load balancers and orchestrators: GET /api/health says the process is alive (no dependency is touched, so a
 * slow database never gets a healthy process restarted), GET /api/ready says whether it can serve (readiness.ts):
 * 200, or 503 naming the parts that fail, in the answer envelope. Neither needs X-Requested-With (security.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API } from '#contract/routes.ts';
import { healthSchema, readyAnswerSchema } from '#contract/system.ts';

export const operationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API.health,
    { schema: { summary: 'Liveness: the process answers', tags: ['operations'], response: { 200: healthSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      // What the process already knows (its Redis connections' state), so liveness still touches nothing.
      if (app.sharedRedis && !app.sharedRedis.up) return { status: 'degraded' as const, degraded: ['redis'], database: app.dbKind };
      return { status: 'ok' as const, database: app.dbKind };
    },
  );

  app.get(
    API.ready,
    {
      schema: {
        summary: 'Readiness: database, Redis (when configured) and storage usable',
        description: '503 names the failing parts in `data.failing`; the reasons are logged, never answered.',
        tags: ['operations'],
        response: { 200: readyAnswerSchema, 503: readyAnswerSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const readiness = await app.readiness.run(req.log);
      if (readiness.status !== 'unavailable')
        return { channel: 'notification' as const, type: 'success' as const, message: req.t('operations.ready'), data: readiness };
      return reply.status(503).send({
        channel: 'notification' as const,
        type: 'error' as const,
        message: req.t('operations.notReady', { parts: readiness.failing.join(', ') }),
        error: 'service_unavailable',
        data: readiness,
      });
    },
  );
};
