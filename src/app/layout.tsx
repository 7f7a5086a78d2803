/**
 * The shell around every page: skip link, header (brand, language, theme, and the account part: login/register
 * or the user menu, see AccountNav), main content, footer with the legal pages, the cookie banner and the
 * navigation progress bar. It also owns the language segment of the URL: `/xx/…` with an unknown xx is
 * redirected to the detected language, and the translations follow the URL. It completes session endings
 * (`useForgetUserAfterSessionEnd`).
 */
import { Anchor, Box, Container, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { lazy, memo, Suspense, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, Navigate, NavigationType, Outlet, useLocation, useNavigationType, useParams } from '#src/lib/router.tsx';
import { isLanguage, toLocaleTag, type Language } from '#contract/languages.ts';
import { AccountNav } from '#src/components/account-nav.tsx';
import { FavouritesNavLink } from '#src/features/favourites/components/favourites-nav-link.tsx';
import { LanguageSwitcher, pathForLanguage } from '#src/components/language-switcher.tsx';
import { OfflineIndicator, OfflineNotice } from '#src/components/offline-notice.tsx';
import { PageLoader } from '#src/components/page-loader.tsx';
import { ThemeToggle } from '#src/components/theme-toggle.tsx';
import { trackPageView } from '#src/lib/analytics.ts';
import { setApiLanguage } from '#src/lib/api-client.ts';
import { getConsent, openConsentPreferences, subscribeConsent } from '#src/lib/consent.ts';
import { useCurrentUser, useForgetUserAfterSessionEnd, useRefreshUserWhenSuspended } from '#src/lib/session.ts';
import { hasOutboxAuthFlag, lastOutboxUser } from '#src/offline/auth-flag.ts';
import { CookieBanner } from './cookie-banner.tsx';
import { NavProgress } from './nav-progress.tsx';
import { InstallControl, UpdateControl } from './pwa-controls.tsx';

// The Messenger entry, the notifications bell and the websocket: for signed-in users only, loaded on demand.
const LiveNav = lazy(async () => ({ default: (await import('./live-nav.tsx')).LiveNav }));
// The outbox's indicator and replayer (Dexie): signed-in users only, loaded after the first paint.
const SyncNav = lazy(async () => ({ default: (await import('./sync-nav.tsx')).SyncNav }));
// Changes queued before the session expired: a signed-out visitor is asked to sign in (no Dexie needed to say so).
const SyncSignInNotice = lazy(async () => ({ default: (await import('./sync-sign-in-notice.tsx')).SignInNotice }));

/**
 * The header's and the page's parts that take no props from the layout, memoised: the layout renders again at every
 * move to another page, and they need not. They follow their own state (language, theme, connection, consent, the
 * session) all the same.
 */
const HeaderOfflineIndicator = memo(OfflineIndicator);
const HeaderInstallControl = memo(InstallControl);
const HeaderLanguageSwitcher = memo(LanguageSwitcher);
const HeaderThemeToggle = memo(ThemeToggle);
const HeaderAccountNav = memo(AccountNav);
const HeaderFavouritesLink = memo(FavouritesNavLink);
const PageNavProgress = memo(NavProgress);
const PageOfflineNotice = memo(OfflineNotice);
const PageCookieBanner = memo(CookieBanner);
const PageUpdateControl = memo(UpdateControl);

const LEGAL_PAGES = [
  ['cookies-policy', 'pages.cookiesPolicy'],
  ['privacy-policy', 'pages.privacyPolicy'],
  ['terms-and-conditions', 'pages.termsAndConditions'],
  ['terms-and-conditions-to-post', 'pages.termsAndConditionsToPost'],
] as const;

/** The footer: the legal pages, the contact page and the cookie choices (memoised, like the header's parts). */
const Footer = memo(function Footer({ lng }: { lng: Language }) {
  const { t } = useTranslation();
  return (
    <Box component="footer" py="lg" mt="xl" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="xl">
        <VisuallyHidden>
          <h2>{t('footer.legal')}</h2>
        </VisuallyHidden>
        <Group gap="md" mb="xs">
          {LEGAL_PAGES.map(([slug, key]) => (
            <Anchor key={slug} component={Link} to={`/${lng}/legal/${slug}`} size="sm" c="dimmed">
              {t(key)}
            </Anchor>
          ))}
          <Anchor component={Link} to={`/${lng}/contact`} size="sm" c="dimmed">
            {t('contact.page.footerLink')}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={openConsentPreferences}>
            {t('cookies.manage')}
          </Anchor>
        </Group>
        <Text size="xs" c="dimmed">
          {t('footer.rights', { year: new Date().getFullYear() })}
        </Text>
      </Container>
    </Box>
  );
});

function usePageViews() {
  const { pathname } = useLocation();
  const consent = useSyncExternalStore(subscribeConsent, getConsent, () => null);
  useEffect(() => {
    if (consent === 'accepted') void trackPageView(pathname);
  }, [pathname, consent]);
}

/**
 * After a move to another page, the keyboard and screen-reader focus goes to the new page's heading (or its main
 * region): left alone it stays on a link of the page that is gone — the document's body — and the next Tab starts
 * from the top of the layout while a screen reader says nothing of the new page. A page that put the focus somewhere
 * in its content itself (an autofocused field) keeps it. Only the path counts: filters and pages of a listing change
 * the query, and the focus stays where the visitor is working.
 */
function useFocusOnNavigation() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const main = document.getElementById('main');
    if (!main) return;
    const active = document.activeElement;
    if (active && active !== main && main.contains(active)) return;
    const focusHeading = () => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    // The page is still loading its data (a skeleton, no heading yet): the main region meanwhile, then the heading
    // once it is there — unless the visitor has moved on by then.
    main.focus({ preventScroll: true });
    const observer = new MutationObserver(() => {
      const now = document.activeElement;
      if (now !== main && now !== document.body) observer.disconnect();
      else if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      clearTimeout(stop);
      observer.disconnect();
    };
  }, [pathname]);
}

const PAGE_LOADED_AT = typeof performance === 'undefined' ? 0 : performance.timeOrigin;

/**
 * Whether the signed-in user on screen was confirmed by the server since this page loaded (or cannot be, offline).
 * The user restored from the saved copy may be a session that has ended meanwhile: the Messenger count and the bell
 * wait for that answer, else they ask with a dead session and the browser logs their 401s as errors. A restored copy
 * recent enough not to be asked again by itself is asked once here.
 */
function useSessionChecked(userQuery: ReturnType<typeof useCurrentUser>): boolean {
  const checked = userQuery.isError || userQuery.dataUpdatedAt >= PAGE_LOADED_AT;
  const { data, isFetching, refetch } = userQuery;
  useEffect(() => {
    if (data && !checked && !isFetching) void refetch();
  }, [data, checked, isFetching, refetch]);
  return checked;
}

/**
 * A move to another page (a link, a form's redirect) starts at its top: the window kept the old page's scroll, so at
 * 360 px the login after a password reset opened scrolled past its heading. Back and Forward (POP) leave the
 * browser's own restoration alone; a link to an anchor (`#…`) scrolls there itself.
 */
function useScrollTopOnNavigation() {
  const { pathname, hash } = useLocation();
  const type = useNavigationType();
  const previous = useRef(pathname);
  useEffect(() => {
    // The same page in another language (the language switcher) keeps its place.
    const same = previous.current.replace(/^\/[^/]*/, '') === pathname.replace(/^\/[^/]*/, '');
    previous.current = pathname;
    if (!same && type !== NavigationType.Pop && !hash) window.scrollTo(0, 0);
  }, [pathname, hash, type]);
}

/**
 * The page under the layout, behind its own Suspense boundary. Memoised: the server-rendered page inside is hydrated in
 * small slices after the layout (React leaves a Suspense boundary dehydrated and comes back to it at idle priority). A
 * re-render of the layout that handed this boundary new props (a new `<Outlet />` element each time) made React hydrate
 * the whole page at once, synchronously, before applying it: the session check's answer arriving during hydration did
 * exactly that on every first visit (a 110 ms task on a desktop, ~450 ms on Lighthouse's phone).
 */
const RouteOutlet = memo(function RouteOutlet() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
});

/**
 * The parts of the header that follow the session, each subscribed to it on its own: the session's answer (and any
 * change of it) re-renders these, not the whole layout — React runs such an update synchronously, in one task, which
 * on a phone held the first taps after hydration (Lighthouse's Total Blocking Time).
 */
function BrandName() {
  const { t } = useTranslation();
  const user = useCurrentUser().data;
  // A signed-in phone header also holds the Messenger and the bell: the logo alone names the brand there.
  return (
    <Text fw={800} size="lg" c="var(--vitrina-brand-text)" visibleFrom={user ? 'sm' : undefined}>
      {t('app.name')}
    </Text>
  );
}

/** The header's navigation; `leading` and `trailing` come from the layout, unchanged when only the session changes. */
function HeaderNav({ label, leading, trailing }: { label: string; leading: ReactNode; trailing: ReactNode }) {
  const userQuery = useCurrentUser();
  const user = userQuery.data;
  const sessionChecked = useSessionChecked(userQuery);
  // Offline after a reload the session cannot be checked: the indicator still shows the device's queue.
  const outboxUser = user?.id ?? (userQuery.isError ? lastOutboxUser() : undefined);
  return (
    // Signed in, a 360 px phone holds seven controls here (favourites, Messenger, bell, account…): 2 px apart they fit.
    <Group gap={user ? 2 : 4} component="nav" aria-label={label} wrap="nowrap">
      {leading}
      {/* A suspended account's restricted view has no Messenger or notifications to call. */}
      {user && user.status !== 'suspended' && sessionChecked ? (
        <Suspense fallback={null}>
          <LiveNav userId={user.id} role={user.role} />
        </Suspense>
      ) : null}
      {outboxUser !== undefined ? (
        <Suspense fallback={null}>
          <SyncNav userId={outboxUser} replay={user !== undefined} />
        </Suspense>
      ) : null}
      {trailing}
    </Group>
  );
}

/** Changes queued before the session expired: a signed-out visitor is asked to sign in (not on the sign-in page). */
function SignInNoticeForQueuedChanges({ lng }: { lng: Language }) {
  const user = useCurrentUser().data;
  const location = useLocation();
  return user === null && hasOutboxAuthFlag() && location.pathname !== `/${lng}/login` ? (
    <Suspense fallback={null}>
      <SyncSignInNotice next={location.pathname + location.search} />
    </Suspense>
  ) : null;
}

export function Layout() {
  const { lng } = useParams();
  const location = useLocation();
  const { t, i18n } = useTranslation();
  usePageViews();
  useFocusOnNavigation();
  useScrollTopOnNavigation();
  useForgetUserAfterSessionEnd();
  useRefreshUserWhenSuspended();

  // Set during render, not in an effect: the pages' own effects start their requests before ours would run,
  // and their answers (section names, messages) must already be in the URL's language.
  if (isLanguage(lng)) setApiLanguage(lng);
  useEffect(() => {
    if (isLanguage(lng)) {
      if (i18n.language !== lng) void i18n.changeLanguage(lng);
      document.documentElement.lang = toLocaleTag(lng);
      // The app runs this page now (the end-to-end tests wait for it before typing into a server-rendered page).
      document.documentElement.dataset.app = 'ready';
      // A press made while the page waited for the app's code is made again (public/app-start.js) once the layout is
      // hydrated, in a task of its own (not inside React's effects): React hydrates the part of the page it lands in
      // before handling it. Made right after hydrateRoot instead, it was sometimes lost.
      setTimeout(() => window.__vitrinaTakeOver?.(), 0);
    }
  }, [lng, i18n]);

  if (!isLanguage(lng)) {
    const detected = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
    return <Navigate to={pathForLanguage(location.pathname, detected) + location.search} replace />;
  }

  // Plain landmarks rather than AppShell.Main: one <header>, one <main>, one <footer> at the top level.
  return (
    <>
      <PageNavProgress />
      <Anchor href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </Anchor>
      <Box
        component="header"
        h={56}
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 200,
          background: 'var(--mantine-color-body)',
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <Container size="xl" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <UnstyledButton component={Link} to={`/${lng}`} aria-label={`${t('app.name')} — ${t('nav.home')}`}>
              <Group gap={6} wrap="nowrap">
                <img src="/icons/logo.svg" alt="" width={28} height={28} />
                <BrandName />
              </Group>
            </UnstyledButton>
            <HeaderNav
              label={t('nav.mainNavigation')}
              leading={
                <>
                  <HeaderOfflineIndicator />
                  {/* First: appearing later (when the browser offers it), it moves nothing else (the group is right-aligned). */}
                  <HeaderInstallControl />
                  <HeaderLanguageSwitcher />
                  <HeaderThemeToggle />
                  {/* Favourites (issue 28): visitors too (kept on the device). */}
                  <HeaderFavouritesLink />
                </>
              }
              trailing={<HeaderAccountNav />}
            />
          </Group>
        </Container>
      </Box>
      {/* At least a screen tall under the header: the footer starts below the fold, so it does not jump down in sight
          when the page's content arrives (Lighthouse counted it as the home page's layout shift, CLS 0.107). */}
      <Box component="main" id="main" tabIndex={-1} mih="calc(100dvh - 56px)">
        {/* In the page's flow, above its content: it pushes the page down and never covers it (sticky under the header,
            it covered the model page's «Volver al listado» at 360 px once scrolled). The header's icon stays in sight. */}
        <PageOfflineNotice />
        <RouteOutlet />
      </Box>
      <Footer lng={lng} />
      <SignInNoticeForQueuedChanges lng={lng} />
      <PageCookieBanner />
      <PageUpdateControl />
    </>
  );
}
