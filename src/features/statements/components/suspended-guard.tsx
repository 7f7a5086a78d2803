/**
 * A suspended account (issue 12 point 9, issue 24 point 11) is signed in only to its restricted view: the
 * suspended-account page, its statements and the appeal, its profile page (data export, account deletion), the support
 * chat, and what any visitor may see (the home, a model's page, the legal pages). Any other page sends it there; the
 * server refuses the calls anyway (403 account_suspended). Loaded eagerly by the router, so it imports nothing heavy.
 */
import { Navigate, Outlet, useLocation } from '#src/lib/router.tsx';
import { ACCOUNT_SUSPENDED_PATH } from '#contract/statements.ts';
import { MESSENGER_PATH } from '#contract/support-chat.ts';
import { useLng } from '#src/lib/paths.ts';
import { isSessionEndedState, useCurrentUser } from '#src/lib/session.ts';

/** Pages open with everything under them. */
const SECTIONS = [ACCOUNT_SUSPENDED_PATH, '/statements', '/confirm-password', '/legal', '/models', MESSENGER_PATH];
/** Pages open themselves only: the home (not its neighbours), the profile page (not `/profile/model`). */
const PAGES = ['/', '/profile'];

/** Whether a language-neutral path is part of the restricted view. */
export function suspendedMayOpen(path: string): boolean {
  return PAGES.includes(path) || SECTIONS.some((p) => path === p || path.startsWith(`${p}/`));
}

export function SuspendedGuard() {
  const { data: user } = useCurrentUser();
  const location = useLocation();
  const lng = useLng();
  const path = location.pathname.slice(lng.length + 1) || '/';
  // Signing out leaves for the home page before the user is forgotten: let that navigation through.
  if (user?.status === 'suspended' && !isSessionEndedState(location.state) && !suspendedMayOpen(path)) {
    return <Navigate to={`/${lng}${ACCOUNT_SUSPENDED_PATH}`} replace />;
  }
  return <Outlet />;
}
