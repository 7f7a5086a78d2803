/** The publicist's calls (profile with trader details, models under responsibility) as TanStack Query options. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { profileCreatedAnswerSchema } from '#contract/profiles.ts';
import { API } from '#contract/routes.ts';
import type {
  publicistModelAnswerSchema,
  publicistModelDeletedSchema,
  publicistModelReadSchema,
  publicistModelsAnswerSchema,
  publicistProfileAnswerSchema,
  publicistProfileReadSchema,
  PublicistModelList,
  PublicistModelInput,
  PublicistModelsQuery,
  PublicistProfileInput,
} from '#contract/publicists.ts';
import { ApiError, apiGet, apiRequest } from '#src/lib/api-client.ts';

export const PUBLICIST_KEY = ['publicist'] as const;
export const PUBLICIST_PROFILE_KEY = [...PUBLICIST_KEY, 'profile'] as const;
export const PUBLICIST_MODELS_KEY = [...PUBLICIST_KEY, 'models'] as const;

/** The signed-in publicist's profile, or null when they have none yet (404). */
export const publicistProfileQueryOptions = () =>
  queryOptions({
    queryKey: PUBLICIST_PROFILE_KEY,
    queryFn: async ({ signal }) => {
      try {
        return (await apiGet<z.infer<typeof publicistProfileReadSchema>>(API.publicistProfile, signal)).data;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });

export type ModelsQuery = Pick<PublicistModelsQuery, 'sort' | 'direction' | 'page'> & { search: string; per_page?: number };

export const publicistModelsQueryOptions = (q: ModelsQuery) =>
  queryOptions({
    queryKey: [...PUBLICIST_MODELS_KEY, 'list', q],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({
        sort: q.sort,
        direction: q.direction,
        page: String(q.page),
        per_page: String(q.per_page ?? 10),
      });
      if (q.search) params.set('search', q.search);
      return apiGet<PublicistModelList>(`${API.publicistModels}?${params}`, signal);
    },
    placeholderData: keepPreviousData,
  });

export const publicistModelQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...PUBLICIST_MODELS_KEY, 'one', id],
    queryFn: ({ signal }) => apiGet<z.infer<typeof publicistModelReadSchema>>(API.publicistModel(id), signal).then((r) => r.data),
  });

export { citiesQueryOptions, countriesQueryOptions, sectionsQueryOptions, statesQueryOptions } from '#src/lib/reference-data.ts';

export type ProfileAnswer = z.infer<typeof publicistProfileAnswerSchema>;
export type ModelAnswer = z.infer<typeof publicistModelAnswerSchema>;
export type ModelsAnswer = z.infer<typeof publicistModelsAnswerSchema>;

export const createPublicistProfile = (body: PublicistProfileInput) =>
  apiRequest<z.infer<typeof profileCreatedAnswerSchema>>(API.publicistProfileCreate, { method: 'POST', body });

export const updatePublicistProfile = (id: number, body: PublicistProfileInput & { version: number }) =>
  apiRequest<ProfileAnswer>(API.publicistProfileUpdate(id), { method: 'PUT', body });

/** The raw form values (the server parses them with the same contract schema); errors come back as `models.{i}.{field}`. */
export const createModels = (models: PublicistModelInput[]) =>
  apiRequest<ModelsAnswer>(API.publicistModelsCreate, { method: 'POST', body: { models } });

export const updateModel = (id: number, body: PublicistModelInput & { version: number }) =>
  apiRequest<ModelAnswer>(API.publicistModelUpdate(id), { method: 'PUT', body });

export const setModelAdActive = (id: number, on: boolean) => apiRequest<ModelAnswer>(API.publicistModelActivate(id, on), { method: 'PUT' });
export const deleteModelAd = (id: number) => apiRequest<ModelAnswer>(API.publicistModelAd(id), { method: 'DELETE' });
export const deleteModel = (id: number) =>
  apiRequest<z.infer<typeof publicistModelDeletedSchema>>(API.publicistModel(id), { method: 'DELETE' });
export const resendConsent = (id: number) => apiRequest<ModelAnswer>(API.publicistModelConsentResend(id), { method: 'POST' });
