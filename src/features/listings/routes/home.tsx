/**
 * Home (SPEC §2): the filter bar (search, city type-ahead, section chips), the listing in a grid (default) or
 * a list, promoted placements clearly labelled, and pagination; or, in the map view (issue 16), the matches counted
 * per city on a map. The URL holds the query and the view, so links and Back work.
 */
import { ListingEmpty } from '../components/listing-empty.tsx';
import { API } from '#contract/routes.ts';
import { Alert, Box, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPhotoSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, lazy, startTransition, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { isLanguage } from '#contract/languages.ts';
import { isOfflineWithoutData, OfflineState } from '#src/components/offline-state.tsx';
import { SavedCopyNote } from '#src/components/saved-copy.tsx';
import { firstScreenDone, isFirstScreenRender } from '#src/lib/first-screen.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { deviceMayHaveRecentViews } from '#src/lib/recent-views.ts';
import { modelsQueryOptions, modelsQueryString, publicityQueryOptions } from '../api/get-models.ts';
import { sectionsQueryOptions } from '../api/get-sections.ts';
import { FilterBar } from '../components/filter-bar.tsx';
import { ModelCard, ModelCardSkeleton } from '../components/model-card.tsx';
import { PromoCard } from '../components/promo-card.tsx';
import { useCurrentView, useListingParams } from '../hooks/use-listing-params.ts';

const ListingPagination = lazy(async () => ({ default: (await import('../components/listing-pagination.tsx')).ListingPagination }));
// Shown only after a typo correction: off the first load.
const SearchCorrection = lazy(async () => ({ default: (await import('../components/search-correction.tsx')).SearchCorrection }));
// The map view and, through it, the map itself: off the grid and list views' load.
const ListingMap = lazy(() => import('../components/listing-map.tsx'));

/**
 * Recently viewed (issue 28): only in the browser, after hydration (the server's markup and the first render have
 * none), its code off the first load, and none of it on a device that has never opened a model page (a first visit:
 * no list to show). Its own component: the code's arrival re-renders this slot alone. Held as the home's state, it
 * re-rendered the whole page at default priority, in one task (~100 ms on a phone, Lighthouse's Total Blocking Time),
 * and made React finish hydrating the page's lazy parts synchronously first.
 */
function DeferredRecentViews() {
  const [RecentViewsRow, setRecentViewsRow] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    void deviceMayHaveRecentViews()
      .then((some) => (some ? import('#src/components/recent-views-row.tsx') : undefined))
      .then((m) => live && m && setRecentViewsRow(() => m.RecentViewsRow));
    return () => {
      live = false;
    };
  }, []);
  return RecentViewsRow ? <RecentViewsRow /> : null;
}

/** A promoted placement after every this many cards. */
const PROMO_EVERY = 8;
/**
 * How many cards the server renders and the browser hydrates: a phone's first screen and then some (4 rows of 2), a
 * desktop's first row and more. The rest of the page of results (24) is rendered right after, in a transition (in
 * slices, off the main thread's long tasks). Rendering and hydrating all 24 made the page's HTML parse, style, layout
 * and hydration the longest tasks of a first visit on a phone (Lighthouse's Total Blocking Time), for cards below the
 * fold. Client-side visits of the home render them all at once.
 */
const FIRST_SCREEN_CARDS = 8;

/** The page of results to show: its first cards while the server's first screen is rendered or hydrated, then all. */
function useFirstScreenCards<T>(items: T[]): T[] {
  const [all, setAll] = useState(() => !isFirstScreenRender());
  useEffect(() => {
    firstScreenDone();
    if (!all) startTransition(() => setAll(true));
  }, [all]);
  return all ? items : items.slice(0, FIRST_SCREEN_CARDS);
}

export function HomeRoute() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('pages.home'));
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const { params, update, setSearchParams } = useListingParams();
  const { view, setView, chooseCity } = useCurrentView(params, setSearchParams);
  const sections = useQuery(sectionsQueryOptions());
  // The map view counts per city instead: no page of cards to fetch.
  const models = useQuery({ ...modelsQueryOptions(params, lng), enabled: view !== 'map' });
  const promos = useQuery(publicityQueryOptions());
  const resultsRef = useRef<HTMLElement>(null);
  const filtered = !!(params.search || params.city || params.section);

  const goToPage = (page: number) => {
    update({ ...params, page });
    // Keep the reader's place sensible: the top of the results, not the top of the page.
    resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  const cardView = view === 'map' ? 'grid' : view;
  const cols = cardView === 'grid' ? { base: 2, sm: 3, md: 4, lg: 5 } : { base: 1, md: 2 };
  const clearFilters = () => update({ search: '', city: undefined, section: undefined, page: 1 });
  const data = useFirstScreenCards(models.data?.data ?? []);
  const meta = models.data?.meta;

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <div>
          <Title order={1} fz={{ base: 28, sm: 34 }}>
            {t('home.heading')}
          </Title>
          <Text c="dimmed" mt={6}>
            {t('home.intro')}
          </Text>
        </div>

        <section aria-labelledby="sections-title">
          <Title order={2} id="sections-title" className="visually-hidden-title">
            {t('listings.filters')}
          </Title>
          <FilterBar
            params={params}
            sections={sections.data}
            lng={lng}
            view={view}
            // On the map, a city picked by name is chosen as one picked on the map: its listing.
            onChange={(patch) => (view === 'map' && patch.city ? chooseCity(patch.city) : update(patch))}
            onView={setView}
          />
        </section>

        {view === 'map' ? (
          <Suspense fallback={null}>
            <ListingMap params={params} onCity={chooseCity} onClearFilters={clearFilters} />
          </Suspense>
        ) : null}

        <section
          hidden={view === 'map'}
          ref={resultsRef}
          aria-labelledby="results-title"
          aria-busy={models.isFetching}
          style={{ scrollMarginTop: 72 }}
        >
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="results-title">
              {t('listings.results')}
            </Title>
            {meta ? (
              <Text size="sm" c="dimmed" role="status">
                {t('listings.count', { count: meta.total })}
              </Text>
            ) : null}
          </Group>
          <SavedCopyNote updatedAt={models.dataUpdatedAt} error={models.error} url={`${API.models}?${modelsQueryString(params)}`} />

          {meta?.corrected_search && !models.isPlaceholderData ? (
            <Suspense fallback={null}>
              <SearchCorrection corrected={meta.corrected_search} typed={params.search} onLiteral={() => update({ literal: true })} />
            </Suspense>
          ) : null}

          {/* A refresh that failed keeps what was shown (a saved copy offline). */}
          {isOfflineWithoutData(models) ? (
            <OfflineState order={3} onRetry={() => void models.refetch()} retrying={models.isFetching} />
          ) : models.isError && !models.data ? (
            <Alert color="red" title={t('listings.loadError')}>
              <Button size="xs" variant="light" onClick={() => void models.refetch()}>
                {t('common.retry')}
              </Button>
            </Alert>
          ) : models.isPending ? (
            <SimpleGrid cols={cols} spacing="sm">
              {Array.from({ length: 10 }, (_, i) => (
                <ModelCardSkeleton key={i} view={cardView} />
              ))}
            </SimpleGrid>
          ) : data.length === 0 ? (
            <ListingEmpty filtered={filtered} icon={<IconPhotoSearch size={30} aria-hidden />} onClearFilters={clearFilters} />
          ) : (
            <SimpleGrid cols={cols} spacing="sm" style={{ opacity: models.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
              {data.map((m, i) => {
                const promo =
                  promos.data?.length && (i + 1) % PROMO_EVERY === 0
                    ? promos.data[((i + 1) / PROMO_EVERY - 1) % promos.data.length]
                    : undefined;
                return (
                  <Fragment key={m.id}>
                    <ModelCard model={m} lng={lng} view={cardView} eager={i < 4} />
                    {promo ? <PromoCard ad={promo} view={cardView} /> : null}
                  </Fragment>
                );
              })}
            </SimpleGrid>
          )}

          {meta && meta.last_page > 1 ? (
            <Group justify="center" mt="lg">
              {/* The fallback keeps the row's height (Pagination sm controls) while the code arrives. */}
              <Suspense fallback={<Box h="calc(1.625rem * var(--mantine-scale))" />}>
                <ListingPagination total={meta.last_page} value={Math.min(meta.current_page, meta.last_page)} onChange={goToPage} />
              </Suspense>
            </Group>
          ) : null}
        </section>

        {/* Last, below the listing: it appears once the device's list is read, after the first paint, and so moves
            nothing already on screen. */}
        {view !== 'map' ? <DeferredRecentViews /> : null}
      </Stack>
    </Container>
  );
}
