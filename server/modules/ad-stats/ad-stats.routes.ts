/**
 * Advertisers' numbers (issue 28, contract/ad-stats.ts):
 *   GET /api/ad-stats?weeks=8   the signed-in model's ads, or the publicist's models' ads, per ISO week
 * The counting itself happens where the ads are served (listings.service.ts) and tapped (analytics module), through
 * ad-counter.ts; this plugin also starts that counter's flush with the app.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adStatsListSchema, adStatsQuerySchema } from '#contract/ad-stats.ts';
import { API } from '#contract/routes.ts';
import { requireUser } from '../../plugins/session.ts';
import { adStatsCounter } from './ad-counter.ts';
import { adStatsOf } from './ad-stats.service.ts';

export const adStatsRoutes: FastifyPluginAsyncZod = async (app) => {
  adStatsCounter(app);

  app.get(
    API.adStats,
    {
      schema: { querystring: adStatsQuerySchema, response: { 200: adStatsListSchema } },
      config: { auth: { roles: ['model', 'publicist'] } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await adStatsOf(app.db, requireUser(req).id, req.query.weeks) };
    },
  );
};
