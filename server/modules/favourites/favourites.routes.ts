/**
 * Favourites (issue 28, contract/favourites.ts):
 *   GET    /api/favourites              the signed-in user's, newest first, each with its ad's state now
 *   PUT    /api/favourites/{adId}       save a listed ad (idempotent; 404 for an ad the listing does not show, 422 past
 *                                      MAX_FAVOURITES); Idempotency-Key honoured (the outbox replays it)
 *   DELETE /api/favourites/{adId}       remove (idempotent: one that is not there is a success)
 *   POST   /api/favourites/merge        a visitor's device favourites into the account, after sign-in
 *   GET    /api/favourites/states?ids=  public: the state of ads named by id (device favourites, recent views)
 * Only the owner's own list is ever read or written: no route names another user.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { successSchema } from '#contract/answers.ts';
import {
  favouriteListSchema,
  favouriteParamsSchema,
  favouriteSavedAnswerSchema,
  favouritesMergedAnswerSchema,
  favouritesMergeSchema,
  favouriteStatesQuerySchema,
  favouriteStatesSchema,
  type Favourite,
} from '#contract/favourites.ts';
import { API } from '#contract/routes.ts';
import { ok } from '../../answers.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser } from '../../plugins/session.ts';
import { favouriteStates, listFavourites, mergeFavourites, removeFavourite, saveFavourite } from './favourites.service.ts';

const SIGNED_IN = { auth: true as const };

export const favouritesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, storage } = app;

  app.get(API.favourites, { schema: { response: { 200: favouriteListSchema } }, config: SIGNED_IN }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { data: await listFavourites(db, storage, requireUser(req).id, req.lang) };
  });

  // Registered before `{adId}`'s GET would be (there is none): a short public cache, as the listing's answers have.
  app.get(
    API.favouriteStates,
    { schema: { querystring: favouriteStatesQuerySchema, response: { 200: favouriteStatesSchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'public, max-age=30');
      reply.header('vary', 'X-Locale, Accept-Language, Cookie');
      return { data: await favouriteStates(db, storage, req.query.ids, req.lang) };
    },
  );

  app.put(
    API.favourite(':adId'),
    { schema: { params: favouriteParamsSchema, response: { 200: favouriteSavedAnswerSchema } }, config: SIGNED_IN },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (item: Favourite) => ok(req, 'favourites.api.saved', item));
      return once.send(await saveFavourite(db, storage, requireUser(req).id, req.params.adId, req.lang, once.commit));
    },
  );

  app.delete(
    API.favourite(':adId'),
    { schema: { params: favouriteParamsSchema, response: { 200: successSchema } }, config: SIGNED_IN },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, () => ok(req, 'favourites.api.removed'));
      await removeFavourite(db, requireUser(req).id, req.params.adId, once.commit);
      return once.send(null);
    },
  );

  app.post(
    API.favouritesMerge,
    { schema: { body: favouritesMergeSchema, response: { 200: favouritesMergedAnswerSchema } }, config: SIGNED_IN },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (items: Favourite[]) => ok(req, 'favourites.api.merged', items));
      return once.send(await mergeFavourites(db, storage, requireUser(req).id, req.body.favourites, req.lang, once.commit));
    },
  );
};
