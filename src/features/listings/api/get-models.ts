import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ModelList, ModelsMap, PublicityAd } from '#contract/listings.ts';
import type { CityOption } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';
import { firstScreenAnswer } from '#src/lib/first-screen.ts';
import type { ListingParams } from '../hooks/use-listing-params.ts';

export function modelsQueryString(p: ListingParams): string {
  const qs = new URLSearchParams();
  if (p.search) qs.set('search', p.search);
  if (p.city) qs.set('city', String(p.city));
  if (p.section) qs.set('section', p.section);
  if (p.page > 1) qs.set('page', String(p.page));
  if (p.literal && p.search) qs.set('literal', '1');
  return qs.toString();
}

// The language is part of the key: cards carry section names in the request's language.
export const modelsQueryOptions = (p: ListingParams, lng: string) =>
  queryOptions({
    queryKey: ['models', lng, { search: p.search, literal: p.literal, city: p.city, section: p.section, page: p.page }],
    queryFn: ({ signal }) => apiGet<ModelList>(`${API.models}?${modelsQueryString(p)}`, signal),
    // A first visit's page may come with this answer in it (the home without a query).
    initialData: () => firstScreenAnswer<ModelList>(`${API.models}?${modelsQueryString(p)}`),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** The map view's query: the listing's filters but the city and the page (a city is what the map is for choosing). */
export function modelsMapQueryString(p: ListingParams): string {
  const qs = new URLSearchParams();
  if (p.search) qs.set('search', p.search);
  if (p.section) qs.set('section', p.section);
  if (p.literal && p.search) qs.set('literal', '1');
  return qs.toString();
}

export function modelsMapUrl(p: ListingParams): string {
  const qs = modelsMapQueryString(p);
  return qs ? `${API.modelsMap}?${qs}` : API.modelsMap;
}

// Under the listing's root ('models'): kept for offline like the listing (src/lib/query-persist.ts keeps that root) and
// refreshed with it; 'map' never collides with the listing's second part, a language.
export const modelsMapQueryOptions = (p: ListingParams) =>
  queryOptions({
    queryKey: ['models', 'map', { search: p.search, literal: p.literal, section: p.section }],
    queryFn: ({ signal }) => apiGet<ModelsMap>(modelsMapUrl(p), signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export const publicityQueryOptions = () =>
  queryOptions({
    queryKey: ['publicity-ads'],
    queryFn: ({ signal }) => apiGet<{ data: PublicityAd[] }>(API.publicityAds, signal).then((r) => r.data),
    initialData: () => firstScreenAnswer<{ data: PublicityAd[] }>(API.publicityAds)?.data,
    staleTime: 5 * 60_000,
  });

export const citySearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['city-search', q.toLowerCase()],
    queryFn: ({ signal }) => apiGet<{ data: CityOption[] }>(`${API.citiesSearch}?q=${encodeURIComponent(q)}`, signal).then((r) => r.data),
    enabled: q.trim().length >= 2,
    staleTime: Infinity,
  });

export const cityQueryOptions = (id: number | undefined) =>
  queryOptions({
    queryKey: ['city', id],
    queryFn: ({ signal }) => apiGet<{ data: CityOption }>(API.city(id ?? ''), signal).then((r) => r.data),
    enabled: !!id,
    staleTime: Infinity,
  });
