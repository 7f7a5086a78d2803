/**
 * The home's map view (issue 16 point 2): the current filters' matches counted per city (GET /api/models/map), one
 * marker per city with its count, and beside it the same cities as a list of links, sorted by count, that works
 * alone for keyboard and screen-reader users. Choosing a city (its marker or its link) opens the listing of that
 * city. Loaded only when the map view is chosen: the shared map (Leaflet) is a further chunk of its own.
 */
import { ListingEmpty } from './listing-empty.tsx';
import { Alert, Badge, Button, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconMapSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useMemo, type MouseEvent } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { CityCount } from '#contract/listings.ts';
import { MAP_DEFAULT_POSITION } from '#contract/locations.ts';
import { LazyMap, MapFallback, type MapMarker } from '#src/components/map/index.ts';
import { isOfflineWithoutData, OfflineState } from '#src/components/offline-state.tsx';
import { SavedCopyNote } from '#src/components/saved-copy.tsx';
import { modelsMapQueryOptions, modelsMapUrl } from '../api/get-models.ts';
import { cityListing, readCardView, writeListingParams, type ListingParams } from '../hooks/use-listing-params.ts';
import classes from './listing-map.module.css';

const CENTER: [number, number] = [MAP_DEFAULT_POSITION.latitude, MAP_DEFAULT_POSITION.longitude];
/** Asturias whole, before the results are known. */
const START_ZOOM = 8;
const HEIGHT = 'var(--listing-map-height)';

interface Props {
  params: ListingParams;
  /** A city chosen: its listing. */
  onCity: (city: number) => void;
  onClearFilters: () => void;
}

/** Most ads first; equal counts by name. */
export function sortCities(cities: readonly CityCount[], locale: string): CityCount[] {
  return [...cities].sort((a, b) => b.count - a.count || a.city.name.localeCompare(b.city.name, locale));
}

/** A plain click is the app's to handle; a click asking for a new tab or window is the browser's (the link's URL). */
const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

export function ListingMap({ params, onCity, onClearFilters }: Props) {
  const { t, i18n } = useTranslation();
  const query = useQuery(modelsMapQueryOptions(params));
  const data = query.data?.data;
  const total = query.data?.meta.total;
  const cities = useMemo(() => sortCities(data ?? [], i18n.language), [data, i18n.language]);
  const label = (c: CityCount) => t('listings.map.marker', { city: c.city.name, state: c.city.state, count: c.count });
  const markers = useMemo<MapMarker[]>(
    () =>
      cities.map((c) => ({
        id: c.city.id,
        lat: c.latitude,
        lng: c.longitude,
        label: t('listings.map.marker', { city: c.city.name, state: c.city.state, count: c.count }),
        count: c.count,
        selected: params.city ? c.city.id === params.city : undefined,
      })),
    [cities, params.city, t],
  );
  const fitTo = useMemo(() => cities.map((c): [number, number] => [c.latitude, c.longitude]), [cities]);
  const filtered = !!(params.search || params.section);
  const cardView = readCardView();

  let body;
  if (isOfflineWithoutData(query)) {
    body = <OfflineState order={3} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  } else if (query.isError && !query.data) {
    body = (
      <Alert color="red" title={t('listings.map.loadError')}>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  } else if (!query.isPending && cities.length === 0) {
    body = <ListingEmpty filtered={filtered} icon={<IconMapSearch size={30} aria-hidden />} onClearFilters={onClearFilters} />;
  } else {
    // While the counts come, the map is already there (on the map default, Asturias); it is fitted to them once in.
    body = (
      <div className={classes.layout} style={{ opacity: query.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
        <div className={classes.map}>
          <Suspense fallback={<MapFallback height={HEIGHT} />}>
            <LazyMap
              ariaLabel={t('listings.map.region')}
              center={CENTER}
              zoom={START_ZOOM}
              fitTo={fitTo}
              markers={markers}
              onMarkerActivate={(marker) => onCity(Number(marker.id))}
              height={HEIGHT}
              groupNearby
            />
          </Suspense>
        </div>
        {query.isPending ? (
          <Stack gap="xs">
            <VisuallyHidden role="status">{t('listings.map.loading')}</VisuallyHidden>
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={36} radius="sm" aria-hidden />
            ))}
          </Stack>
        ) : (
          <nav aria-labelledby="map-cities-title" className={classes.cities} data-testid="map-cities">
            <Title order={3} size="h5" id="map-cities-title">
              {t('listings.map.citiesTitle')}
            </Title>
            <Text size="sm" c="dimmed" mb={4}>
              {t('listings.map.citiesHint')}
            </Text>
            <ul className={classes.list}>
              {cities.map((c) => (
                <li key={c.city.id}>
                  <Link
                    className={classes.city}
                    to={{ search: `?${writeListingParams(cityListing(params, c.city.id, cardView)).toString()}` }}
                    aria-label={label(c)}
                    aria-current={c.city.id === params.city ? 'true' : undefined}
                    onClick={(e) => {
                      if (!plainClick(e)) return;
                      e.preventDefault();
                      onCity(c.city.id);
                    }}
                  >
                    <span className={classes.name}>
                      {c.city.name}{' '}
                      <Text span size="sm" c="dimmed">
                        {c.city.state}
                      </Text>
                    </span>
                    <Badge variant="light" radius="sm" aria-hidden>
                      {c.count}
                    </Badge>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    );
  }

  return (
    <section aria-labelledby="map-results-title" aria-busy={query.isFetching} data-testid="listing-map">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="map-results-title">
          {t('listings.results')}
        </Title>
        {total !== undefined ? (
          <Text size="sm" c="dimmed" role="status">
            {t('listings.count', { count: total })}
          </Text>
        ) : null}
      </Group>
      <SavedCopyNote updatedAt={query.dataUpdatedAt} error={query.error} url={modelsMapUrl(params)} />
      {body}
    </section>
  );
}

export default ListingMap;
