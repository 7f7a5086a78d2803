/** Providers: Mantine (theme, dark by default, persisted), dates (Monday first), notifications, modals, queries, router. */
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import type { i18n as I18n } from 'i18next';
import { isLanguage } from '#contract/languages.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { dayjsLocale, FIRST_DAY_OF_WEEK } from '#src/lib/format.ts';
import { DEFAULT_PLACEMENT, NOTIFICATION_DURATION_MS, NOTIFICATION_LIMIT } from '#src/lib/response-handler.ts';
import { createRouter } from './router.tsx';
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

function LocalisedProviders() {
  const { i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const router = useMemo(() => createRouter(), []);
  return (
    <DatesProvider settings={{ locale: dayjsLocale(lng), firstDayOfWeek: FIRST_DAY_OF_WEEK }}>
      <ModalsProvider labels={{ confirm: i18n.t('common.close'), cancel: i18n.t('common.close') }}>
        <Notifications position={DEFAULT_PLACEMENT} limit={NOTIFICATION_LIMIT} autoClose={NOTIFICATION_DURATION_MS} />
        <RouterProvider router={router} />
      </ModalsProvider>
    </DatesProvider>
  );
}

export function App({ i18n }: { i18n: I18n }) {
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
            <LocalisedProviders />
          </Suspense>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
