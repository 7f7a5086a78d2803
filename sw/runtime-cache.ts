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

/**
 * The cover photos the page keeps for its favourites and recently viewed lists (issue 28, src/lib/favourites-photos.ts):
 * exactly what those lists show, never expired by the worker. Photos are answered from the worker's own cache first and
 * from these when that and the network fail, so a card kept offline shows its photo even after MEDIA_CACHE evicted it.
 */
export const FAVOURITE_PHOTOS_CACHE = 'vitrina-kept-favourites-v1';
export const RECENT_PHOTOS_CACHE = 'vitrina-kept-recent-v1';
export const KEPT_PHOTO_CACHES = [FAVOURITE_PHOTOS_CACHE, RECENT_PHOTOS_CACHE] as const;

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

/** The worker's answer to a warm-up message: the URLs it now keeps (fetched and stored, or already there). */
export const WARMED_MESSAGE = 'RUNTIME_CACHES_WARMED';

export interface WarmedMessage {
  type: typeof WARMED_MESSAGE;
  urls: string[];
}

export function isWarmedMessage(data: unknown): data is WarmedMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, urls } = data as Partial<WarmedMessage>;
  return type === WARMED_MESSAGE && Array.isArray(urls) && urls.every((u) => typeof u === 'string');
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

/**
 * Maps (issue 16). The embedded base map (assets/base-map-*.json, content-hashed: a name never changes content) and
 * the code fetched only by some maps (MapLibre GL, for a configured vector style) are kept once fetched: Spain's base
 * map is precached, the world's (another country) is kept here after its first use.
 */
export const MAP_ASSETS_CACHE = 'vitrina-map-assets-v1';
export const MAP_ASSETS_MAX_ENTRIES = 20;

export function isMapAssetRequest(url: URL): boolean {
  return /^\/assets\/(?:base-map-[a-z]+-[\w-]+\.json|(?:leaflet-)?maplibre-gl-[\w-]+\.(?:js|mjs|css))$/.test(url.pathname);
}

/**
 * The face search's files (issue 27): the photo worker, face-api with TensorFlow.js, its WASM binaries and the tiny
 * face detector's weights, all content-hashed. Not precached (about 1 MB over the wire that visitors who never publish would
 * download at install): the uploader loads them as soon as it opens (photo-uploader.tsx), and they are kept here from that first
 * fetch on, so faces are found without a network afterwards. A few entries: a deploy brings new names, the
 * least recently used old ones go.
 */
export const FACE_MODEL_CACHE = 'vitrina-face-model-v1';
export const FACE_MODEL_MAX_ENTRIES = 12;

export function isFaceModelRequest(url: URL): boolean {
  return /^\/assets\/(?:photo-worker-[\w-]+\.js|face-(?:api|detector)-[\w-]+\.js|tiny_face_detector_model-[\w-]+\.bin|tfjs-backend-wasm[\w-]*\.wasm)$/.test(
    url.pathname,
  );
}

/**
 * Tiles of the configured map source (MAP_TILES_URL raster tiles; a MAP_STYLE_URL style's vector tiles and glyphs)
 * are kept as seen, cache first, within a byte budget of about 50 MB: raster tiles (256 px PNG/JPEG/WebP) and
 * vector tiles weigh about 20–50 KB each, so 1000 entries stay under it; the least recently used go first, and all
 * of them if the browser's quota runs out. The style, its sprites and TileJSON are small and may change: kept, but
 * refreshed in the background (MAP_STYLE_CACHE).
 *
 * Only cross-origin requests are considered: the CSP lets the page reach no other origin than the configured map
 * source's (server/app.ts), and only those shaped like map resources match. Only CORS answers (status 200) are
 * stored, never opaque ones (whose size browsers count as several MB each).
 */
export const MAP_TILES_CACHE = 'vitrina-map-tiles-v1';
export const MAP_TILES_BUDGET_BYTES = 50 * 1024 * 1024;
export const MAP_TILE_TYPICAL_BYTES = 50 * 1024;
export const MAP_TILES_MAX_ENTRIES = Math.floor(MAP_TILES_BUDGET_BYTES / MAP_TILE_TYPICAL_BYTES);
export const MAP_TILES_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
export const MAP_STYLE_CACHE = 'vitrina-map-style-v1';
export const MAP_STYLE_MAX_ENTRIES = 50;

/** A tile ({z}/{x}/{y}, optionally @2x, any extension) or a glyph range (…/0-255.pbf). */
export function isMapTileRequest(url: URL, origin: string): boolean {
  if (url.origin === origin || !/^https?:$/.test(url.protocol)) return false;
  return /\/\d{1,2}\/\d+\/\d+(?:@\dx)?(?:\.[a-z0-9]+)?$/i.test(url.pathname) || /\.(?:pbf|mvt)$/i.test(url.pathname);
}

/** A style (…style.json), its sprites (sprite….json/png) or a TileJSON. */
export function isMapStyleRequest(url: URL, origin: string): boolean {
  if (url.origin === origin || !/^https?:$/.test(url.protocol)) return false;
  return /(?:^|\/)(?:[\w.-]*style[\w.-]*\.json|sprite[\w@.-]*\.(?:json|png)|tiles\.json)$/i.test(url.pathname);
}
