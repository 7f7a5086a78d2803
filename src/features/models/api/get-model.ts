/** A model's page (SPEC §7): the ad (GET /api/models/{id}) and its gallery (GET /api/getImagesByAd/{id}). */
import { queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Image, ModelDetail } from '#contract/listings.ts';
import { apiGet } from '#src/lib/api-client.ts';
import { firstScreenAnswer } from '#src/lib/first-screen.ts';

/** Ad ids in URLs are positive integers; anything else is a 404 without asking the server. */
export function isAdId(value: string | undefined): value is string {
  return !!value && /^[1-9]\d{0,9}$/.test(value);
}

// The language is part of the key: the answer carries the section name in the request's language (X-Locale).
export const modelQueryOptions = (id: string, lng: string) =>
  queryOptions({
    queryKey: ['model', id, lng],
    queryFn: ({ signal }) => apiGet<{ data: ModelDetail }>(API.model(id), signal).then((r) => r.data),
    // A first visit's page comes with the ad and its gallery in it (server/plugins/first-screen.ts).
    initialData: () => firstScreenAnswer<{ data: ModelDetail }>(API.model(id))?.data,
    staleTime: 60_000,
  });

export const modelImagesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['model-images', id],
    queryFn: ({ signal }) => apiGet<{ data: Image[] }>(API.imagesByAd(id), signal).then((r) => r.data),
    initialData: () => firstScreenAnswer<{ data: Image[] }>(API.imagesByAd(id))?.data,
    staleTime: 60_000,
  });
