/** The model profile calls (SPEC §7) and the reference data its form needs, as TanStack Query options. */
import { queryOptions } from '@tanstack/react-query';
import type { Image } from '#contract/listings.ts';
import { API } from '#contract/routes.ts';
import type {
  adAnswerSchema,
  adDeletedAnswerSchema,
  modelProfileAnswerSchema,
  modelProfileResponseSchema,
  ModelWithAd,
} from '#contract/profiles.ts';
import type { z } from 'zod';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const MODEL_PROFILE_KEY = ['profile', 'model'] as const;

/** The signed-in model's profile, or null when they have none yet (the server answers `{ data: null }`). */
export const modelProfileQueryOptions = () =>
  queryOptions({
    queryKey: MODEL_PROFILE_KEY,
    queryFn: async ({ signal }) => (await apiGet<z.infer<typeof modelProfileResponseSchema>>(API.modelProfile, signal)).data,
  });

/**
 * The ad's photos, cover first (the owner sees them before the ad is listed). Same key as the photos screen's, so a
 * cover changed there shows here too.
 */
export const adPhotosQueryOptions = (adId: number) =>
  queryOptions({
    queryKey: ['ad-photos', adId] as const,
    queryFn: ({ signal }) => apiGet<{ data: Image[] }>(API.imagesByAd(adId), signal).then((r) => r.data),
  });

export { citiesQueryOptions, countriesQueryOptions, sectionsQueryOptions, statesQueryOptions } from '#src/lib/reference-data.ts';

export type ProfileAnswer = z.infer<typeof modelProfileAnswerSchema>;

export const createModelWithAd = (body: ModelWithAd) => apiRequest<ProfileAnswer>(API.modelWithAdCreate, { method: 'POST', body });

export const updateModelWithAd = (id: number, body: ModelWithAd & { version: number }) =>
  apiRequest<ProfileAnswer>(API.modelWithAdUpdate(id), { method: 'PUT', body });

export const setAdActive = (adId: number, on: boolean) =>
  apiRequest<z.infer<typeof adAnswerSchema>>(API.modelAdActivate(adId, on), { method: 'PUT' });

export const deleteAd = (adId: number) => apiRequest<z.infer<typeof adDeletedAnswerSchema>>(API.adDelete(adId), { method: 'DELETE' });
