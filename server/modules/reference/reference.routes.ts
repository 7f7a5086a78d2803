/**
 * Reference data (SPEC §7): sections, countries, a country's states, a state's cities. Names come in the
 * request's language (`name`) and in all four (`names`), so a cached answer serves a language switch.
 * GET /api/cities/nearest turns a point (the browser's position) into the nearest municipality: the point is
 * neither stored nor logged (the request line leaves its query string out, see request-log.ts) nor cached.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cityListSchema,
  cityOptionListSchema,
  cityOptionResponseSchema,
  citySearchQuerySchema,
  countryListSchema,
  countryWithStatesSchema,
  idParamsSchema,
  nearestCityQuerySchema,
  nearestCitySchema,
} from '#contract/locations.ts';
import { sectionListSchema } from '#contract/sections.ts';
import { API } from '#contract/routes.ts';
import { consume } from '../auth/auth.limits.ts';
import { ipHash } from '../reports/reports.ts';
import { searchCities } from './reference.repository.ts';
import { citiesOf, cityOption, countriesFor, countryWithStates, nearestCityTo, sectionsFor } from './reference.service.ts';

const CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
/** "Use my location" and clicks on the picker's map: a person needs a few a minute, a scraper many. */
export const NEAREST_PER_MINUTE = 30;

export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const nearestLimit = app.limiter({ keyPrefix: 'cities-nearest', points: NEAREST_PER_MINUTE, duration: 60 });

  const sectionsHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const data = await sectionsFor(app.db, req.lang);
    reply.header('cache-control', CACHE);
    return { data };
  };
  for (const url of [API.sections, API.getSections]) {
    app.get(url, { schema: { response: { 200: sectionListSchema } } }, sectionsHandler);
  }

  app.get(API.countries, { schema: { response: { 200: countryListSchema } } }, async (req, reply) => {
    const data = await countriesFor(app.db, req.lang);
    reply.header('cache-control', CACHE);
    return { data };
  });

  app.get(API.country(':id'), { schema: { params: idParamsSchema, response: { 200: countryWithStatesSchema } } }, async (req, reply) => {
    const data = await countryWithStates(app.db, req.params.id, req.lang);
    reply.header('cache-control', CACHE);
    return { data };
  });

  app.get(API.cities(':id'), { schema: { params: idParamsSchema, response: { 200: cityListSchema } } }, async (req, reply) => {
    const data = await citiesOf(app.db, req.params.id);
    reply.header('cache-control', CACHE);
    return { data };
  });

  app.get(
    API.citiesSearch,
    { schema: { querystring: citySearchQuerySchema, response: { 200: cityOptionListSchema } } },
    async (req, reply) => {
      reply.header('cache-control', CACHE);
      return { data: await searchCities(app.db, req.query.q) };
    },
  );

  app.get(API.city(':id'), { schema: { params: idParamsSchema, response: { 200: cityOptionResponseSchema } } }, async (req, reply) => {
    const data = await cityOption(app.db, req.params.id);
    reply.header('cache-control', CACHE);
    return { data };
  });

  app.get(
    API.citiesNearest,
    { schema: { querystring: nearestCityQuerySchema, response: { 200: nearestCitySchema } }, config: { logQuery: false } },
    async (req, reply) => {
      // Someone's position is in the URL: no cache on the way may keep any answer under it.
      reply.header('cache-control', 'no-store');
      await consume(nearestLimit, ipHash(app.config.appKey, req.ip), reply);
      return { data: await nearestCityTo(app.db, req.query.lat, req.query.lng) };
    },
  );
};
