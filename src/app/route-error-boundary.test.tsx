import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { Link, MemoryRouter, Route, Routes } from '#src/lib/router.tsx';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

const i18n = createI18nInstance({ lng: 'es', resources: {} });

function Broken(): never {
  throw new Error('boom');
}

describe('RouteErrorBoundary', () => {
  it('shows the error page for a screen that throws, and leaves it behind on the next navigation', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MantineProvider>
        <I18nProvider i18n={i18n}>
          <MemoryRouter initialEntries={['/es/broken']}>
            <Link to="/es/fine">go</Link>
            <RouteErrorBoundary>
              <Routes>
                <Route path="/es/broken" element={<Broken />} />
                <Route path="/es/fine" element={<h1>fine</h1>} />
              </Routes>
            </RouteErrorBoundary>
          </MemoryRouter>
        </I18nProvider>
      </MantineProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('errorPage.title');
    await act(async () => screen.getByText('go').click());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'fine' })).toBeTruthy();
  });
});
