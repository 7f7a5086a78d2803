/// <reference lib="webworker" />
/**
 * Vitrina's service worker. Precaches the app shell Vite emits (Workbox manifest), plus — at install — the
 * sections, the countries and the four translation files, which the API only answers to XHR-marked
 * requests (so they are fetched here with that header rather than listed in the manifest). Navigations
 * fall back to the cached shell offline. As the visitor browses, the public listing answers and their photos
 * are kept too (runtime-cache.ts), so what was seen can be seen again offline — from the first visit on: the worker
 * claims the page that installed it, and that page hands over what it fetched before (see the warm-up message).
 * Background Sync sends the offline outbox (outbox-sync.ts).
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { REFERENCE_CACHE, REFERENCE_URLS, isReferenceRequest } from './reference-cache.ts';
// Background Sync replays the offline outbox with the page's code (registers the `sync` listener).
import './outbox-sync.ts';
// Web Push (issue 25): notifications, taps, the badge, and what a push prefetched for offline use.
import { networkThenPushCache } from './push.ts';
import { isPushPrefetchPath } from './push-cache.ts';
import {
  isListingRequest,
  isFaceModelRequest,
  isMapAssetRequest,
  isMapStyleRequest,
  isMapTileRequest,
  isMediaRequest,
  isWarmUpMessage,
  WARMED_MESSAGE,
  type WarmedMessage,
  isPublicAnswer,
  FACE_MODEL_CACHE,
  FACE_MODEL_MAX_ENTRIES,
  LISTINGS_CACHE,
  LISTINGS_MAX_AGE_SECONDS,
  LISTINGS_MAX_ENTRIES,
  MAP_ASSETS_CACHE,
  MAP_ASSETS_MAX_ENTRIES,
  MAP_STYLE_CACHE,
  MAP_STYLE_MAX_ENTRIES,
  MAP_TILES_CACHE,
  MAP_TILES_MAX_AGE_SECONDS,
  MAP_TILES_MAX_ENTRIES,
  KEPT_PHOTO_CACHES,
  MEDIA_CACHE,
  MEDIA_MAX_AGE_SECONDS,
  MEDIA_MAX_ENTRIES,
  NETWORK_TIMEOUT_SECONDS,
} from './runtime-cache.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first visit is controlled as soon as the worker is active, not from the next load on: what the visitor opens
// next (a model page) is kept for offline use. A worker replacing another never skips waiting by itself: it waits
// until the visitor chooses "Actualizar" in the update prompt (src/app/sw-updates.ts sends SKIP_WAITING, below).
clientsClaim();

const XHR_HEADERS = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(REFERENCE_CACHE);
      // A new worker means a new deploy: take fresh copies, but never fail the install over them.
      await Promise.allSettled(
        REFERENCE_URLS.map(async (url) => {
          const res = await fetch(url, { headers: XHR_HEADERS, credentials: 'same-origin', cache: 'no-cache' });
          if (res.ok) await cache.put(url, res);
        }),
      );
    })(),
  );
});

// workbox-window's messageSkipWaiting(), sent only when the visitor chose to update.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

registerRoute(
  ({ url, request }) => request.method === 'GET' && isReferenceRequest(url),
  new StaleWhileRevalidate({ cacheName: REFERENCE_CACHE, plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

// The private answers a push prefetched (sw/push.ts): the network always, the kept copy only offline.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && isPushPrefetchPath(url.pathname) && !url.search,
  ({ request }) => networkThenPushCache(request),
);

// Stores only what the server lets shared caches keep (see isPublicAnswer).
const publicOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (isPublicAnswer(response) ? response : null),
};

// Listings: always the fresh answer when the network gives one within a few seconds, else the stored copy.
// The key is the URL (the X-Requested-With header the API wants is on the app's request, not in the key);
// the language of section names is that of the last visit.
const listingStrategy = new NetworkFirst({
  cacheName: LISTINGS_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  plugins: [
    publicOnly,
    new ExpirationPlugin({ maxEntries: LISTINGS_MAX_ENTRIES, maxAgeSeconds: LISTINGS_MAX_AGE_SECONDS, purgeOnQuotaError: true }),
  ],
});
registerRoute(({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && isListingRequest(url), listingStrategy);

// The photos the page keeps for its favourites and recent views (issue 28): the answer when the worker's own cache
// and the network both fail (offline, and evicted from MEDIA_CACHE or never fetched through the worker).
const keptPhotos: WorkboxPlugin = {
  handlerDidError: async ({ request }) => {
    for (const cacheName of KEPT_PHOTO_CACHES) {
      const kept = await caches.match(request.url, { cacheName });
      if (kept) return kept;
    }
    return undefined;
  },
};

// Photos never change under a name (new photo, new name): the stored copy is as good as the network's.
const mediaStrategy = new CacheFirst({
  cacheName: MEDIA_CACHE,
  plugins: [
    publicOnly,
    keptPhotos,
    new ExpirationPlugin({ maxEntries: MEDIA_MAX_ENTRIES, maxAgeSeconds: MEDIA_MAX_AGE_SECONDS, purgeOnQuotaError: true }),
  ],
});
registerRoute(({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && isMediaRequest(url), mediaStrategy);

// Maps (issue 16, runtime-cache.ts): the base map and the map code not precached, kept once fetched (hashed names);
// the configured tile source's tiles within a size cap, its style refreshed in the background.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && isMapAssetRequest(url),
  new CacheFirst({
    cacheName: MAP_ASSETS_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: MAP_ASSETS_MAX_ENTRIES, purgeOnQuotaError: true }),
    ],
  }),
);
registerRoute(
  ({ url, request }) => request.method === 'GET' && isMapTileRequest(url, self.location.origin),
  new CacheFirst({
    cacheName: MAP_TILES_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: MAP_TILES_MAX_ENTRIES, maxAgeSeconds: MAP_TILES_MAX_AGE_SECONDS, purgeOnQuotaError: true }),
    ],
  }),
);
registerRoute(
  ({ url, request }) => request.method === 'GET' && isMapStyleRequest(url, self.location.origin),
  new StaleWhileRevalidate({
    cacheName: MAP_STYLE_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: MAP_STYLE_MAX_ENTRIES, purgeOnQuotaError: true }),
    ],
  }),
);

// The answers and photos a page fetched before this worker controlled it (the first visit) never passed through
// it: the page sends their URLs once it is controlled (src/lib/offline-warm-up.ts) and they are fetched again
// through the same strategies, so they are stored like anything fetched later. Only listing and photo URLs of
// this origin are taken; anything else in the message is ignored.
// The page sends them as soon as this worker exists, installing included, and is told which are kept (WARMED_MESSAGE).
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if (!isWarmUpMessage(event.data)) return;
  const work = event.data.urls.flatMap((href) => {
    const url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin) return [];
    if (isListingRequest(url)) {
      const request = new Request(url, { headers: XHR_HEADERS, credentials: 'same-origin' });
      return [listingStrategy.handleAll({ event, request })[1].then(() => href)];
    }
    if (isMediaRequest(url)) {
      return [mediaStrategy.handleAll({ event, request: new Request(url, { credentials: 'same-origin' }) })[1].then(() => href)];
    }
    return [];
  });
  const source = event.source;
  event.waitUntil(
    Promise.allSettled(work).then(async (results) => {
      // Only what is really in a cache now (a failed fetch stored nothing): the page counts on these offline.
      const done = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const kept = (await Promise.all(done.map(async (u) => ((await caches.match(u)) ? u : null)))).filter((u) => u !== null);
      source?.postMessage({ type: WARMED_MESSAGE, urls: kept } satisfies WarmedMessage);
    }),
  );
});

// The face search (runtime-cache.ts): kept from the uploader's first use, so faces are found offline afterwards.
// Requested by the page (the photo worker's script) and by the photo worker, which this worker controls too.
registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && isFaceModelRequest(url),
  new CacheFirst({
    cacheName: FACE_MODEL_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: FACE_MODEL_MAX_ENTRIES, purgeOnQuotaError: true }),
    ],
  }),
);

// Every client route (/es/…, /de/legal/…) is the same shell; the API and files are not navigations.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/sanctum\//, /^\/broadcasting\//, /\.[a-z0-9]+$/i],
  }),
);
