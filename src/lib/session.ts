/**
 * The signed-in user, shared by every feature: the `['user']` query (GET /api/session, `{ data: null }` for a
 * visitor: asking GET /api/user would answer 401, which the browser logs as an error on every anonymous page), and the
 * account calls more than one feature needs (logout, resend verification, confirm password).
 */
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from '#src/lib/router.tsx';
import type { Answer } from '#contract/answers.ts';
import type { User } from '#contract/auth.ts';
import { PROFILE_CREATE_ROUTES } from '#contract/roles.ts';
import { API } from '#contract/routes.ts';
import { apiGet, apiRequest, ApiError, onAccountSuspended } from './api-client.ts';
import { useLng } from './paths.ts';
import { usePresenter } from './presenter.tsx';
import { handleAnswer, handleRejection } from './response-handler.ts';

export const USER_QUERY_KEY = ['user'] as const;

async function fetchUser(signal?: AbortSignal): Promise<User | null> {
  return (await apiGet<{ data: User | null }>(API.session, signal)).data;
}

export const userQueryOptions = () =>
  queryOptions({
    queryKey: USER_QUERY_KEY,
    queryFn: ({ signal }) => fetchUser(signal),
    retry: false,
  });

/** The current user: `data` is the User, `null` when logged out, `undefined` while the first answer is pending. */
export function useCurrentUser() {
  return useQuery(userQueryOptions());
}

/** Asks the server again and waits for the answer (after login, verification, profile changes). */
export async function refreshUser(queryClient: QueryClient): Promise<User | null> {
  endedUserId = undefined;
  // A check still on its way was sent before the change (the page's own, without the new session): fetchQuery would
  // join it and answer its "logged out", and the next screen's guard would send the new user to the login.
  await queryClient.cancelQueries({ queryKey: USER_QUERY_KEY });
  return queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 });
}

export function setCurrentUser(queryClient: QueryClient, user: User | null) {
  endedUserId = undefined;
  queryClient.setQueryData(USER_QUERY_KEY, user);
}

export const isVerified = (user: User): boolean => user.email_verified_at !== null;

/** The language-neutral path of the profile this user still has to create, if any. */
export function profileToCreate(user: User): string | undefined {
  return user.has_profile ? undefined : PROFILE_CREATE_ROUTES[user.role];
}

export function sendVerificationEmail() {
  return apiRequest<Answer>(API.sendVerification, { method: 'POST', body: {} });
}

export function confirmPassword(password: string) {
  return apiRequest<Answer>(API.confirmPassword, { method: 'POST', body: { password } });
}

/**
 * Router state of a navigation caused by the end of the session (logout, account deletion, profile creation):
 * guest-only screens let it through, and the shell forgets the user once the new page is on screen.
 */
export interface SessionEndedState {
  sessionEnded: number;
}
export function isSessionEndedState(state: unknown): state is SessionEndedState {
  return typeof state === 'object' && state !== null && typeof (state as Partial<SessionEndedState>).sessionEnded === 'number';
}

let pendingSessionEnd = 0;
let sessionEndCounter = 0;
/** The user whose session has ended on the server while the page still shows them (see `useEndSession`). */
let endedUserId: number | undefined;

/**
 * Marks `userId`'s session as ended on the server. Until the user is forgotten (or someone signs in), the account's own
 * data is not asked for: the answer would be a 401 (the favourites' list once was, right after deleting the account).
 */
export function markSessionEnded(userId: number | undefined) {
  endedUserId = userId;
}

/** Whether this user's session has ended on the server, the page not having forgotten them yet. */
export function sessionEndedFor(userId: number): boolean {
  return endedUserId === userId;
}

/**
 * Ends the session on this side. The user is forgotten only after the destination has rendered (see
 * `useForgetUserAfterSessionEnd`): forgetting it first would make the guard of the page being left send the
 * visitor to the login with `next` pointing back at it. `to` is language-prefixed.
 */
export function useEndSession() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (to: string) => {
      markSessionEnded(queryClient.getQueryData<User | null>(USER_QUERY_KEY)?.id);
      sessionEndCounter += 1;
      pendingSessionEnd = sessionEndCounter;
      const state: SessionEndedState = { sessionEnded: sessionEndCounter };
      await navigate(to, { replace: true, state });
    },
    [navigate, queryClient],
  );
}

/** Mounted once by the shell: completes `useEndSession` when its navigation has been committed. */
export function useForgetUserAfterSessionEnd() {
  const location = useLocation();
  const queryClient = useQueryClient();
  useEffect(() => {
    const state: unknown = location.state;
    if (isSessionEndedState(state) && state.sessionEnded === pendingSessionEnd) {
      pendingSessionEnd = 0;
      setCurrentUser(queryClient, null);
    }
  }, [location, queryClient]);
}

/**
 * Mounted once by the shell: a 403 `account_suspended` answer means the account was suspended meanwhile; asking who is
 * signed in again brings the restricted view (the session stays, restricted) instead of a page that fails call by call.
 */
export function useRefreshUserWhenSuspended() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onAccountSuspended(() => {
        const user = queryClient.getQueryData<User | null>(USER_QUERY_KEY);
        if (user && user.status !== 'suspended') void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      }),
    [queryClient],
  );
}

/** POST /api/logout, then home. A 401 means the session was already gone: treated as done. */
export function useLogout() {
  const ui = usePresenter();
  const lng = useLng();
  const endSession = useEndSession();
  const [pending, setPending] = useState(false);
  const logout = useCallback(async () => {
    setPending(true);
    try {
      // This device stops hearing pushes, and what they prefetched goes (issue 25); never holds the sign-out up.
      await import('./push/push-client.ts').then((m) => m.forgetPushOnSignOut()).catch(() => undefined);
      const res = await apiRequest<Answer>(API.logout, { method: 'POST', body: {} });
      await endSession(`/${lng}`);
      handleAnswer({ status: res.status, data: { ...res.data, redirect: undefined } }, ui);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) await endSession(`/${lng}`);
      else if (err instanceof ApiError) handleAnswer({ status: err.status, data: err.data }, ui);
      else handleRejection(err, ui);
    } finally {
      setPending(false);
    }
  }, [endSession, lng, ui]);
  return { logout, pending };
}
