/**
 * What the service worker keeps as it goes, so a visitor who has browsed can come back offline: the listing
 * answers (GET /api/models…, a model, its gallery, the promoted placements, a city's name) and the photos under
 * /media. Only public, plain GET answers: a response marked `private` or `no-store` (an owner's view of an ad
 * that is not listed, its photos) is never stored, and nothing else of /api (the user, profiles, any write)
 * matches here.
 */
export const LISTINGS_CACHE = 'vitrina-listings-v1';
export const MEDIA_CACHE = 'vitrina-media-v1';

/** Network first, then the stored copy after this long without an answer. */
export const NETWORK_TIMEOUT_SECONDS = 3;
export const LISTINGS_MAX_ENTRIES = 200;
export const LISTINGS_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
export const MEDIA_MAX_ENTRIES = 300;
export const MEDIA_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

const LISTING_PATTERNS = [
  /^\/api\/models$/, // the listing, any query (search, city, section, page)
  /^\/api\/models\/\d+$/,
  /^\/api\/getImagesByAd\/\d+$/,
  /^\/api\/fetchAllPublicityAds$/,
  /^\/api\/city\/\d+$/, // the chosen city's name in the filter bar
];

export function isListingRequest(url: URL): boolean {
  return LISTING_PATTERNS.some((re) => re.test(url.pathname));
}

export function isMediaRequest(url: URL): boolean {
  return url.pathname.startsWith('/media/');
}

/** A 200 answer that the server lets shared caches keep (not `private`, not `no-store`). */
export function isPublicAnswer(response: Response): boolean {
  if (response.status !== 200) return false;
  const cacheControl = response.headers.get('cache-control')?.toLowerCase() ?? '';
  return !/(^|[\s,])(private|no-store)([\s,=]|$)/.test(cacheControl);
}
