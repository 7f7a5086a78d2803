/**
 * Client-side route guards (the server checks again on every call). `RequireAuth` sends logged-out visitors to
 * the login with `next` pointing back, and answers 403 for a role the route is not for; `GuestOnly` sends
 * users who arrive logged in to `next` or their dashboard.
 */
import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, Navigate, Outlet, useLocation, useSearchParams } from '#src/lib/router.tsx';
import { dashboardFor, type Role } from '#contract/roles.ts';
import { loginPath, safeNext, useLng, withLng } from '#src/lib/paths.ts';
import { isSessionEndedState, useCurrentUser } from '#src/lib/session.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { PageLoader } from './page-loader.tsx';

function SessionError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl">
      <Alert color="red" title={t('auth.guard.loadError')}>
        <Button size="xs" variant="light" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Alert>
    </Container>
  );
}

export function Forbidden({ role }: { role: Role }) {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(t('auth.guard.forbiddenTitle'));
  return (
    <Container size="sm" py={64}>
      <Stack align="center" ta="center">
        <IconLock size={48} aria-hidden />
        <Title order={1}>{t('auth.guard.forbiddenTitle')}</Title>
        <Text>{t('auth.guard.forbiddenText')}</Text>
        <Button component={Link} to={withLng(lng, dashboardFor(role))}>
          {t('account.menu.dashboard')}
        </Button>
      </Stack>
    </Container>
  );
}

/** Logged-in users only; with `roles`, only those roles (others see a 403 page). */
export function RequireAuth({ roles }: { roles?: readonly Role[] }) {
  const user = useCurrentUser();
  const location = useLocation();
  const lng = useLng();
  // A stale "logged out" being asked again (e.g. right after login): wait for the fresh answer.
  if (user.isPending || (user.data === null && user.isFetching)) return <PageLoader />;
  // A refresh that failed (offline, with the user restored from the saved cache) keeps the user in.
  if (user.isError && user.data === undefined) return <SessionError onRetry={() => void user.refetch()} />;
  if (!user.data) return <Navigate to={loginPath(lng, location.pathname + location.search)} replace />;
  if (roles && !roles.includes(user.data.role)) return <Forbidden role={user.data.role} />;
  return <Outlet />;
}

/**
 * Guests only (login, register). Only users who were already logged in when they arrived are sent away: a
 * screen that logs someone in does its own navigation, and so does one that ends the session.
 */
export function GuestOnly() {
  const user = useCurrentUser();
  const location = useLocation();
  const [params] = useSearchParams();
  const lng = useLng();
  const [sawGuest, setSawGuest] = useState(false);
  if (user.data === null && !sawGuest) setSawGuest(true);
  if (user.isPending) return <PageLoader />;
  if (user.data && !sawGuest && !isSessionEndedState(location.state)) {
    return <Navigate to={safeNext(params.get('next')) ?? withLng(lng, dashboardFor(user.data.role))} replace />;
  }
  return <Outlet />;
}
