/**
 * The listing's state lives in the URL (SPEC §2: city, section, status, search, page, and the view: grid, list or
 * map) so a link reproduces the view and Back works; the last query and the view are also kept locally (SPEC §3) and
 * restored when the home is opened without parameters.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useSearchParams, type SetURLSearchParams } from '#src/lib/router.tsx';
import { NEW_ADS_PARAM, parseNewAds } from '#contract/saved-search-links.ts';
import { SECTION_SLUGS, type SectionSlug } from '#contract/section-slugs.ts';

export interface ListingParams {
  search: string;
  city: number | undefined;
  section: SectionSlug | undefined;
  page: number;
  /** Search the words as typed: the visitor turned down the typo correction ("Buscar «luica» en su lugar"). */
  literal: boolean;
  /** The view the URL asks for; without one, the saved view (useListingView). */
  view?: ListingView | undefined;
  /** A saved search's alert opened the listing at these new ads (`new=12,15`): shown first, until the query changes. */
  newAds?: number[] | undefined;
}

export const LISTING_VIEWS = ['grid', 'list', 'map'] as const;
export type ListingView = (typeof LISTING_VIEWS)[number];
/** The views that show the listing's cards (the map shows counts per city instead). */
export type CardView = Exclude<ListingView, 'map'>;
const QUERY_KEY = 'query';
const VIEW_KEY = 'view';
/** The last of grid and list: what a city chosen on the map opens in. */
const CARD_VIEW_KEY = 'cardView';

const isView = (value: unknown): value is ListingView => (LISTING_VIEWS as readonly unknown[]).includes(value);

export function readListingParams(sp: URLSearchParams): ListingParams {
  const city = Number(sp.get('city'));
  const page = Number(sp.get('page'));
  const section = sp.get('section');
  return {
    search: (sp.get('search') ?? '').slice(0, 100),
    city: Number.isInteger(city) && city > 0 ? city : undefined,
    section: (SECTION_SLUGS as readonly string[]).includes(section ?? '') ? (section as SectionSlug) : undefined,
    page: Number.isInteger(page) && page > 0 && page <= 1000 ? page : 1,
    literal: sp.get('literal') === '1' && !!sp.get('search'),
    view: isView(sp.get('view')) ? (sp.get('view') as ListingView) : undefined,
    newAds: sp.has(NEW_ADS_PARAM) ? parseNewAds(sp.get(NEW_ADS_PARAM)) : undefined,
  };
}

export function writeListingParams(p: ListingParams): URLSearchParams {
  const sp = new URLSearchParams();
  if (p.search) sp.set('search', p.search);
  if (p.city) sp.set('city', String(p.city));
  if (p.section) sp.set('section', p.section);
  if (p.page > 1) sp.set('page', String(p.page));
  if (p.literal && p.search) sp.set('literal', '1');
  if (p.view) sp.set('view', p.view);
  if (p.newAds?.length) sp.set(NEW_ADS_PARAM, p.newAds.join(','));
  return sp;
}

/**
 * A city chosen on the map (its marker or its entry in the list): the listing of that city, in the last card view,
 * named in the URL so that Back (to the map) and Forward (to this listing) each show what they showed.
 */
export function cityListing(p: ListingParams, city: number, view: CardView): ListingParams {
  return { ...p, city, page: 1, view };
}

function storeQuery(p: ListingParams) {
  try {
    localStorage.setItem(QUERY_KEY, JSON.stringify({ search: p.search, city: p.city, section: p.section }));
  } catch {
    /* storage unavailable: the URL still holds the query */
  }
}

function loadStored(): Partial<ListingParams> | undefined {
  try {
    const raw = localStorage.getItem(QUERY_KEY);
    return raw ? (JSON.parse(raw) as Partial<ListingParams>) : undefined;
  } catch {
    return undefined;
  }
}

export function useListingParams() {
  const [sp, setSp] = useSearchParams();
  const params = readListingParams(sp);

  // Opening the home bare brings back the last search (replacing history, so Back still leaves the site).
  useEffect(() => {
    if ([...sp.keys()].length) return;
    const stored = loadStored();
    if (stored && (stored.search || stored.city || stored.section)) {
      setSp(writeListingParams({ search: stored.search ?? '', city: stored.city, section: stored.section, page: 1, literal: false }), {
        replace: true,
      });
    }
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // From the page's latest URL, not the last rendered one: a filter picked before the previous one's results have
  // rendered keeps it.
  const update = useCallback(
    (patch: Partial<ListingParams>) => {
      setSp((latest) => {
        const current = readListingParams(latest);
        // Turning down a correction holds for those words only: a new search is corrected again.
        const literal = patch.search === undefined || patch.search === current.search ? current.literal : false;
        // The alert's new ads are shown for the query it opened; another query (or a dismissal) leaves them.
        const next = { ...current, page: 1, literal, newAds: undefined, ...patch };
        storeQuery(next);
        return writeListingParams(next);
      });
    },
    [setSp],
  );

  return { params, update, setSearchParams: setSp };
}

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function readView(): ListingView {
  const stored = readStored(VIEW_KEY);
  return isView(stored) ? stored : 'grid';
}

/** The last card view chosen (grid or list), even while the map is the saved view. */
export function readCardView(): CardView {
  const stored = readStored(CARD_VIEW_KEY) ?? readStored(VIEW_KEY);
  return stored === 'list' ? 'list' : 'grid';
}

export function storeView(view: ListingView) {
  try {
    // A list view saved before the map existed is the card view until another is chosen.
    localStorage.setItem(CARD_VIEW_KEY, view === 'map' ? readCardView() : view);
    localStorage.setItem(VIEW_KEY, view);
  } catch {
    /* ignore */
  }
  viewListeners.forEach((listener) => listener());
}

const viewListeners = new Set<() => void>();
const subscribeView = (listener: () => void) => {
  viewListeners.add(listener);
  return () => viewListeners.delete(listener);
};
const serverView = (): ListingView => 'grid';

/**
 * The saved view. Over server-rendered markup (always the grid) the page first hydrates as the server rendered it and
 * then switches to the saved view as an ordinary update: read during hydration, a saved list view would leave the
 * grid's attributes from the server under list cards (React keeps the server's attributes when they differ).
 */
export function useListingView(): [ListingView, (view: ListingView) => void] {
  return [useSyncExternalStore(subscribeView, readView, serverView), storeView];
}

/**
 * The view on screen: the URL's (a shared link, Back, Forward), else the saved one. The saved view follows what was
 * last shown, so the home opened bare comes back to it. Switching view and choosing a city on the map are navigations:
 * the map is a screen of its own, so entering or leaving it adds to the history (Back returns to it); grid ⇄ list
 * replaces the entry, as the switch did before the view was in the URL.
 */
export function useCurrentView(params: ListingParams, setSp: SetURLSearchParams) {
  const [saved] = useListingView();
  const view = params.view ?? saved;

  useEffect(() => {
    if (params.view && params.view !== readView()) storeView(params.view);
  }, [params.view]);

  const setView = useCallback(
    (next: ListingView) => {
      if (next === view) return;
      storeView(next);
      const toMap = next === 'map';
      setSp(writeListingParams({ ...params, view: next, page: toMap ? 1 : params.page }), { replace: !toMap && view !== 'map' });
    },
    [params, setSp, view],
  );

  const chooseCity = useCallback(
    (city: number) => {
      const cardView = readCardView();
      const next = cityListing(params, city, cardView);
      storeView(cardView);
      storeQuery(next);
      setSp(writeListingParams(next));
    },
    [params, setSp],
  );

  return { view, setView, chooseCity };
}
