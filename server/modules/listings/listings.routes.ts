/**
 * Browse (SPEC §7): GET /api/models (search, city, section, page → data + meta), a model's page
 * (GET /api/models/{id}), the gallery (GET /api/getImagesByAd/{ad}), a user's cover picture
 * (GET /api/getCoverImage/{userId}) and the promoted placements (GET /api/fetchAllPublicityAds).
 * Listing answers are micro-cached for a few seconds (visitors hammer the same first pages); any catalogue change made
 * through this process empties the cache at once (plugins/catalogue.ts).
 */
import { and, asc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import { idParamsSchema } from '#contract/locations.ts';
import {
  imageSchema,
  modelDetailSchema,
  modelListSchema,
  modelsMapQuerySchema,
  modelsMapSchema,
  modelsQuerySchema,
  publicityAdSchema,
  type ModelList,
  type ModelsMap,
} from '#contract/listings.ts';
import { API } from '#contract/routes.ts';
import { z } from 'zod';
import { media, publicityAds } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { findEditableAd } from '../media/ad-access.ts';
import { toImage } from '../media/images.ts';
import { toCard } from './cards.ts';
import { createCardCache } from './card-cache.ts';
import { countByCity, findVisibleAd, findVisibleAdOfUser, listModels, sectionIdBySlug } from './listings.repository.ts';
import { cityCentre } from './city-centre.ts';

/** Already-serialized JSON: Fastify sends a Buffer as it is, past the route's serializer. */
function sendJsonBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes);
}

/** PostgreSQL text cannot hold NUL (the query would fail with a 500), and no control character helps a search. */
function cleanSearch(search: string | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex
  return search?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim() || undefined;
}

async function sectionIdOf(app: FastifyInstance, section: string | number | undefined): Promise<number | undefined> {
  return typeof section === 'string' ? sectionIdBySlug(app.db, section) : section;
}

export const listingsRoutes: FastifyPluginAsyncZod = async (app) => {
  // LISTINGS_CACHE_TTL_MS (default 5 s); 0 turns the cache off. lru-cache reads ttl 0 as "never expires", hence no cache.
  const ttl = app.config.listingsCacheTtlMs;
  // The serialized bytes are cached, not the object: a hit then costs no serialization at all (about half the work
  // of a hit otherwise). Bounded by size too, since a page with long texts can be tens of KB.
  const cache =
    ttl > 0 ? new LRUCache<string, Buffer>({ max: 1000, maxSize: 32 * 1024 * 1024, sizeCalculation: (b) => b.length, ttl }) : undefined;
  if (cache) app.catalogue.onChange(() => cache.clear());
  const cardCache = createCardCache(app.storage, app.config.listingCardsCached, (hit) => app.metrics.cacheLookup('listing-cards', hit));

  app.get(
    API.models,
    {
      // The schema documents the answer; the body is sent as bytes assembled from the cards' JSON (card-cache.ts),
      // past any serializer.
      schema: { querystring: modelsQuerySchema, response: { 200: modelListSchema } },
    },
    async (req, reply) => {
      const q = req.query;
      const search = cleanSearch(q.search);
      const literal = q.literal === '1';
      const key = JSON.stringify([req.lang, search ?? '', literal, q.city ?? 0, q.section ?? '', q.page, q.per_page]);
      const hit = cache?.get(key);
      if (cache) app.metrics.cacheLookup('listings', hit !== undefined);
      reply.header('cache-control', 'public, max-age=5');
      if (hit) return sendJsonBytes(reply, hit);
      const generation = app.catalogue.generation;

      const sectionId = await sectionIdOf(app, q.section);
      const page = await listModels(app.db, {
        search,
        literal,
        cityId: q.city,
        sectionId,
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      const cards = await cardCache.cards(app.db, page.refs, req.lang, page.rows);
      const from = cards.length ? (q.page - 1) * q.per_page + 1 : null;
      const meta: ModelList['meta'] = {
        current_page: q.page,
        last_page: Math.max(1, Math.ceil(page.total / q.per_page)),
        per_page: q.per_page,
        total: page.total,
        from,
        to: from === null ? null : from + cards.length - 1,
        ...(page.corrected ? { corrections: page.corrected.corrections, corrected_search: page.corrected.search } : {}),
      };
      // The body is assembled from the cards' own JSON (each serialized once per version): the same text
      // JSON.stringify would give for { data, meta }.
      const bytes = Buffer.from(`{"data":[${cards.join(',')}],"meta":${JSON.stringify(meta)}}`);
      // Not when the catalogue changed while we read it: this answer may predate the change.
      if (cache && app.catalogue.generation === generation) cache.set(key, bytes);
      return sendJsonBytes(reply, bytes);
    },
  );

  // Registered before /api/models/:id would not matter (a static segment wins), but it reads better next to the listing.
  app.get(API.modelsMap, { schema: { querystring: modelsMapQuerySchema, response: { 200: modelsMapSchema } } }, async (req, reply) => {
    const q = req.query;
    const search = cleanSearch(q.search);
    const literal = q.literal === '1';
    const key = JSON.stringify(['map', search ?? '', literal, q.section ?? '']);
    reply.header('cache-control', 'public, max-age=5');
    const hit = cache?.get(key);
    if (cache) app.metrics.cacheLookup('listings', hit !== undefined);
    if (hit) return sendJsonBytes(reply, hit);
    const generation = app.catalogue.generation;
    const { cities, corrected } = await countByCity(app.db, { search, literal, sectionId: await sectionIdOf(app, q.section) });
    const body: ModelsMap = {
      data: cities.map((c) => ({
        city: { id: c.city_id, name: c.city_name, state: c.state_name },
        latitude: c.latitude,
        longitude: c.longitude,
        count: c.count,
      })),
      meta: { total: cities.reduce((n, c) => n + c.count, 0), ...(corrected ? { corrections: corrected.corrections } : {}) },
    };
    if (!cache) return body;
    const bytes = Buffer.from(reply.serialize(body) as string);
    if (app.catalogue.generation === generation) cache.set(key, bytes);
    return sendJsonBytes(reply, bytes);
  });

  app.get(API.model(':id'), { schema: { params: idParamsSchema, response: { 200: modelDetailSchema } } }, async (req) => {
    const row = await findVisibleAd(app.db, req.params.id);
    if (!row) throw notFound();
    const card = toCard(app.storage, row, req.lang);
    const centre = await cityCentre(app.db, row.city_id);
    return {
      data: {
        ...card,
        city: { ...card.city, latitude: centre?.latitude ?? null, longitude: centre?.longitude ?? null },
        description: row.description,
        phone: row.phone,
        whatsapp: row.whatsapp,
        state: row.state_name,
      },
    };
  });

  app.get(
    API.imagesByAd(':id'),
    { schema: { params: idParamsSchema, response: { 200: z.object({ data: z.array(imageSchema) }) } } },
    async (req, reply) => {
      const listed = await findVisibleAd(app.db, req.params.id);
      // Visitors see the photos of listed ads; the owner and staff also those of an ad that is not (or not yet) listed.
      const adId = listed?.id ?? (await findEditableAd(app.db, req.user, req.params.id))?.id;
      if (!adId) throw notFound();
      if (!listed) reply.header('cache-control', 'private, no-store');
      const rows = await app.db
        .select()
        .from(media)
        .where(eq(media.adId, adId))
        .orderBy(sql`${media.isCover} desc`, asc(media.position), asc(media.id));
      return { data: rows.map((m) => toImage(app.storage, m)) };
    },
  );

  app.get(
    API.coverImage(':id'),
    { schema: { params: idParamsSchema, response: { 200: z.object({ data: imageSchema.nullable() }) } } },
    async (req) => {
      const ad = await findVisibleAdOfUser(app.db, req.params.id);
      if (!ad) throw notFound();
      return { data: toCard(app.storage, ad, req.lang).cover };
    },
  );

  app.get(API.publicityAds, { schema: { response: { 200: z.object({ data: z.array(publicityAdSchema) }) } } }, async (_req, reply) => {
    const now = new Date();
    const rows = await app.db
      .select()
      .from(publicityAds)
      .where(
        and(
          eq(publicityAds.isActive, true),
          lte(publicityAds.startsAt, now),
          or(isNull(publicityAds.endsAt), gt(publicityAds.endsAt, now)),
        ),
      )
      .orderBy(asc(publicityAds.position), asc(publicityAds.id));
    reply.header('cache-control', 'public, max-age=60');
    return {
      data: rows.map((p) => ({
        id: p.id,
        title: p.title,
        body: p.body,
        advertiser: p.advertiser,
        image_url: p.imageKey ? app.storage.url(p.imageKey) : null,
        target_url: p.targetUrl,
      })),
    };
  });
};
