/**
 * Routes. Every path starts with the language (`/es/…`, `/en/…`, `/de/…`, `/pt_BR/…`); screens are loaded
 * lazily per feature so the home route ships only what it needs. The account screens sit behind the client-side
 * guards of src/components/route-guards.tsx (the server checks again on every call).
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '#contract/languages.ts';
import { GuestOnly, RequireAuth } from '#src/components/route-guards.tsx';
import { Layout } from './layout.tsx';
import { ErrorPage } from './routes/error-page.tsx';
import { NotFoundPage } from '#src/components/not-found.tsx';

function RootRedirect() {
  const { i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  return <Navigate to={`/${lng}${window.location.search}`} replace />;
}

const authScreens = {
  login: async () => ({ Component: (await import('#src/features/auth/routes/login.tsx')).LoginRoute }),
  register: async () => ({ Component: (await import('#src/features/auth/routes/register.tsx')).RegisterRoute }),
  forgotPassword: async () => ({ Component: (await import('#src/features/auth/routes/forgot-password.tsx')).ForgotPasswordRoute }),
  resetPassword: async () => ({ Component: (await import('#src/features/auth/routes/reset-password.tsx')).ResetPasswordRoute }),
  confirmPassword: async () => ({ Component: (await import('#src/features/auth/routes/confirm-password.tsx')).ConfirmPasswordRoute }),
  verifyEmail: async () => ({ Component: (await import('#src/features/auth/routes/verify-email.tsx')).VerifyEmailRoute }),
  verifyNotice: async () => ({ Component: (await import('#src/features/auth/routes/verify-email-notice.tsx')).VerifyEmailNoticeRoute }),
};

const accountScreens = {
  dashboard: async () => ({ Component: (await import('#src/features/account/routes/dashboard.tsx')).DashboardRoute }),
  model: async () => ({ Component: (await import('#src/features/account/routes/role-dashboards.tsx')).ModelDashboardRoute }),
  publicist: async () => ({ Component: (await import('#src/features/account/routes/role-dashboards.tsx')).PublicistDashboardRoute }),
  admin: async () => ({ Component: (await import('#src/features/account/routes/role-dashboards.tsx')).AdminDashboardRoute }),
  superAdmin: async () => ({ Component: (await import('#src/features/account/routes/role-dashboards.tsx')).SuperAdminDashboardRoute }),
  profile: async () => ({ Component: (await import('#src/features/account/routes/profile-edit.tsx')).ProfileEditRoute }),
  modelCreate: async () => ({ Component: (await import('#src/features/account/routes/profile-create.tsx')).ModelProfileCreateRoute }),
  publicistCreate: async () => ({
    Component: (await import('#src/features/account/routes/profile-create.tsx')).PublicistProfileCreateRoute,
  }),
};

function accountRoutes(): RouteObject[] {
  const a = authScreens;
  const p = accountScreens;
  return [
    // Guests only: a user who arrives logged in goes to `next` or their dashboard.
    {
      element: <GuestOnly />,
      children: [
        { path: 'login', lazy: a.login },
        { path: 'register', lazy: a.register },
      ],
    },
    // Open to everyone: the e-mail links work whether or not the browser has a session.
    { path: 'forgot-password', lazy: a.forgotPassword },
    { path: 'reset-password/:token', lazy: a.resetPassword },
    { path: 'verify-email/:id/:hash', lazy: a.verifyEmail },
    // Any logged-in user.
    {
      element: <RequireAuth />,
      children: [
        { path: 'confirm-password', lazy: a.confirmPassword },
        { path: 'verify-email', lazy: a.verifyNotice },
        { path: 'profile', lazy: p.profile },
        { path: 'dashboard', lazy: p.dashboard },
      ],
    },
    // Named dashboards and profile creation, per role (SPEC §2, §6).
    {
      element: <RequireAuth roles={['model']} />,
      children: [
        { path: 'model/dashboard', lazy: p.model },
        { path: 'profile/model/create', lazy: p.modelCreate },
      ],
    },
    {
      element: <RequireAuth roles={['publicist']} />,
      children: [
        { path: 'publicist/dashboard', lazy: p.publicist },
        { path: 'profile/publicist/create', lazy: p.publicistCreate },
      ],
    },
    { element: <RequireAuth roles={['admin', 'super_admin']} />, children: [{ path: 'admin/dashboard', lazy: p.admin }] },
    { element: <RequireAuth roles={['super_admin']} />, children: [{ path: 'super-admin/dashboard', lazy: p.superAdmin }] },
  ];
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
            ...accountRoutes(),
            {
              path: 'models/:id',
              lazy: async () => ({ Component: (await import('#src/features/models/routes/model-show.tsx')).ModelShowRoute }),
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
