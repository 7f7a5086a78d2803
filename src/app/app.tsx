/**
 * Providers: Mantine (theme, dark by default, persisted), i18n, queries, router, and the notification/modal layer
 * (loaded on first use, see src/lib/overlays.tsx). Date pickers bring their own provider
 * (src/components/localised-dates-provider.tsx) so dayjs stays out of the pages that have none.
 */
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { OverlayHost } from '#src/lib/overlays.tsx';
import { AppBrowserRouter } from './browser-router.tsx';
import { AppRoutes } from './router.tsx';
import { cssVariablesResolver, theme, THEME_STORAGE_KEY } from './theme.ts';

const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // 4xx answers will not change by asking again.
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
    },
  });
}

/**
 * `Router` is the browser's history router; the server's rendering of the first screen (entry-server.tsx) passes a
 * static one for the requested URL. Neither adds markup, so the page hydrates over what the server rendered.
 */
export function App({ i18n, Router = AppBrowserRouter }: { i18n: I18n; Router?: ComponentType<{ children: ReactNode }> }) {
  const queryClient = useMemo(() => createQueryClient(), []);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="dark"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={<PageLoader />}>
            <OverlayHost />
            <Router>
              <AppRoutes />
            </Router>
          </Suspense>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
