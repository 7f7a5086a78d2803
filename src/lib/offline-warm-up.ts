/**
 * The first visit happens before the service worker exists: the listing answers and photos the visitor saw were
 * fetched without it, so they are not kept for offline use. Once the worker controls the page (it claims it on
 * activation), this hands it every such URL the page fetched without the worker, and it fetches them again through
 * its caching strategies (sw/sw.ts). A page that was controlled from the start has nothing to hand over.
 */
import { WARM_UP_MAX_URLS, WARM_UP_MESSAGE, warmUpUrls, type WarmUpMessage } from '../../sw/runtime-cache.ts';
import { firstScreenPaths } from './first-screen.ts';

export function warmUpOfflineCaches(container: ServiceWorkerContainer = navigator.serviceWorker): void {
  if (container.controller || typeof PerformanceObserver === 'undefined') return;
  // The browser keeps 250 entries by default; a long first visit may fetch more (photos).
  performance.setResourceTimingBufferSize(WARM_UP_MAX_URLS * 2);
  // The answers the page came with (first-screen.ts) were never fetched, but were shown all the same.
  const pending = new Set<string>(firstScreenPaths().map((p) => new URL(p, location.origin).href));
  const flush = () => {
    const controller = container.controller;
    if (!controller || !pending.size) return;
    const urls = warmUpUrls([...pending], location.origin);
    pending.clear();
    if (urls.length) controller.postMessage({ type: WARM_UP_MESSAGE, urls } satisfies WarmUpMessage);
  };
  // workerStart is 0 for a fetch no worker handled: those are the ones the worker has not seen. A photo still
  // loading when the worker takes over is reported when it finishes, hence an observer rather than one look.
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) if (entry.workerStart === 0) pending.add(entry.name);
    flush();
  });
  observer.observe({ type: 'resource', buffered: true });
  container.addEventListener('controllerchange', flush, { once: true });
}
