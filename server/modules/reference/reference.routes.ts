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
import { sectionListSchema, type SectionSlug } from '#contract/sections.ts';
import { API } from '#contract/routes.ts';
import { notFound } from '../../errors.ts';
import { consume } from '../auth/auth.limits.ts';
import { ipHash } from '../reports/reports.ts';
import {
  findCityOption,
  findCountry,
  findState,
  listCities,
  listCountries,
  listSections,
  listStates,
  nearestCity,
  searchCities,
} from './reference.repository.ts';

const collator = new Intl.Collator('es', { sensitivity: 'base' });
const CACHE = 'public, max-age=3600, stale-while-revalidate=86400';
/** "Use my location" and clicks on the picker's map: a person needs a few a minute, a scraper many. */
export const NEAREST_PER_MINUTE = 30;

export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const nearestLimit = app.limiter({ keyPrefix: 'cities-nearest', points: NEAREST_PER_MINUTE, duration: 60 });

  const sectionsHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const rows = await listSections(app.db);
    reply.header('cache-control', CACHE);
    return {
      data: rows.map((s) => ({
        id: s.id,
        slug: s.slug as SectionSlug,
        name: s.names[req.lang],
        names: s.names,
        color: s.color,
        position: s.position,
      })),
    };
  };
  for (const url of [API.sections, API.getSections]) {
    app.get(url, { schema: { response: { 200: sectionListSchema } } }, sectionsHandler);
  }

  app.get(API.countries, { schema: { response: { 200: countryListSchema } } }, async (req, reply) => {
    const rows = await listCountries(app.db);
    reply.header('cache-control', CACHE);
    return {
      data: rows.map((c) => ({
        id: c.id,
        iso2: c.iso2,
        name: c.names[req.lang],
        names: c.names,
        phone_code: c.phoneCode,
        has_states: c.hasStates,
      })),
    };
  });

  app.get(API.country(':id'), { schema: { params: idParamsSchema, response: { 200: countryWithStatesSchema } } }, async (req, reply) => {
    const country = await findCountry(app.db, req.params.id);
    if (!country) throw notFound();
    const rows = await listStates(app.db, country.id);
    reply.header('cache-control', CACHE);
    return {
      data: {
        id: country.id,
        iso2: country.iso2,
        name: country.names[req.lang],
        names: country.names,
        phone_code: country.phoneCode,
        has_states: rows.length > 0,
        states: rows
          .map((s) => ({ id: s.id, country_id: s.countryId, code: s.code, name: s.name, latitude: s.latitude, longitude: s.longitude }))
          .sort((a, b) => collator.compare(a.name, b.name)),
      },
    };
  });

  app.get(API.cities(':id'), { schema: { params: idParamsSchema, response: { 200: cityListSchema } } }, async (req, reply) => {
    const state = await findState(app.db, req.params.id);
    if (!state) throw notFound();
    const rows = await listCities(app.db, state.id);
    reply.header('cache-control', CACHE);
    return {
      data: rows
        .map((c) => ({ id: c.id, state_id: c.stateId, code: c.code, name: c.name, latitude: c.latitude, longitude: c.longitude }))
        .sort((a, b) => collator.compare(a.name, b.name)),
    };
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
    const city = await findCityOption(app.db, req.params.id);
    if (!city) throw notFound();
    reply.header('cache-control', CACHE);
    return { data: city };
  });

  app.get(
    API.citiesNearest,
    { schema: { querystring: nearestCityQuerySchema, response: { 200: nearestCitySchema } }, config: { logQuery: false } },
    async (req, reply) => {
      // Someone's position is in the URL: no cache on the way may keep any answer under it.
      reply.header('cache-control', 'no-store');
      await consume(nearestLimit, ipHash(app.config.appKey, req.ip), reply);
      const city = await nearestCity(app.db, req.query.lat, req.query.lng);
      if (!city) throw notFound('locationPicker.noneNearby');
      return {
        data: {
          country_id: city.countryId,
          state_id: city.stateId,
          state: city.state,
          city_id: city.cityId,
          city: city.city,
          latitude: city.latitude,
          longitude: city.longitude,
        },
      };
    },
  );
};
