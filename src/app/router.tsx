/**
 * Routes. Every path starts with the language (`/es/…`, `/en/…`, `/de/…`, `/pt_BR/…`); screens are loaded
 * lazily per feature so the home route ships only what it needs (the shell's <Suspense> shows the loader on a
 * first visit; later navigations keep the current page on screen until the next one is ready, see
 * browser-router.tsx). The account screens sit behind the client-side guards of src/components/route-guards.tsx
 * (the server checks again on every call). Each level has an error boundary, as the data router's
 * errorElement gave us: a failing screen shows the error page inside the shell.
 */
import { createElement, lazy, type ComponentType } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Navigate, Outlet, Route, Routes } from '#src/lib/router.tsx';
import { isLanguage } from '#contract/languages.ts';
import { NotFoundPage } from '#src/components/not-found.tsx';
import { GuestOnly, RequireAuth } from '#src/components/route-guards.tsx';
import { NAMED_ROUTES } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { Layout } from './layout.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

function RootRedirect() {
  const { i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  return <Navigate to={`/${lng}${window.location.search}`} replace />;
}

/** Mantine's whole stylesheet; the first visit's pages need only src/app/mantine-shell.css (main.tsx). */
const allStyles = () => import('./mantine-all.ts');

/** A screen exported as `name` by a lazily loaded module, rendered once Mantine's whole stylesheet is in. */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K, styles: 'all' | 'shell' = 'all') {
  return lazy(async () => {
    const [module] = await Promise.all([load(), styles === 'all' ? allStyles() : undefined]);
    return { default: module[name] };
  });
}

// A first visit lands here: these use only what mantine-shell.css holds.
const homeScreen = () => import('#src/features/listings/routes/home.tsx');
const modelShowScreen = () => import('#src/features/models/routes/model-show.tsx');
const HomeLazy = screen(homeScreen, 'HomeRoute', 'shell');
const ModelShowLazy = screen(modelShowScreen, 'ModelShowRoute', 'shell');

/**
 * A landing screen whose code is already here renders at once instead of through React.lazy (which suspends at least
 * once). Hydrating over the server's markup (main.tsx) waits for that code, so the page's boundary hydrates in the same
 * pass as the layout: a boundary left waiting could be thrown away and rendered again, loader first, if the layout
 * re-rendered meanwhile.
 */
function landing(Lazy: ComponentType, load: () => Promise<ComponentType>) {
  let loaded: ComponentType | undefined;
  const preload = () => load().then((component) => (loaded = component));
  const Screen = () => (loaded ? createElement(loaded) : <Lazy />);
  return { Screen, preload };
}
const home = landing(HomeLazy, async () => (await homeScreen()).HomeRoute);
const modelShow = landing(ModelShowLazy, async () => (await modelShowScreen()).ModelShowRoute);
const Home = home.Screen;
const ModelShow = modelShow.Screen;

/**
 * Loads the code of the screen a first visit lands on (the home, a model's page) at start-up, alongside the
 * translations, instead of once they have arrived and the router reaches it; resolves when it is in.
 */
export function preloadLandingScreen(pathname: string): Promise<unknown> {
  const parts = pathname.split('/').filter(Boolean);
  if (!isLanguage(parts[0])) return Promise.resolve();
  if (parts.length === 1) return home.preload();
  if (parts.length === 3 && parts[1] === 'models') return modelShow.preload();
  return Promise.resolve();
}
const SyncPage = screen(() => import('./routes/sync-page.tsx'), 'SyncPageRoute');
// Issue 28: favourites (visitors too: kept on the device) and the saved searches' e-mail unsubscribe (no account needed).
const Favourites = screen(() => import('#src/features/favourites/routes/favourites-page.tsx'), 'FavouritesRoute');
const SavedSearchUnsubscribe = screen(() => import('#src/features/saved-searches/routes/unsubscribe.tsx'), 'SavedSearchUnsubscribeRoute');
const LegalPage = screen(() => import('#src/features/legal/routes/legal-page.tsx'), 'LegalPageRoute', 'shell');

const Login = screen(() => import('#src/features/auth/routes/login.tsx'), 'LoginRoute');
const Register = screen(() => import('#src/features/auth/routes/register.tsx'), 'RegisterRoute');
const ForgotPassword = screen(() => import('#src/features/auth/routes/forgot-password.tsx'), 'ForgotPasswordRoute');
const ResetPassword = screen(() => import('#src/features/auth/routes/reset-password.tsx'), 'ResetPasswordRoute');
const ConfirmPassword = screen(() => import('#src/features/auth/routes/confirm-password.tsx'), 'ConfirmPasswordRoute');
const VerifyEmail = screen(() => import('#src/features/auth/routes/verify-email.tsx'), 'VerifyEmailRoute');
const VerifyNotice = screen(() => import('#src/features/auth/routes/verify-email-notice.tsx'), 'VerifyEmailNoticeRoute');

// Statements of reasons (features/statements): a panel in every role's dashboard, and the statement page with the appeal.
const statementScreens = () => import('#src/features/statements/routes/statements-routes.tsx');
const StatementsIndex = screen(statementScreens, 'StatementsIndexRoute');
const StatementShow = screen(statementScreens, 'StatementShowRoute');
const AccountSuspended = screen(statementScreens, 'AccountSuspendedRoute');
// The client's dashboard (issue 28): favourites, saved searches, notifications and recent views, each from its feature.
const Dashboard = lazy(async () => {
  const [
    { DashboardRoute },
    { ClientDashboard },
    { StatementsPanel },
    { FavouritesPanel },
    { RecentViewsPanel },
    { SavedSearchesPanel },
    { NotificationsPanel },
  ] = await Promise.all([
    import('#src/features/account/routes/dashboard.tsx'),
    import('#src/features/account/components/client-dashboard.tsx'),
    statementScreens(),
    import('#src/features/favourites/components/favourites-panel.tsx'),
    import('#src/features/favourites/components/recent-views-panel.tsx'),
    import('#src/features/saved-searches/components/saved-searches-panel.tsx'),
    import('#src/features/notifications/components/notifications-panel.tsx'),
    allStyles(),
  ]);
  return {
    default: () => (
      <DashboardRoute>
        <ClientDashboard
          favourites={<FavouritesPanel />}
          savedSearches={<SavedSearchesPanel />}
          notifications={<NotificationsPanel />}
          recentViews={<RecentViewsPanel />}
          more={<StatementsPanel />}
        />
      </DashboardRoute>
    ),
  };
});
// The advertisers' numbers per ad and week (issue 28), shared by the model's and the publicist's dashboards.
const adStatsPanel = () => import('#src/components/ad-stats/ad-stats-panel.tsx');
// The model's dashboard is the account dashboard with the profile's status card and ad actions in it: the two
// features meet here, in the app, since features never import each other.
const ModelDashboard = lazy(async () => {
  const [{ DashboardView }, { ModelProfileSummary }, { StatementsPanel }, { AdStatsPanel }] = await Promise.all([
    import('#src/features/account/components/dashboard-view.tsx'),
    modelProfileScreens(),
    statementScreens(),
    adStatsPanel(),
    allStyles(),
  ]);
  return {
    default: () => (
      <DashboardView kind="model">
        <ModelProfileSummary noneCard={false} />
        <AdStatsPanel />
        <StatementsPanel />
      </DashboardView>
    ),
  };
});
// Staff (features/admin): the admin and super-admin dashboards are the account dashboard with the queue counts and
// the staff lists in it, composed here like the model's. No "decisions about your content" panel: staff publish no
// content, so no decision is ever about theirs (issue 24 D).
const adminScreens = () => import('#src/features/admin/routes/admin-routes.tsx');
const staffDashboard = (kind: 'admin' | 'super_admin') =>
  lazy(async () => {
    const [{ DashboardView }, { AdminDashboardPanel }] = await Promise.all([
      import('#src/features/account/components/dashboard-view.tsx'),
      adminScreens(),
      allStyles(),
    ]);
    return {
      default: () => (
        <DashboardView kind={kind}>
          <AdminDashboardPanel superAdmin={kind === 'super_admin'} />
        </DashboardView>
      ),
    };
  });
const AdminDashboard = staffDashboard('admin');
const SuperAdminDashboard = staffDashboard('super_admin');
const AdminModels = screen(adminScreens, 'AdminModelsRoute');
const AdminModelsUnder = screen(adminScreens, 'AdminModelsUnderRoute');
const AdminPublicists = screen(adminScreens, 'AdminPublicistsRoute');
const AdminReviewPublicists = screen(adminScreens, 'AdminReviewPublicistsRoute');
const AdminClients = screen(adminScreens, 'AdminClientsRoute');
const AdminClientShow = screen(adminScreens, 'AdminClientShowRoute');
const AdminUsersWithoutProfile = screen(adminScreens, 'AdminUsersWithoutProfileRoute');
const AdminReviewAds = screen(adminScreens, 'AdminReviewAdsRoute');
const AdminReviewPhotos = screen(adminScreens, 'AdminReviewPhotosRoute');
const AdminReviewVerifications = screen(adminScreens, 'AdminReviewVerificationsRoute');
const AdminAppeals = screen(adminScreens, 'AdminAppealsRoute');
const SuperAdminAdmins = screen(adminScreens, 'SuperAdminAdminsRoute');
const SuperAdminAudit = screen(adminScreens, 'SuperAdminAuditRoute');
// Notices about ads and contact messages for staff (features/notices); the public contact page (features/contact).
const noticesScreens = () => import('#src/features/notices/routes/notices-routes.tsx');
const AdminReports = screen(noticesScreens, 'ReportsQueueRoute');
const AdminReportShow = screen(noticesScreens, 'ReportShowRoute');
const AdminMessages = screen(noticesScreens, 'ContactMessagesRoute');
const Contact = screen(() => import('#src/features/contact/routes/contact-page.tsx'), 'ContactRoute');
const ProfileEdit = screen(() => import('#src/features/account/routes/profile-edit.tsx'), 'ProfileEditRoute');
const modelProfileScreens = () => import('#src/features/model-profile/routes/model-profile-routes.tsx');
const ModelProfileIndex = screen(modelProfileScreens, 'ModelProfileIndexRoute');
const ModelProfileCreate = screen(modelProfileScreens, 'ModelProfileCreateRoute');
const ModelProfileEdit = screen(modelProfileScreens, 'ModelProfileEditRoute');
const ModelVerify = screen(() => import('#src/features/model-profile/routes/model-verify.tsx'), 'ModelVerifyRoute');
// The publicist's workspace (features/publicist) and the model's public consent pages (features/consent).
const publicistScreens = () => import('#src/features/publicist/routes/publicist-routes.tsx');
// The publicist's dashboard is the account dashboard with the agency's summary in it, composed here like the model's.
const PublicistDashboard = lazy(async () => {
  const [{ DashboardView }, { PublicistSummary }, { StatementsPanel }, { AdStatsPanel }] = await Promise.all([
    import('#src/features/account/components/dashboard-view.tsx'),
    publicistScreens(),
    statementScreens(),
    adStatsPanel(),
    allStyles(),
  ]);
  return {
    default: () => (
      <DashboardView kind="publicist">
        <PublicistSummary />
        <AdStatsPanel />
        <StatementsPanel />
      </DashboardView>
    ),
  };
});
const PublicistProfileCreate = screen(publicistScreens, 'PublicistProfileCreateRoute');
const PublicistIndex = screen(publicistScreens, 'PublicistIndexRoute');
const PublicistProfileEdit = screen(publicistScreens, 'PublicistProfileEditRoute');
const PublicistModelCreate = screen(publicistScreens, 'PublicistModelCreateRoute');
const PublicistModelEdit = screen(publicistScreens, 'PublicistModelEditRoute');
const consentScreens = () => import('#src/features/consent/routes/consent-page.tsx');
const Consent = screen(consentScreens, 'ConsentRoute');
const ConsentWithdraw = screen(consentScreens, 'ConsentWithdrawRoute');
const ConsentCode = screen(consentScreens, 'ConsentCodeRoute');
// Messenger (features/messenger): a user's support conversation, or the staff's conversations.
const messengerScreens = () => import('#src/features/messenger/routes/messenger-routes.tsx');
const MessengerIndex = screen(messengerScreens, 'MessengerIndexRoute');
const MessengerConversation = screen(messengerScreens, 'MessengerConversationRoute');
// Media/Photos: its chunk is small; the compression library and the face detector load only when photos are added.
const Photos = screen(() => import('#src/features/media/routes/photos.tsx'), 'PhotosRoute');

// Loaded only for a suspended account: its module brings the statements contract, and with it Zod, which the
// first visit's pages do not need.
const SuspendedGuard = lazy(async () => ({
  default: (await import('#src/features/statements/components/suspended-guard.tsx')).SuspendedGuard,
}));

/**
 * The pages inside the shell, behind one error boundary so a failing page keeps the header and footer. A suspended
 * account sees only its restricted view (its statements, the appeal, its data): the guard renders the page or sends it there.
 */
function Pages() {
  const { data: user } = useCurrentUser();
  return <RouteErrorBoundary>{user?.status === 'suspended' ? <SuspendedGuard /> : <Outlet />}</RouteErrorBoundary>;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/"
        element={
          <RouteErrorBoundary>
            <RootRedirect />
          </RouteErrorBoundary>
        }
      />
      <Route
        path="/:lng"
        element={
          <RouteErrorBoundary>
            <Layout />
          </RouteErrorBoundary>
        }
      >
        <Route element={<Pages />}>
          <Route index element={<Home />} />

          {/* Guests only: a user who arrives logged in goes to `next` or their dashboard. */}
          <Route element={<GuestOnly />}>
            <Route path="login" element={<Login />} />
            <Route path="register" element={<Register />} />
          </Route>
          {/* Open to everyone: the e-mail links work whether or not the browser has a session. */}
          <Route path="forgot-password" element={<ForgotPassword />} />
          <Route path="reset-password/:token" element={<ResetPassword />} />
          <Route path="verify-email/:id/:hash" element={<VerifyEmail />} />
          {/* The model's consent to a publicist's listing: no account needed. */}
          <Route path="consent" element={<ConsentCode />} />
          <Route path="consent/:token" element={<Consent />} />
          <Route path="consent/withdraw/:token" element={<ConsentWithdraw />} />
          {/* The outbox: what is queued on this device. Its own session check: offline after a reload it still lists the queue. */}
          <Route path="sync" element={<SyncPage />} />
          {/* Any logged-in user. */}
          <Route element={<RequireAuth />}>
            <Route path="confirm-password" element={<ConfirmPassword />} />
            <Route path="verify-email" element={<VerifyNotice />} />
            <Route path="profile" element={<ProfileEdit />} />
            <Route path="dashboard" element={<Dashboard />} />
            <Route path="statements" element={<StatementsIndex />} />
            <Route path="statements/:id" element={<StatementShow />} />
            <Route path="account/suspended" element={<AccountSuspended />} />
            <Route path="messenger" element={<MessengerIndex />} />
            <Route path="messenger/:id" element={<MessengerConversation />} />
          </Route>
          {/* Named dashboards and profile creation, per role (SPEC §2, §6). */}
          <Route element={<RequireAuth roles={['model']} />}>
            <Route path="model/dashboard" element={<ModelDashboard />} />
            <Route path="profile/model" element={<ModelProfileIndex />} />
            <Route path="profile/model/create" element={<ModelProfileCreate />} />
            <Route path="profile/model/edit" element={<ModelProfileEdit />} />
            <Route path="profile/model/verify" element={<ModelVerify />} />
          </Route>
          <Route element={<RequireAuth roles={['publicist']} />}>
            <Route path="publicist/dashboard" element={<PublicistDashboard />} />
            <Route path="profile/publicist/create" element={<PublicistProfileCreate />} />
            <Route path="profile/publicist" element={<PublicistIndex />} />
            <Route path="profile/publicist/edit" element={<PublicistProfileEdit />} />
            <Route path="publicist/models/create" element={<PublicistModelCreate />} />
            <Route path="publicist/models/:id/edit" element={<PublicistModelEdit />} />
          </Route>
          <Route element={<RequireAuth roles={['admin', 'super_admin']} />}>
            <Route path="admin/dashboard" element={<AdminDashboard />} />
            <Route path="admin/models" element={<AdminModels />} />
            <Route path="admin/models-under-responsibility" element={<AdminModelsUnder />} />
            <Route path="admin/publicists" element={<AdminPublicists />} />
            <Route path="admin/clients" element={<AdminClients />} />
            <Route path="admin/clients/:id" element={<AdminClientShow />} />
            <Route path="admin/users-without-profile" element={<AdminUsersWithoutProfile />} />
            <Route path="admin/review/ads" element={<AdminReviewAds />} />
            <Route path="admin/review/photos" element={<AdminReviewPhotos />} />
            <Route path="admin/review/verifications" element={<AdminReviewVerifications />} />
            <Route path="admin/review/publicists" element={<AdminReviewPublicists />} />
            <Route path="admin/appeals" element={<AdminAppeals />} />
            {/* The same screens under SPEC §2's names (Profile/Admin index, NewUsersWithoutProfile, Users/Clients, Users/Publicists). */}
            <Route path="profile/admin" element={<AdminModels />} />
            <Route path="profile/admin/new-users-without-profile" element={<AdminUsersWithoutProfile />} />
            <Route path="users/clients" element={<AdminClients />} />
            <Route path="users/clients/:id" element={<AdminClientShow />} />
            <Route path="users/publicists" element={<AdminPublicists />} />
            <Route path="admin/reports" element={<AdminReports />} />
            <Route path="admin/reports/:id" element={<AdminReportShow />} />
            <Route path="admin/messages" element={<AdminMessages />} />
          </Route>
          <Route element={<RequireAuth roles={['super_admin']} />}>
            <Route path="super-admin/dashboard" element={<SuperAdminDashboard />} />
            <Route path="super-admin/admins" element={<SuperAdminAdmins />} />
            <Route path="super-admin/audit" element={<SuperAdminAudit />} />
            {/* Profile/Admin Create: a super admin creates an admin. */}
            <Route path="profile/admin/create" element={<SuperAdminAdmins />} />
          </Route>
          {/* Media/Photos (named routes upload.photos and profile.photos): the server decides which ads each may change. */}
          <Route element={<RequireAuth roles={['model', 'publicist', 'admin', 'super_admin']} />}>
            <Route path={NAMED_ROUTES['upload.photos'].pattern} element={<Photos />} />
            <Route path={NAMED_ROUTES['profile.photos'].pattern} element={<Photos />} />
          </Route>

          <Route path="models/:id" element={<ModelShow />} />
          <Route path="favourites" element={<Favourites />} />
          <Route path="saved-searches/unsubscribe/:id/:token" element={<SavedSearchUnsubscribe />} />
          <Route path="legal/:page" element={<LegalPage />} />
          <Route path="contact" element={<Contact />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
