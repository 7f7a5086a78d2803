/**
 * Forbidden-words check (SPEC §5, §7: POST /api/check-forbidden-words). Compiles the lists once when the app is
 * built and shares the matcher as `app.forbiddenWords`, which assertNoForbiddenWords uses on saving routes. The
 * route itself stores nothing; like every POST it still needs the XHR header and the CSRF token.
 */
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkForbiddenWordsSchema, forbiddenWordsResultSchema } from '#contract/forbidden-words.ts';
import { API } from '#contract/routes.ts';
import { checkText, compileForbiddenWords, type ForbiddenWordsMatcher } from './forbidden-words.ts';
import { loadForbiddenWordLists } from './forbidden-words.lists.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The compiled forbidden-words lists (built-in + FORBIDDEN_WORDS_FILE). */
    forbiddenWords: ForbiddenWordsMatcher;
  }
}

const plugin: FastifyPluginAsyncZod = async (app) => {
  // A bad list file must stop start-up: checking against nothing would let everything through.
  const matcher = compileForbiddenWords(loadForbiddenWordLists(app.config.forbiddenWordsFile));
  app.log.info({ terms: matcher.size, extraFile: app.config.forbiddenWordsFile ?? null }, 'forbidden words compiled');
  app.decorate('forbiddenWords', matcher);

  app.post(
    API.checkForbiddenWords,
    {
      schema: { body: checkForbiddenWordsSchema, response: { 200: forbiddenWordsResultSchema } },
      // Forms check on blur or while typing (debounced); more than one a second for a minute is a script
      // probing the lists.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (req) => checkText(req.body.text, app.forbiddenWords),
  );
};

/** fastify-plugin: the `forbiddenWords` decoration must be visible to the other modules' routes. */
export const forbiddenWordsRoutes = fp(plugin, { name: 'forbidden-words' });
