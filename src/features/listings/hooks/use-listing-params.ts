/**
 * The listing's state lives in the URL (SPEC §2: city, section, status, search, page) so a link reproduces the
 * view and Back works; the last query and the grid/list choice are also kept locally (SPEC §3) and restored
 * when the home is opened without parameters.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { SECTION_SLUGS, type SectionSlug } from '#contract/section-slugs.ts';

export interface ListingParams {
  search: string;
  city: number | undefined;
  section: SectionSlug | undefined;
  page: number;
  /** Search the words as typed: the visitor turned down the typo correction ("Buscar «luica» en su lugar"). */
  literal: boolean;
}

export type ListingView = 'grid' | 'list';
const QUERY_KEY = 'query';
const VIEW_KEY = 'view';

function read(sp: URLSearchParams): ListingParams {
  const city = Number(sp.get('city'));
  const page = Number(sp.get('page'));
  const section = sp.get('section');
  return {
    search: (sp.get('search') ?? '').slice(0, 100),
    city: Number.isInteger(city) && city > 0 ? city : undefined,
    section: (SECTION_SLUGS as readonly string[]).includes(section ?? '') ? (section as SectionSlug) : undefined,
    page: Number.isInteger(page) && page > 0 && page <= 1000 ? page : 1,
    literal: sp.get('literal') === '1' && !!sp.get('search'),
  };
}

function write(p: ListingParams): URLSearchParams {
  const sp = new URLSearchParams();
  if (p.search) sp.set('search', p.search);
  if (p.city) sp.set('city', String(p.city));
  if (p.section) sp.set('section', p.section);
  if (p.page > 1) sp.set('page', String(p.page));
  if (p.literal && p.search) sp.set('literal', '1');
  return sp;
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
  const params = read(sp);

  // Opening the home bare brings back the last search (replacing history, so Back still leaves the site).
  useEffect(() => {
    if ([...sp.keys()].length) return;
    const stored = loadStored();
    if (stored && (stored.search || stored.city || stored.section)) {
      setSp(write({ search: stored.search ?? '', city: stored.city, section: stored.section, page: 1, literal: false }), {
        replace: true,
      });
    }
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const update = useCallback(
    (patch: Partial<ListingParams>) => {
      const current = read(sp);
      // Turning down a correction holds for those words only: a new search is corrected again.
      const literal = patch.search === undefined || patch.search === current.search ? current.literal : false;
      const next = { ...current, page: 1, literal, ...patch };
      try {
        localStorage.setItem(QUERY_KEY, JSON.stringify({ search: next.search, city: next.city, section: next.section }));
      } catch {
        /* storage unavailable: the URL still holds the query */
      }
      setSp(write(next));
    },
    [sp, setSp],
  );

  return { params, update };
}

export function readView(): ListingView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

export function storeView(view: ListingView) {
  try {
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
