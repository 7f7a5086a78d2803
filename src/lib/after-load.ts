/**
 * Work a first visit can do without, started once the page has settled: `delayMs` after the window's `load` event
 * (at once if it has fired), then at the browser's next idle moment (at most `idleTimeoutMs` later).
 *
 * On a 2-core phone, background work started during the page's start-up (a service worker's install fetching and
 * storing the whole app, a stylesheet restyling the page) competes with hydration for the CPU and stretches its tasks
 * past the 50 ms a tap may wait (Lighthouse's Total Blocking Time): docs/benchmarks.md.
 */
export function afterLoad(task: () => void, { delayMs, idleTimeoutMs = 3000 }: { delayMs: number; idleTimeoutMs?: number }): void {
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => task(), { timeout: idleTimeoutMs });
    else task();
  };
  const start = () => void setTimeout(whenIdle, delayMs);
  // The entry's code may run after `load` (public/app-start.js starts it then on a server-rendered first screen): a
  // listener added now would never fire.
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
