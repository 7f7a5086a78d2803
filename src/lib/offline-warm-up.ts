/**
 * The first visit happens before the service worker exists: the listing answers and photos the visitor saw were
 * fetched without it, so they are not kept for offline use. This hands the worker every such URL the page fetched
 * without it, and the worker fetches them again through its caching strategies (sw/sw.ts) — mostly from the browser's
 * HTTP cache, photos being immutable. A page that was controlled from the start has nothing to hand over.
 *
 * They go to the worker as soon as there is one — still installing, or waiting — not only once it controls the page:
 * on a slow or busy phone taking control comes seconds later (the precache is installed first), and a visitor who
 * lost the network meanwhile found the home's photos missing (issue 24 E). The worker answers with the URLs it kept
 * (WARMED_MESSAGE); whatever a worker did not confirm is handed again to the one that takes control. Once everything
 * handed over is confirmed, the page's root says so (`data-offline-kept`), for whoever needs to know it is safe to go.
 */
import { WARM_UP_MAX_URLS, WARM_UP_MESSAGE, warmUpUrls, isWarmedMessage, type WarmUpMessage } from '../../sw/runtime-cache.ts';
import { firstScreenPaths } from './first-screen.ts';

export function warmUpOfflineCaches(container: ServiceWorkerContainer = navigator.serviceWorker): void {
  if (container.controller || typeof PerformanceObserver === 'undefined') return;
  // The browser keeps 250 entries by default; a long first visit may fetch more (photos).
  performance.setResourceTimingBufferSize(WARM_UP_MAX_URLS * 2);
  // The answers the page came with (first-screen.ts) were never fetched, but were shown all the same.
  const pending = new Set<string>(firstScreenPaths().map((p) => new URL(p, location.origin).href));
  // Handed to a worker, not yet confirmed kept.
  const unconfirmed = new Set<string>();
  let worker: ServiceWorker | null = null;

  const markKept = () => {
    if (!pending.size && !unconfirmed.size) document.documentElement.dataset.offlineKept = '';
    else delete document.documentElement.dataset.offlineKept;
  };
  const send = (target: ServiceWorker, hrefs: readonly string[]) => {
    const urls = warmUpUrls(hrefs, location.origin);
    for (const url of urls) unconfirmed.add(url);
    if (urls.length) target.postMessage({ type: WARM_UP_MESSAGE, urls } satisfies WarmUpMessage);
  };
  const flush = () => {
    const target = container.controller ?? worker;
    if (target && pending.size) {
      send(target, [...pending]);
      pending.clear();
    }
    markKept();
  };

  container.addEventListener('message', (event: MessageEvent) => {
    if (!isWarmedMessage(event.data)) return;
    for (const url of event.data.urls) unconfirmed.delete(url);
    markKept();
  });
  // The first worker that exists (installing, waiting or active) gets the URLs at once.
  const follow = (registration: ServiceWorkerRegistration | undefined) => {
    if (!registration) return;
    const pick = () => {
      const next = registration.active ?? registration.waiting ?? registration.installing;
      if (!next || next === worker) return;
      worker = next;
      flush();
    };
    pick();
    registration.addEventListener('updatefound', pick);
  };
  void container.getRegistration().then(follow, () => undefined);
  void container.ready.then(follow, () => undefined);

  // workerStart is 0 for a fetch no worker handled: those are the ones the worker has not seen. A photo still
  // loading when the worker takes over is reported when it finishes, hence an observer rather than one look.
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) if (entry.workerStart === 0) pending.add(entry.name);
    flush();
  });
  observer.observe({ type: 'resource', buffered: true });
  // The worker in control gets again whatever an earlier one (installing, maybe replaced) did not confirm.
  container.addEventListener(
    'controllerchange',
    () => {
      for (const url of unconfirmed) pending.add(url);
      unconfirmed.clear();
      flush();
    },
    { once: true },
  );
}
