/**
 * Browse (SPEC §7): GET /api/models (search, city, section, page → data + meta), a model's page
 * (GET /api/models/{id}), the gallery (GET /api/getImagesByAd/{ad}), a user's cover picture
 * (GET /api/getCoverImage/{userId}) and the promoted placements (GET /api/fetchAllPublicityAds).
 * The work, and the few seconds' cache of the listing answers, is in listings.service.ts.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import {
  imageSchema,
  modelDetailSchema,
  modelListSchema,
  modelsMapQuerySchema,
  modelsMapSchema,
  modelsQuerySchema,
  publicityAdSchema,
} from '#contract/listings.ts';
import { API } from '#contract/routes.ts';
import { z } from 'zod';
import { adViewOf } from '../ad-stats/ad-counter.ts';
import { adGallery, coverImageOf, createListings, publicityAds } from './listings.service.ts';

/** Already-serialized JSON: Fastify sends a Buffer as it is, past the route's serializer. */
function sendJsonBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes);
}

export const listingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const listings = createListings(app);

  app.get(
    API.models,
    {
      // The schema documents the answer; the body is sent as bytes assembled from the cards' JSON (card-cache.ts),
      // past any serializer.
      schema: { querystring: modelsQuerySchema, response: { 200: modelListSchema } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'public, max-age=5');
      return sendJsonBytes(reply, await listings.models(req.query, req.lang, adViewOf(req)));
    },
  );

  // Registered before /api/models/:id would not matter (a static segment wins), but it reads better next to the listing.
  app.get(API.modelsMap, { schema: { querystring: modelsMapQuerySchema, response: { 200: modelsMapSchema } } }, async (req, reply) => {
    reply.header('cache-control', 'public, max-age=5');
    const answer = await listings.modelsMap(req.query, (body) => reply.serialize(body) as string);
    return Buffer.isBuffer(answer) ? sendJsonBytes(reply, answer) : answer;
  });

  app.get(API.model(':id'), { schema: { params: idParamsSchema, response: { 200: modelDetailSchema } } }, async (req) => ({
    data: await listings.model(req.params.id, req.lang, adViewOf(req)),
  }));

  app.get(
    API.imagesByAd(':id'),
    { schema: { params: idParamsSchema, response: { 200: dataOf(z.array(imageSchema)) } } },
    async (req, reply) => {
      const { images, listed } = await adGallery(app.db, app.storage, req.user, req.params.id);
      if (!listed) reply.header('cache-control', 'private, no-store');
      return { data: images };
    },
  );

  app.get(
    API.coverImage(':id'),
    { schema: { params: idParamsSchema, response: { 200: dataOf(imageSchema.nullable()) } } },
    async (req) => ({
      data: await coverImageOf(app.db, app.storage, req.params.id, req.lang),
    }),
  );

  app.get(API.publicityAds, { schema: { response: { 200: dataOf(z.array(publicityAdSchema)) } } }, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return { data: await publicityAds(app.db, app.storage) };
  });
};
