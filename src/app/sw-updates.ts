/**
 * Registers the service worker through workbox-window (loaded after start-up, main.tsx). A new version's worker
 * installs in the background and waits (sw/sw.ts never skips waiting by itself): the update prompt (pwa-prompts.tsx)
 * offers it, and only when the visitor chooses does it take over (SKIP_WAITING) and the page reload under it. Writes
 * queued offline are in IndexedDB (src/offline/) and survive the reload.
 */
import { Workbox } from 'workbox-window';
import { setUpdateReady } from './pwa-state.ts';

/** Browsers look for a new worker on navigations; a tab left open for hours asks too. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function registerServiceWorker(url = '/sw.js'): Workbox {
  const wb = new Workbox(url);
  let chosen = false;
  wb.addEventListener('waiting', () => {
    setUpdateReady(() => {
      chosen = true;
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  // Another tab chose to update: this one now runs old code under the new worker (whose cache no longer holds the old
  // screens' files). It offers the reload as well, at the visitor's pace.
  wb.addEventListener('controlling', (event) => {
    if (!chosen && event.isUpdate) setUpdateReady(() => window.location.reload());
  });
  // A browser that refuses the worker (a private window, a policy, an automation that blocks it) keeps the app as it
  // is online, without an uncaught rejection in its console.
  wb.register().catch(() => undefined);
  setInterval(() => void wb.update(), UPDATE_CHECK_MS);
  return wb;
}
