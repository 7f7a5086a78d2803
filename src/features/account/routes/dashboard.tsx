import type { ReactNode } from 'react';
import { Navigate } from '#src/lib/router.tsx';
import { dashboardFor } from '#contract/roles.ts';
import { PageLoader } from '#src/components/page-loader.tsx';
import { useLng, withLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { DashboardView } from '../components/dashboard-view.tsx';

/** `dashboard`: the clients' dashboard. Other roles are sent to theirs (old links, "Panel" bookmarks). */
export function DashboardRoute({ children }: { children?: ReactNode } = {}) {
  const lng = useLng();
  const { data: user } = useCurrentUser();
  if (!user) return <PageLoader />;
  if (dashboardFor(user.role) !== dashboardFor('client')) return <Navigate to={withLng(lng, dashboardFor(user.role))} replace />;
  return <DashboardView kind="client">{children}</DashboardView>;
}
