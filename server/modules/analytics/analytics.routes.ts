/**
 * First-party analytics. The browser only calls these after the visitor accepted analytics cookies:
 *   POST /api/analytics/pageview      a page view (what is kept: page-views.ts)
 *   POST /api/analytics/contact-tap   a tap on a model page's call / WhatsApp button, for the ad's weekly numbers
 *                                     (counted in ad-stats: once per visitor, ad and kind an hour, never the owner's)
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactTapSchema, pageViewSchema } from '#contract/analytics.ts';
import { API } from '#contract/routes.ts';
import { recordContactTap } from '../ad-stats/ad-stats.service.ts';
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

  app.post(
    API.adContactTap,
    { schema: { body: contactTapSchema, response: { 204: z.null() } }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (req, reply) => {
      await recordContactTap(app, req.body, req.ip, req.user);
      return reply.status(204).send(null);
    },
  );
};
