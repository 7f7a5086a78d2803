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

/**
 * The page's message after the worker took control of it: the URLs it fetched before (performance entries), to be
 * fetched again through the worker and kept. The worker takes only the listing and photo URLs among them.
 */
export const WARM_UP_MESSAGE = 'WARM_RUNTIME_CACHES';
export const WARM_UP_MAX_URLS = 400;

export interface WarmUpMessage {
  type: typeof WARM_UP_MESSAGE;
  urls: string[];
}

export function isWarmUpMessage(data: unknown): data is WarmUpMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, urls } = data as Partial<WarmUpMessage>;
  return type === WARM_UP_MESSAGE && Array.isArray(urls) && urls.length <= WARM_UP_MAX_URLS && urls.every((u) => typeof u === 'string');
}

/** Of the URLs a page fetched, the ones the worker keeps (listing answers, photos), once each. */
export function warmUpUrls(fetched: readonly string[], origin: string): string[] {
  const keep = new Set<string>();
  for (const href of fetched) {
    let url: URL;
    try {
      url = new URL(href, origin);
    } catch {
      continue;
    }
    if (url.origin !== origin || !(isListingRequest(url) || isMediaRequest(url))) continue;
    url.hash = '';
    keep.add(url.href);
    if (keep.size >= WARM_UP_MAX_URLS) break;
  }
  return [...keep];
}
