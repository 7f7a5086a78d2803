import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { createMemoryHistory, HistoryRouter, Route, Routes } from '#src/lib/router.tsx';
import { describe, expect, it } from 'vitest';
import type { User } from '#contract/auth.ts';
import { USER_QUERY_KEY } from '#src/lib/session.ts';
import { GuestOnly, RequireAuth } from './route-guards.tsx';

const i18n = createI18nInstance({ lng: 'es', resources: {} });

const user = (role: User['role']): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  role,
  status: 'active',
  email_verified_at: '2026-01-01T00:00:00Z',
  locale: 'es',
  has_profile: true,
  created_at: '2026-01-01T00:00:00Z',
});

function setup(path: string, current: User | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(USER_QUERY_KEY, current);
  const router = createMemoryHistory([path]);
  render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <HistoryRouter history={router}>
            <Routes>
              <Route path="/:lng">
                <Route element={<GuestOnly />}>
                  <Route path="login" element={<h1>login</h1>} />
                </Route>
                <Route element={<RequireAuth />}>
                  <Route path="profile" element={<h1>profile</h1>} />
                </Route>
                <Route element={<RequireAuth roles={['model']} />}>
                  <Route path="model/dashboard" element={<h1>model dashboard</h1>} />
                </Route>
                <Route path="publicist/dashboard" element={<h1>publicist dashboard</h1>} />
              </Route>
            </Routes>
          </HistoryRouter>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>,
  );
  return { router, client };
}

describe('RequireAuth', () => {
  it('sends a logged-out visitor to the login, with the page to come back to', () => {
    const { router } = setup('/es/profile?tab=password', null);
    expect(router.location.pathname).toBe('/es/login');
    expect(router.location.search).toBe(`?next=${encodeURIComponent('/es/profile?tab=password')}`);
  });

  it('lets a logged-in user in', () => {
    setup('/es/profile', user('client'));
    expect(screen.getByRole('heading', { name: 'profile' })).toBeTruthy();
  });

  it('keeps a user restored from the saved cache in when refreshing the session finds no network', async () => {
    const { client } = setup('/es/profile', user('client'));
    await act(() =>
      client
        .fetchQuery({ queryKey: USER_QUERY_KEY, queryFn: () => Promise.reject(new Error('offline')), staleTime: 0 })
        .catch(() => undefined),
    );
    expect(client.getQueryState(USER_QUERY_KEY)?.status).toBe('error');
    // Query notifications reach React on the next tick.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByRole('heading', { name: 'profile' })).toBeTruthy();
  });

  it('answers 403 for another role', () => {
    setup('/es/model/dashboard', user('publicist'));
    expect(screen.queryByRole('heading', { name: 'model dashboard' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'auth.guard.forbiddenTitle' })).toBeTruthy();
  });
});

describe('GuestOnly', () => {
  it('sends a user who arrives logged in to their dashboard', () => {
    const { router } = setup('/es/login', user('publicist'));
    expect(router.location.pathname).toBe('/es/publicist/dashboard');
  });

  it('prefers a safe next', () => {
    const { router } = setup(`/es/login?next=${encodeURIComponent('/es/profile')}`, user('model'));
    expect(router.location.pathname).toBe('/es/profile');
  });

  it('ignores a next on another host', () => {
    const { router } = setup(`/es/login?next=${encodeURIComponent('//evil.example/x')}`, user('model'));
    expect(router.location.pathname).toBe('/es/model/dashboard');
  });

  it('does not move a guest who logs in on the page (the login screen navigates itself)', () => {
    const { router, client } = setup('/es/login', null);
    expect(screen.getByRole('heading', { name: 'login' })).toBeTruthy();
    act(() => {
      client.setQueryData(USER_QUERY_KEY, user('model'));
    });
    expect(router.location.pathname).toBe('/es/login');
  });
});
