/** Browser entry: styles, i18n, the right-click rule, the service worker, the persisted queries, then the React tree. */
import './app/mantine-shell.css';
import './app/global.css';
// After the others, as Mantine's own <style> came: the theme's variables override Mantine's defaults.
import './app/mantine-theme-vars.css';
import { startTransition, StrictMode } from 'react';
import { App, type PersistQueries } from './app/app.tsx';
import { capturePwaEvents } from './app/pwa-state.ts';
import { preloadLandingScreen } from './app/router.tsx';
import { afterLoad } from './lib/after-load.ts';
import { createI18n } from './lib/i18n.ts';

const SERVICE_WORKER_DELAY_MS = 3000;
const REST_OF_STYLES_DELAY_MS = 10_000;

// SPEC §2: the context menu is disabled — except in form fields, where people paste and correct spelling.
document.addEventListener('contextmenu', (event) => {
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, textarea, [contenteditable="true"]')) return;
  event.preventDefault();
});

// Before anything else: the browser may offer the install prompt early, and only once.
capturePwaEvents();
const landingScreen = preloadLandingScreen(location.pathname);
// The persisted query cache's code (IndexedDB, the persister) is not in the first load: fetched now, alongside the
// screen's code; the App's queries wait for its restore (app.tsx).
const queryPersistence = import('./lib/query-persist.ts');

const persistQueries: PersistQueries = async (client) => {
  const { startQueryPersistence } = await queryPersistence;
  await startQueryPersistence(client, { buster: __BUILD_ID__ }).restored;
};

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  // workbox-window: a new version waits for the visitor's choice (src/app/sw-updates.ts).
  // Some seconds after the page has loaded, at an idle moment: the worker's install fetches and stores the whole app
  // (its precache), work that on a 2-core phone competes with hydration for the CPU. Registered at the first idle moment
  // instead (often amid hydration), side by side at 5.6× CPU: the home's Total Blocking Time median 96–102 ms against
  // 14–25 ms with a delay, a model page's 189–220 ms against 20–62 ms (docs/benchmarks.md).
  afterLoad(
    () => {
      void import('./app/sw-updates.ts').then(({ registerServiceWorker }) => registerServiceWorker());
      void import('./lib/offline-warm-up.ts').then(({ warmUpOfflineCaches }) => warmUpOfflineCaches());
    },
    { delayMs: SERVICE_WORKER_DELAY_MS },
  );
}

// The rest of Mantine's styles (other screens; the router waits for them before showing one), some seconds after the
// first visit's page has loaded, at an idle moment: adding a stylesheet makes the browser restyle the whole page, a
// long task (≈100 ms on a mid-range phone) best kept away from the page's start-up and its first taps.
afterLoad(() => void import('./app/mantine-all.ts'), { delayMs: REST_OF_STYLES_DELAY_MS });

/**
 * The start-up is cut into tasks: evaluating this chunk (React, Mantine, the translations, the router) is one task the
 * browser cannot split, and on a phone (4× slower than this machine) each further step run in it — the translations' set-up,
 * the React root — made it longer than the 50 ms a tap may wait (Lighthouse's Total Blocking Time). Between the steps
 * the browser gets the main thread back. (Not a top-level await: the bundler then splits the entry differently and
 * leaves it out of the build's manifest, which the server reads.)
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  // React DOM's own set-up (its event system, its scheduler) in a task of its own, then the translations', then the root.
  const { createRoot, hydrateRoot } = await import('react-dom/client');
  await nextTask();
  const i18n = createI18n();
  await nextTask();
  const container = document.getElementById('root')!;
  const app = (
    <StrictMode>
      <App i18n={i18n} persistQueries={persistQueries} />
    </StrictMode>
  );
  if (container.firstElementChild) {
    // The server rendered this page's first screen (server/plugins/first-screen.ts): React takes over that markup. Were
    // it to differ (a saved light theme or list view, on a browser the service worker does not serve yet), React renders
    // that part again: worth a warning, not an error.
    // Once the screen's code is in (see preloadLandingScreen); if it fails to load, hydration goes ahead all the same.
    void landingScreen
      .catch(() => undefined)
      // In a transition: React hydrates in slices of a few milliseconds and yields to the browser between them (a
      // default-priority hydration is one task of the whole tree, a phone's Total Blocking Time).
      .then(() =>
        startTransition(() => void hydrateRoot(container, app, { onRecoverableError: (error) => console.warn('hydration:', error) })),
      );
  } else {
    // In a transition, React renders the first screen in slices of a few milliseconds, yielding to the browser between
    // them, instead of one long task that holds input on a slow phone (Lighthouse's Total Blocking Time).
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
}

void start();
