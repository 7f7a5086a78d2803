/**
 * First-party page views. The browser only calls this after the visitor accepted analytics cookies; we keep
 * the path, the language and the referrer's host (never the full referrer, the IP or a user id).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageViewSchema } from '#contract/analytics.ts';
import { API } from '#contract/routes.ts';
import { pageViews } from '../../db/schema.ts';

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host.slice(0, 255) || null;
  } catch {
    return null;
  }
}

export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    API.pageView,
    { schema: { body: pageViewSchema }, config: { rateLimit: { max: 120, timeWindow: '1 minute' } } },
    async (req, reply) => {
      await app.db.insert(pageViews).values({ path: req.body.path, language: req.lang, referrerHost: hostOf(req.body.referrer) });
      return reply.status(204).send();
    },
  );
};
