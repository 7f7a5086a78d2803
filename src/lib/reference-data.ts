/** Reference data for location and section pickers (countries → states → cities, sections) as TanStack Query options. */
import { queryOptions } from '@tanstack/react-query';
import type { City, Country, countryWithStatesSchema } from '#contract/locations.ts';
import type { z } from 'zod';
import { API } from '#contract/routes.ts';
import type { Section } from '#contract/sections.ts';
import { apiGet } from './api-client.ts';

// Reference data changes with a deployment at most: a day is fresh enough, and the service worker keeps a copy.
const DAY = 24 * 60 * 60 * 1000;

export const countriesQueryOptions = () =>
  queryOptions({
    queryKey: ['countries'],
    queryFn: ({ signal }) => apiGet<{ data: Country[] }>(API.countries, signal).then((r) => r.data),
    staleTime: DAY,
  });

export const statesQueryOptions = (countryId: number | undefined) =>
  queryOptions({
    queryKey: ['country', countryId],
    queryFn: ({ signal }) => apiGet<z.infer<typeof countryWithStatesSchema>>(API.country(countryId!), signal).then((r) => r.data.states),
    enabled: !!countryId,
    staleTime: DAY,
  });

export const citiesQueryOptions = (stateId: number | undefined) =>
  queryOptions({
    queryKey: ['cities', stateId],
    queryFn: ({ signal }) => apiGet<{ data: City[] }>(API.cities(stateId!), signal).then((r) => r.data),
    enabled: !!stateId,
    staleTime: DAY,
  });

export const sectionsQueryOptions = () =>
  queryOptions({
    queryKey: ['sections'],
    queryFn: ({ signal }) => apiGet<{ data: Section[] }>(API.sections, signal).then((r) => r.data),
    staleTime: DAY,
  });
