import { act, render } from '@testing-library/react';
import { createMemoryHistory, HistoryRouter, Route, Routes } from '#src/lib/router.tsx';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  cityListing,
  readCardView,
  readListingParams,
  readView,
  storeView,
  useCurrentView,
  useListingParams,
  writeListingParams,
  type ListingParams,
} from './use-listing-params.ts';

beforeEach(() => localStorage.clear());

const params = (query: string): ListingParams => readListingParams(new URLSearchParams(query));

/** useListingParams on a memory history at `url`: the history and the hook's latest answer. */
function renderListing(url: string) {
  let latest: ReturnType<typeof useListingParams> | undefined;
  function Probe() {
    latest = useListingParams();
    return null;
  }
  const router = createMemoryHistory([url]);
  render(
    <HistoryRouter history={router}>
      <Routes>
        <Route path="/" element={<Probe />} />
      </Routes>
    </HistoryRouter>,
  );
  return { router, api: () => latest! };
}

describe('the listing URL', () => {
  it('names the view: grid, list or map; anything else is no view', () => {
    expect(params('view=map').view).toBe('map');
    expect(params('view=list').view).toBe('list');
    expect(params('view=grid').view).toBe('grid');
    expect(params('view=table').view).toBeUndefined();
    expect(params('').view).toBeUndefined();
  });

  it('writes the view back with the query', () => {
    expect(writeListingParams(params('search=ana&section=women&view=map')).toString()).toBe('search=ana&section=women&view=map');
    expect(writeListingParams(params('city=5&page=3')).toString()).toBe('city=5&page=3');
  });

  it('a city chosen on the map opens its listing, first page, in the given card view, keeping the other filters', () => {
    const next = cityListing(params('search=ana&section=women&view=map&page=4'), 12, 'list');
    expect(writeListingParams(next).toString()).toBe('search=ana&city=12&section=women&view=list');
  });
});

describe('the new ads of a saved search’s alert (new=)', () => {
  it('reads them in order, without repeats or anything but ids, and writes them back with the query', () => {
    expect(params('city=5&new=12,15,12,x,0,18').newAds).toEqual([12, 15, 18]);
    expect(params('city=5').newAds).toBeUndefined();
    expect(writeListingParams(params('search=ana&city=5&section=women&new=18,15')).toString()).toBe(
      'search=ana&city=5&section=women&new=18%2C15',
    );
  });

  it('leaves them when the query changes', () => {
    const { router, api } = renderListing('/?city=5&new=12,15');
    expect(api().params.newAds).toEqual([12, 15]);
    act(() => api().update({ section: 'women' }));
    expect(router.location.search).toBe('?city=5&section=women');
  });
});

describe('filters picked in quick succession', () => {
  it('a second filter chosen before the first one has rendered keeps the first', () => {
    const { router, api } = renderListing('/?search=ana');
    // Both from the same render (the app renders a navigation in a transition; the second tap may come first).
    const { update } = api();
    act(() => {
      update({ city: 7 });
      update({ section: 'women' });
    });
    expect(router.location.search).toBe('?search=ana&city=7&section=women');
    expect(api().params).toMatchObject({ search: 'ana', city: 7, section: 'women' });
  });
});

describe('the saved view', () => {
  it('is grid until one is chosen, and may be the map', () => {
    expect(readView()).toBe('grid');
    storeView('map');
    expect(readView()).toBe('map');
  });

  it('remembers the last card view (grid or list) while the map is the saved view', () => {
    expect(readCardView()).toBe('grid');
    storeView('list');
    storeView('map');
    expect(readCardView()).toBe('list');
    storeView('grid');
    expect(readCardView()).toBe('grid');
  });

  it('reads a list view saved before the map existed, also once the map is chosen', () => {
    localStorage.setItem('view', 'list');
    expect(readCardView()).toBe('list');
    storeView('map');
    expect(readCardView()).toBe('list');
  });
});

type Current = ReturnType<typeof useCurrentView>;

function setup(path: string) {
  const current: { value?: Current } = {};
  function Probe() {
    const { params: p, setSearchParams } = useListingParams();
    current.value = useCurrentView(p, setSearchParams);
    return <output>{current.value.view}</output>;
  }
  const router = createMemoryHistory([path]);
  const routes = <Route path="/:lng" element={<Probe />} />;
  const { container } = render(
    <HistoryRouter history={router}>
      <Routes>{routes}</Routes>
    </HistoryRouter>,
  );
  const shown = () => container.querySelector('output')?.textContent;
  const latest = () => current.value!;
  return { router, shown, latest };
}

describe('switching view and choosing a city', () => {
  it('the URL view wins over the saved one, and becomes the saved one', () => {
    storeView('list');
    const { shown } = setup('/es?view=map');
    expect(shown()).toBe('map');
    expect(readView()).toBe('map');
  });

  it('without a view in the URL, the saved view shows', () => {
    storeView('list');
    expect(setup('/es').shown()).toBe('list');
  });

  it('entering the map adds to the history; grid ⇄ list replaces the entry', async () => {
    const { router, shown, latest } = setup('/es?section=women&page=2');
    await act(async () => {
      latest().setView('list');
    });
    expect(router.action).toBe('REPLACE');
    expect(router.location.search).toBe('?section=women&page=2&view=list');
    await act(async () => {
      latest().setView('map');
    });
    expect(router.action).toBe('PUSH');
    expect(router.location.search).toBe('?section=women&view=map');
    expect(shown()).toBe('map');
    expect(readView()).toBe('map');
  });

  it('a city chosen on the map pushes its listing in the last card view; Back returns to the map', async () => {
    storeView('list');
    const { router, shown, latest } = setup('/es?search=ana&view=map');
    expect(shown()).toBe('map');
    await act(async () => {
      latest().chooseCity(33);
    });
    expect(router.action).toBe('PUSH');
    expect(router.location.search).toBe('?search=ana&city=33&view=list');
    expect(shown()).toBe('list');
    expect(readView()).toBe('list');
    // The query is remembered for the next bare visit, as any filter change.
    expect(JSON.parse(localStorage.getItem('query')!)).toEqual({ search: 'ana', city: 33, section: undefined });

    act(() => router.go(-1));
    expect(router.location.search).toBe('?search=ana&view=map');
    expect(shown()).toBe('map');
    act(() => router.go(1));
    expect(shown()).toBe('list');
  });

  it('a city chosen opens the grid when no card view was ever chosen', async () => {
    const { router, latest } = setup('/es?view=map');
    await act(async () => {
      latest().chooseCity(7);
    });
    expect(router.location.search).toBe('?city=7&view=grid');
  });
});
