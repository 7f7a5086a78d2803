/**
 * The calls of the Media/Photos screen (SPEC §7): the ad's photos (GET /api/getImagesByAd/{ad} — the owner and
 * staff also see the photos of an ad that is not listed yet) and the signed-in model's own ad (GET
 * /api/profile/model), to know which ad "my photos" means. Deleting a photo and the cover change are in
 * lib/photo-outbox.ts (they may wait in the outbox).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Image } from '#contract/listings.ts';
import type { ModelProfile } from '#contract/profiles.ts';
import { apiGet } from '#src/lib/api-client.ts';

export const adPhotosQueryKey = (adId: number) => ['ad-photos', adId] as const;

export const adPhotosQueryOptions = (adId: number) =>
  queryOptions({
    queryKey: adPhotosQueryKey(adId),
    queryFn: ({ signal }) => apiGet<{ data: Image[] }>(API.imagesByAd(adId), signal).then((r) => r.data),
  });

/** The signed-in model's profile with its ad; null when she has no profile yet (the server answers `{ data: null }`). */
export const ownModelProfileQueryOptions = () =>
  queryOptions({
    queryKey: ['profile', 'model'],
    queryFn: async ({ signal }) => (await apiGet<{ data: ModelProfile | null }>(API.modelProfile, signal)).data,
  });

/**
 * After a change: the answer carries the ad's photos (cover first), so the gallery is set from it; the public
 * model page's copy (keyed by the ad id as a string) is dropped so it shows the change too.
 */
export function storePhotos(client: QueryClient, adId: number, photos: Image[]) {
  client.setQueryData(adPhotosQueryKey(adId), photos);
  void client.invalidateQueries({ queryKey: ['model-images', String(adId)] });
}

/** After an upload: ask again (the answer of an upload lists only the new photos). */
export function refreshPhotos(client: QueryClient, adId: number) {
  void client.invalidateQueries({ queryKey: adPhotosQueryKey(adId) });
  void client.invalidateQueries({ queryKey: ['model-images', String(adId)] });
}
