/**
 * Operations and the browser's runtime configuration.
 *
 * For load balancers and orchestrators: GET /api/health says the process is alive (no dependency is touched, so a
 * slow database never gets a healthy process restarted), GET /api/ready says whether it can serve (readiness.ts):
 * 200, or 503, in the answer envelope. Neither needs X-Requested-With (security.ts).
 *
 * Both answer anyone, so neither says more than a balancer needs (issue 24 D): health says ok/degraded, ready its
 * status code and status. Which parts were checked, which fail and how long each took go only to operators: with
 * `Authorization: Bearer $METRICS_TOKEN`, or on the metrics listener (metrics.ts, METRICS_PORT).
 *
 * GET /api/config: the public runtime configuration of the browser (no secrets).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigSchema, type PublicConfig } from '#contract/config.ts';
import { LANGUAGES } from '#contract/languages.ts';
import { API } from '#contract/routes.ts';
import { healthSchema, readyAnswerSchema, type Readiness } from '#contract/system.ts';
import { ok } from '../../answers.ts';
import type { Config } from '../../config.ts';
import { bearerMatches } from '../../plugins/metrics.ts';

/** What anyone is told of the readiness: its status only. */
const publicReadiness = (r: Readiness) => ({ status: r.status });

/**
 * Where the browser's pusher-js connects: the app's own origin (APP_URL) with the embedded server, the configured
 * server with the `pusher` driver. Only the key: never the app id or the secret.
 */
function browserRealtime(config: Config): PublicConfig['realtime'] {
  const { realtime } = config;
  if (realtime.driver === 'pusher')
    return { key: realtime.key, host: realtime.host!, port: realtime.port!, force_tls: realtime.scheme === 'https' };
  const url = new URL(config.appUrl);
  const tls = url.protocol === 'https:';
  return { key: realtime.key, host: url.hostname, port: url.port ? Number(url.port) : tls ? 443 : 80, force_tls: tls };
}

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
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
      if (readiness.status !== 'unavailable') return ok(req, 'operations.ready', data);
      // Built here, not thrown: serviceUnavailable() takes neither the readiness as data nor the failing parts' names.
      return reply.status(503).send({
        channel: 'notification' as const,
        type: 'error' as const,
        message: operator ? req.t('operations.notReady', { parts: readiness.failing.join(', ') }) : req.t('errors.service_unavailable'),
        error: 'service_unavailable',
        data,
      });
    },
  );

  app.get(API.config, { schema: { response: { 200: publicConfigSchema } } }, async () => ({
    app_name: 'Vitrina',
    languages: [...LANGUAGES],
    realtime: browserRealtime(app.config),
    push: { vapid_public_key: app.config.push.vapid.publicKey },
    // Only the URLs and attribution the browser needs (issue 16); absent: the embedded base map.
    ...(app.config.map
      ? { map: { style_url: app.config.map.styleUrl, tiles_url: app.config.map.tilesUrl, attribution: app.config.map.attribution } }
      : {}),
  }));
};
