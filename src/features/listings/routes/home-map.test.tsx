import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createI18nInstance } from '#src/lib/i18n-core.ts';
import { I18nProvider } from '#src/lib/i18n-react.tsx';
import { createMemoryHistory, HistoryRouter, Route, Routes } from '#src/lib/router.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelList, ModelsMap } from '#contract/listings.ts';
import type { MapViewProps } from '#src/components/map/index.ts';
import { HomeRoute } from './home.tsx';

// Leaflet needs a real browser (e2e/maps-home.spec.ts): here the map is its markers, as buttons named by their label.
vi.mock('#src/components/map/index.ts', () => ({
  MapFallback: () => <div data-testid="map-fallback" />,
  LazyMap: ({ ariaLabel, markers, onMarkerActivate, fitTo, center }: MapViewProps) => (
    <div role="region" aria-label={ariaLabel} data-fit={JSON.stringify(fitTo)} data-center={JSON.stringify(center)}>
      {markers?.map((m) => (
        <button key={m.id} type="button" aria-label={m.label} aria-pressed={m.selected} onClick={() => onMarkerActivate?.(m)}>
          {m.count}
        </button>
      ))}
    </div>
  ),
}));

const es = JSON.parse(readFileSync(path.join(process.cwd(), 'locales/es.json'), 'utf8')) as {
  listings: {
    city: string;
    viewMap: string;
    clearFilters: string;
    noResultsTitle: string;
    map: { region: string; citiesTitle: string; loadError: string; loading: string };
  };
};
const i18n = createI18nInstance({
  lng: 'es',
  resources: { es: es },
});

const city = (id: number, name: string, state: string, count: number, latitude: number, longitude: number) => ({
  city: { id, name, state },
  latitude,
  longitude,
  count,
});
const MAP: ModelsMap = {
  data: [
    city(1, 'Oviedo', 'Asturias', 2, 43.36, -5.85),
    city(2, 'Gijón', 'Asturias', 5, 43.53, -5.66),
    city(3, 'Avilés', 'Asturias', 2, 43.55, -5.92),
  ],
  meta: { total: 9 },
};
const card = {
  id: 7,
  user_id: 3,
  name: 'Lucía',
  title: 'Lucía en Gijón',
  excerpt: 'Pasarela y moda.',
  age: 30,
  city: { id: 2, name: 'Gijón' },
  section: { id: 1, slug: 'women', name: 'Mujeres', color: '#e64980' },
  status: 'active',
  verified: true,
  cover: null,
  published_at: '2026-11-01T00:00:00.000Z',
} satisfies ModelList['data'][number];

let requested: URL[];
let mapAnswer: { status: number; body: unknown };
/** Holds the map's answer back until released. */
let mapGate: Promise<void>;

beforeEach(() => {
  requested = [];
  mapAnswer = { status: 200, body: MAP };
  mapGate = Promise.resolve();
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/models/map') await mapGate;
      requested.push(url);
      let body: unknown = { data: [] };
      let status = 200;
      if (url.pathname === '/api/models/map') ({ body, status } = mapAnswer);
      else if (url.pathname === '/api/cities/search') body = { data: [{ id: 2, name: 'Gijón', state: 'Asturias' }] };
      else if (url.pathname === '/api/city/2') body = { data: { id: 2, name: 'Gijón', state: 'Asturias' } };
      else if (url.pathname === '/api/models')
        body = { data: [card], meta: { current_page: 1, last_page: 1, per_page: 24, from: 1, to: 1, total: 1 } };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
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

const cityList = async () => within(await screen.findByRole('navigation', { name: es.listings.map.citiesTitle }));
const mapRequests = () => requested.filter((u) => u.pathname === '/api/models/map');

describe('Home: the map view', () => {
  it('the switch opens the map: counts per city from one request with the filters, the cities listed by count', async () => {
    const router = setup('/es?search=ana&section=women');
    await screen.findByRole('link', { name: 'Lucía en Gijón' });
    fireEvent.click(screen.getByRole('radio', { name: es.listings.viewMap }));
    await waitFor(() => expect(router.location.search).toBe('?search=ana&section=women&view=map'));
    expect(router.action).toBe('PUSH');

    const list = await cityList();
    expect(list.getAllByRole('link').map((a) => a.getAttribute('aria-label'))).toEqual([
      'Gijón (Asturias): 5 anuncios',
      'Avilés (Asturias): 2 anuncios',
      'Oviedo (Asturias): 2 anuncios',
    ]);
    const map = screen.getByRole('region', { name: es.listings.map.region });
    expect(within(map).getByRole('button', { name: 'Gijón (Asturias): 5 anuncios' }).textContent).toBe('5');
    // Started on the map default (Asturias), fitted to the cities found.
    expect(JSON.parse(map.dataset.center!)).toEqual([43.29588191, -6.22799901]);
    expect(JSON.parse(map.dataset.fit!)).toHaveLength(3);
    expect(screen.getByText('9 anuncios')).toBeTruthy();

    expect(mapRequests()).toHaveLength(1);
    expect(Object.fromEntries(mapRequests()[0]!.searchParams)).toEqual({ search: 'ana', section: 'women' });
    // The map has no page of cards to show: none is asked for.
    const cardRequests = requested.filter((u) => u.pathname === '/api/models').length;
    fireEvent.click(screen.getByRole('radio', { name: es.listings.viewMap }));
    expect(requested.filter((u) => u.pathname === '/api/models')).toHaveLength(cardRequests);
  });

  it('while the counts come: the map on the map default, without markers, and a loading status; then fitted to them', async () => {
    let release!: () => void;
    mapGate = new Promise((resolve) => (release = resolve));
    setup('/es?view=map');
    const map = await screen.findByRole('region', { name: es.listings.map.region });
    expect(screen.getByRole('status').textContent).toBe(es.listings.map.loading);
    expect(within(map).queryAllByRole('button')).toHaveLength(0);
    expect(JSON.parse(map.dataset.center!)).toEqual([43.29588191, -6.22799901]);
    expect(JSON.parse(map.dataset.fit!)).toEqual([]);
    release();
    expect(await within(map).findAllByRole('button')).toHaveLength(3);
    // The same map, now fitted to the cities.
    expect(screen.getByRole('region', { name: es.listings.map.region })).toBe(map);
    expect(JSON.parse(map.dataset.fit!)).toHaveLength(3);
    expect(screen.queryByText(es.listings.map.loading)).toBeNull();
  });

  it('a marker opens the listing of its city; Back returns to the map', async () => {
    const router = setup('/es?view=map');
    const map = await screen.findByRole('region', { name: es.listings.map.region });
    fireEvent.click(await within(map).findByRole('button', { name: 'Gijón (Asturias): 5 anuncios' }));
    await waitFor(() => expect(router.location.search).toBe('?city=2&view=grid'));
    expect(router.action).toBe('PUSH');
    expect(await screen.findByRole('link', { name: 'Lucía en Gijón' })).toBeTruthy();
    expect(requested.some((u) => u.pathname === '/api/models' && u.searchParams.get('city') === '2')).toBe(true);
    expect(screen.queryByRole('region', { name: es.listings.map.region })).toBeNull();

    act(() => router.go(-1));
    expect(await screen.findByRole('region', { name: es.listings.map.region })).toBeTruthy();
    expect(router.location.search).toBe('?view=map');
  });

  it('a city in the list opens its listing in the last card view', async () => {
    localStorage.setItem('view', 'list');
    const router = setup('/es?view=map');
    const list = await cityList();
    const link = list.getByRole('link', { name: 'Oviedo (Asturias): 2 anuncios' });
    // A real link: it can be opened in a new tab.
    expect(link.getAttribute('href')).toBe('/es?city=1&view=list');
    fireEvent.click(link);
    await waitFor(() => expect(router.location.search).toBe('?city=1&view=list'));
    expect(router.action).toBe('PUSH');
  });

  it('on the map, a city picked by name in the filter bar opens its listing too', async () => {
    const router = setup('/es?view=map');
    await cityList();
    const box = screen.getByRole('textbox', { name: es.listings.city });
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'Gij' } });
    fireEvent.click(await screen.findByRole('option', { name: /Gijón/ }));
    await waitFor(() => expect(router.location.search).toBe('?city=2&view=grid'));
    expect(router.action).toBe('PUSH');
    expect(await screen.findByRole('link', { name: 'Lucía en Gijón' })).toBeTruthy();
  });

  it('a shared link to the map with a city marks that city', async () => {
    setup('/es?city=3&view=map');
    const map = await screen.findByRole('region', { name: es.listings.map.region });
    expect((await within(map).findByRole('button', { name: 'Avilés (Asturias): 2 anuncios' })).getAttribute('aria-pressed')).toBe('true');
    expect((await cityList()).getByRole('link', { name: 'Avilés (Asturias): 2 anuncios' }).getAttribute('aria-current')).toBe('true');
  });

  it('nothing matches: says so and offers to clear the filters, staying on the map', async () => {
    mapAnswer = { status: 200, body: { data: [], meta: { total: 0 } } };
    const router = setup('/es?search=zzz&view=map');
    expect(await screen.findByRole('heading', { name: es.listings.noResultsTitle })).toBeTruthy();
    mapAnswer = { status: 200, body: MAP };
    fireEvent.click(screen.getByRole('button', { name: es.listings.clearFilters }));
    await waitFor(() => expect(router.location.search).toBe('?view=map'));
    expect(await cityList()).toBeTruthy();
  });

  it('a failed answer is said in the visitor’s language, with a retry', async () => {
    mapAnswer = { status: 500, body: { type: 'error', message: 'boom' } };
    setup('/es?view=map');
    expect(await screen.findByText(es.listings.map.loadError)).toBeTruthy();
    mapAnswer = { status: 200, body: MAP };
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await cityList()).toBeTruthy();
  });
});
