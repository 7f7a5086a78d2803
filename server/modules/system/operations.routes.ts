/**
 * For load balancers and orchestrators: GET /api/health says the process is alive (no dependency is touched, so a
 * slow database never gets a healthy process restarted), GET /api/ready says whether it can serve (readiness.ts):
 * 200, or 503, in the answer envelope. Neither needs X-Requested-With (security.ts).
 *
 * Both answer anyone, so neither says more than a balancer needs (issue 24 D): health says ok/degraded, ready its
 * status code and status. Which parts were checked, which fail and how long each took go only to operators: with
 * `Authorization: Bearer $METRICS_TOKEN`, or on the metrics listener (metrics.ts, METRICS_PORT).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API } from '#contract/routes.ts';
import { healthSchema, readyAnswerSchema, type Readiness } from '#contract/system.ts';
import { bearerMatches } from '../../plugins/metrics.ts';

/** What anyone is told of the readiness: its status only. */
const publicReadiness = (r: Readiness) => ({ status: r.status });

export const operationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API.health,
    { schema: { summary: 'Liveness: the process answers', tags: ['operations'], response: { 200: healthSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      // What the process already knows (its Redis connections' state), so liveness still touches nothing.
      if (app.sharedRedis && !app.sharedRedis.up) return { status: 'degraded' as const };
      return { status: 'ok' as const };
    },
  );

  app.get(
    API.ready,
    {
      schema: {
        summary: 'Readiness: database, Redis (when configured) and storage usable',
        description:
          'The status code and `data.status` for anyone (load balancers). The parts (`failing`, `degraded`, `checks`) ' +
          'only with `Authorization: Bearer $METRICS_TOKEN` (or on the metrics port); the reasons are logged, never answered.',
        tags: ['operations'],
        response: { 200: readyAnswerSchema, 503: readyAnswerSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const readiness = await app.readiness.run(req.log);
      const token = app.config.metrics.token;
      const operator = !!token && bearerMatches(req.headers.authorization, token);
      const data = operator ? readiness : publicReadiness(readiness);
      if (readiness.status !== 'unavailable')
        return { channel: 'notification' as const, type: 'success' as const, message: req.t('operations.ready'), data };
      return reply.status(503).send({
        channel: 'notification' as const,
        type: 'error' as const,
        message: operator ? req.t('operations.notReady', { parts: readiness.failing.join(', ') }) : req.t('errors.service_unavailable'),
        error: 'service_unavailable',
        data,
      });
    },
  );
};
