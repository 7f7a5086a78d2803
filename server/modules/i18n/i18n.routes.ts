/** GET /api/language/{lng}: the translation object of one language (SPEC §7), as the client's i18next backend loads it. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API } from '#contract/routes.ts';
import { z } from 'zod';
import { isLanguage } from '#contract/languages.ts';
import { notFound } from '../../errors.ts';

/** A language's translation tree: nested objects of strings, as i18next reads them. */
const translationsSchema = z.record(z.string(), z.unknown());

export const i18nRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API.language(':lng'),
    { schema: { params: z.object({ lng: z.string().max(16) }), response: { 200: translationsSchema } } },
    async (req, reply) => {
      const { lng } = req.params;
      if (!isLanguage(lng)) throw notFound();
      // Short cache plus revalidation: a deploy with new strings must reach users quickly.
      reply.header('cache-control', 'public, max-age=300, stale-while-revalidate=86400');
      return app.locales[lng];
    },
  );
};
