/**
 * First-party page views. The browser only calls this after the visitor accepted analytics cookies; what is kept is
 * decided in page-views.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageViewSchema } from '#contract/analytics.ts';
import { API } from '#contract/routes.ts';
import { recordPageView } from './page-views.ts';

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    API.pageView,
    { schema: { body: pageViewSchema }, config: { rateLimit: { max: 120, timeWindow: '1 minute' } } },
    async (req, reply) => {
      await recordPageView(app.db, req.body, req.lang);
      return reply.status(204).send();
    },
  );
};
