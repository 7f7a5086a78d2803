/**
 * Routes. Every path starts with the language (`/es/…`, `/en/…`, `/de/…`, `/pt_BR/…`); screens are loaded
 * lazily per feature so the home route ships only what it needs.
 */
import { createBrowserRouter, Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '#contract/languages.ts';
import { Layout } from './layout.tsx';
import { ErrorPage } from './routes/error-page.tsx';
import { NotFoundPage } from '#src/components/not-found.tsx';

function RootRedirect() {
  const { i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  return <Navigate to={`/${lng}${window.location.search}`} replace />;
}

export function createRouter() {
  return createBrowserRouter([
    { path: '/', element: <RootRedirect />, errorElement: <ErrorPage /> },
    {
      path: '/:lng',
      element: <Layout />,
      errorElement: <ErrorPage />,
      children: [
        {
          errorElement: <ErrorPage />,
          children: [
            { index: true, lazy: async () => ({ Component: (await import('#src/features/listings/routes/home.tsx')).HomeRoute }) },
            {
              path: 'dashboard',
              lazy: async () => ({ Component: (await import('#src/features/account/routes/dashboard.tsx')).DashboardRoute }),
            },
            {
              path: 'legal/:page',
              lazy: async () => ({ Component: (await import('#src/features/legal/routes/legal-page.tsx')).LegalPageRoute }),
            },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);
}
