import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { createMemoryHistory, HistoryRouter, Route, Routes } from '#src/lib/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelList } from '#contract/listings.ts';
import { API } from '#contract/routes.ts';
import { setApiLanguage } from '#src/lib/api-client.ts';
import { FIRST_SCREEN_ID, isFirstScreenRender, provideFirstScreen, resetFirstScreen } from '#src/lib/first-screen.ts';
import { modelsQueryString } from '../api/get-models.ts';
import { readListingParams } from '../hooks/use-listing-params.ts';
import { HomeRoute } from './home.tsx';

// Read, not imported: a feature imports nothing from outside its folder but the shared modules.
const es = JSON.parse(readFileSync(path.join(process.cwd(), 'locales/es.json'), 'utf8')) as {
  listings: { noResultsTitle: string; search: string };
};
const i18n = createI18nInstance({
  lng: 'es',
  resources: { es: es },
});

const card = {
  id: 7,
  user_id: 3,
  name: 'Lucía',
  title: 'Lucía en Oviedo',
  excerpt: 'Pasarela y moda.',
  age: 30,
  city: { id: 1, name: 'Oviedo' },
  section: { id: 1, slug: 'women', name: 'Mujeres', color: '#e64980' },
  status: 'active',
  verified: true,
  cover: null,
  published_at: '2026-11-01T00:00:00.000Z',
} satisfies ModelList['data'][number];

const meta = { current_page: 1, last_page: 1, per_page: 24, from: 1, to: 1, total: 1 };

let requested: URL[];

beforeEach(() => {
  requested = [];
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string | URL) => {
      const url = new URL(input, 'http://localhost');
      requested.push(url);
      let body: unknown = { data: [] };
      if (url.pathname === '/api/models') {
        const literal = url.searchParams.get('literal') === '1';
        body = literal
          ? { data: [], meta: { ...meta, total: 0, from: null, to: null } }
          : { data: [card], meta: { ...meta, corrections: [{ from: 'luica', to: 'lucía' }], corrected_search: 'lucía' } };
      }
      return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function setup(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryHistory([path]);
  const routes = <Route path="/:lng" element={<HomeRoute />} />;
  render(
    <MantineProvider>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <HistoryRouter history={router}>
            <Routes>{routes}</Routes>
          </HistoryRouter>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>,
  );
  return router;
}

describe('Home: a corrected search', () => {
  it('says which search was run and offers the words as typed', async () => {
    const router = setup('/es?search=luica');
    const note = await screen.findByTestId('search-correction');
    expect(note.textContent).toContain('Resultados para «lucía».');
    expect(note.querySelector('strong')?.textContent).toBe('«lucía»');
    expect(await screen.findByRole('link', { name: 'Lucía en Oviedo' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Buscar «luica» en su lugar' }));
    await waitFor(() => expect(router.location.search).toBe('?search=luica&literal=1'));
    await waitFor(() => expect(requested.some((u) => u.pathname === '/api/models' && u.searchParams.get('literal') === '1')).toBe(true));
    // The literal search found nothing, and nothing claims a correction any more.
    expect(await screen.findByText(es.listings.noResultsTitle)).toBeTruthy();
    expect(screen.queryByTestId('search-correction')).toBeNull();
  });

  it('a new search is corrected again', async () => {
    const router = setup('/es?search=luica&literal=1');
    expect(await screen.findByText(es.listings.noResultsTitle)).toBeTruthy();
    const box = screen.getByRole('searchbox', { name: es.listings.search });
    fireEvent.change(box, { target: { value: 'gihon' } });
    fireEvent.submit(box.closest('form')!);
    await waitFor(() => expect(router.location.search).toBe('?search=gihon'));
    expect(await screen.findByTestId('search-correction')).toBeTruthy();
  });
});

describe('Home: the first screen', () => {
  afterEach(() => {
    provideFirstScreen(null);
    document.getElementById(FIRST_SCREEN_ID)?.remove();
  });

  it('the server renders and the browser hydrates the first cards; the rest follow without a mismatch', async () => {
    const cards = Array.from({ length: 24 }, (_, i) => ({ ...card, id: 100 + i, name: `Modelo ${i}`, title: `Modelo ${i} en Oviedo` }));
    const answer = { data: cards, meta: { ...meta, to: 24, total: 24 } };
    setApiLanguage('es');
    // A page just loaded (the tests above mounted the home already).
    resetFirstScreen();
    const answers = { [`${API.models}?${modelsQueryString(readListingParams(new URLSearchParams()))}`]: answer };
    const tree = (client: QueryClient) => (
      <MantineProvider>
        <I18nProvider i18n={i18n}>
          <QueryClientProvider client={client}>
            <HistoryRouter history={createMemoryHistory(['/es'])}>
              <Routes>
                <Route path="/:lng" element={<HomeRoute />} />
              </Routes>
            </HistoryRouter>
          </QueryClientProvider>
        </I18nProvider>
      </MantineProvider>
    );
    const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

    // The server: the page's answers provided, its markup rendered.
    provideFirstScreen({ lng: 'es', answers });
    const markup = renderToString(tree(newClient()));
    provideFirstScreen(null);
    expect(markup.match(/data-testid="model-card"/g)?.length).toBe(8);

    // The browser: the same answers in the page's data block, React takes the markup over.
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = FIRST_SCREEN_ID;
    block.textContent = JSON.stringify({ lng: 'es', answers });
    document.body.append(block);
    const container = document.createElement('div');
    container.innerHTML = markup;
    document.body.append(container);
    const mismatches: unknown[] = [];
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, tree(newClient()), { onRecoverableError: (error) => mismatches.push(error) });
      await Promise.resolve();
    });
    await waitFor(() => expect(container.querySelectorAll('[data-testid="model-card"]')).toHaveLength(24));
    expect(mismatches).toEqual([]);
    expect(container.querySelector('[data-testid="model-card"]')?.getAttribute('aria-label')).toBe('Modelo 0 en Oviedo');
    act(() => root!.unmount());
    container.remove();

    // A later visit of the home in the same page renders the whole page of results at once.
    expect(isFirstScreenRender()).toBe(false);
  });
});
