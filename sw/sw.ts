/// <reference lib="webworker" />
/**
 * Vitrina's service worker. Precaches the app shell Vite emits (Workbox manifest), plus — at install — the
 * sections, the countries and the four translation files, which the API only answers to XHR-marked
 * requests (so they are fetched here with that header rather than listed in the manifest). Navigations
 * fall back to the cached shell offline. Fuller offline work (listings, outbox) comes later.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { StaleWhileRevalidate } from 'workbox-strategies';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { REFERENCE_CACHE, REFERENCE_URLS, isReferenceRequest } from './reference-cache.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

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

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

registerRoute(
  ({ url, request }) => request.method === 'GET' && isReferenceRequest(url),
  new StaleWhileRevalidate({ cacheName: REFERENCE_CACHE, plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

// Every client route (/es/…, /de/legal/…) is the same shell; the API and files are not navigations.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/sanctum\//, /^\/broadcasting\//, /\.[a-z0-9]+$/i],
  }),
);
