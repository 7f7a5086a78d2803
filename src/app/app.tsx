/**
 * Providers: Mantine (theme, dark by default, persisted), i18n, queries (persisted in the browser), router, and the notification/modal layer
 * (loaded on first use, see src/lib/overlays.tsx). Date pickers bring their own provider
 * (src/components/localised-dates-provider.tsx) so dayjs stays out of the pages that have none.
 */
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { IsRestoringProvider, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import type { I18n } from '#src/lib/i18n-core.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ApiError, OfflineError } from '#src/lib/api-client.ts';
import { OverlayHost } from '#src/lib/overlays.tsx';
import { hasPersistedQueries } from '#src/lib/query-persist-flag.ts';
import { AppBrowserRouter } from './browser-router.tsx';
import { AppRoutes } from './router.tsx';
import { cssVariablesResolver, theme, THEME_STORAGE_KEY } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });

/** How long an unused answer stays in memory when the cache is persisted: as long as the saved copy lives. */
const PERSISTED_GC_TIME = 7 * 24 * 60 * 60 * 1000;

function createQueryClient(persisted: boolean) {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // Asked once even offline: the service worker may have the answer. Retries wait for the network.
        networkMode: 'offlineFirst',
        // Not on the server (no persistence there): a week-long timer per render would keep every request's cache.
        ...(persisted ? { gcTime: PERSISTED_GC_TIME } : {}),
        // 4xx answers will not change by asking again.
        // Offline, a request that found no network fails at once (the page shows the saved copy or the offline state)
        // instead of waiting for a retry: queries are asked again when the connection returns.
        retry: (count, err) =>
          !(err instanceof ApiError && err.status >= 400 && err.status < 500) &&
          !(err instanceof OfflineError && !navigator.onLine) &&
          count < 2,
      },
    },
  });
}

/**
 * Restores the persisted query cache (src/lib/query-persist.ts, loaded lazily by main.tsx) and saves it from then on.
 * Until it has restored, queries wait instead of fetching: offline, a reload shows the saved answers, not an error or
 * a sign-in screen. What the page came with (the first screen's answers) shows meanwhile. A browser with no saved copy
 * (query-persist-flag.ts) does not wait.
 */
export type PersistQueries = (client: QueryClient) => Promise<unknown>;

function useRestoredQueries(client: QueryClient, persist: PersistQueries | undefined): boolean {
  // Nothing saved (a first visit): nothing to wait for; the cache starts saving in the background.
  const [restoring, setRestoring] = useState(() => !!persist && hasPersistedQueries());
  const started = useRef(false);
  useEffect(() => {
    if (!persist || started.current) return;
    started.current = true;
    // A cache that cannot be read (no IndexedDB, a private window) is no reason to hold the page.
    void persist(client)
      .catch((err: unknown) => console.warn('query cache not restored:', err))
      .finally(() => setRestoring(false));
  }, [client, persist]);
  return restoring;
}

/**
 * `Router` is the browser's history router; the server's rendering of the first screen (entry-server.tsx) passes a
 * static one for the requested URL. Neither adds markup, so the page hydrates over what the server rendered.
 */
export function App({
  i18n,
  Router = AppBrowserRouter,
  persistQueries,
}: {
  i18n: I18n;
  Router?: ComponentType<{ children: ReactNode }>;
  persistQueries?: PersistQueries;
}) {
  const queryClient = useMemo(() => createQueryClient(!!persistQueries), [persistQueries]);
  const restoring = useRestoredQueries(queryClient, persistQueries);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="dark"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      // Shipped as a stylesheet instead (src/app/mantine-theme-vars.css, vite/mantine-theme-vars.ts): computing them
      // at every start took ~40 ms of its longest task on a phone.
      withCssVariables={false}
      withGlobalClasses={false}
    >
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <IsRestoringProvider value={restoring}>
            <Suspense fallback={<PageLoader />}>
              <OverlayHost />
              <Router>
                <AppRoutes />
              </Router>
            </Suspense>
          </IsRestoringProvider>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>
  );
}
