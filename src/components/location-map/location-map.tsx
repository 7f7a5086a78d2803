/**
 * The location step's map (model profile form, publicist's model form): shows the pickers' choice, and choosing on
 * it fills the pickers — a province marker picks the province, a city marker the city, a click elsewhere the
 * municipality nearest to it; "Use my location" asks the browser once and picks the nearest municipality. The
 * pickers stay beside it as the list alternative. The position goes to the server once, rounded, and is kept nowhere.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import { Component, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { roundCoordinate, type City, type NearestCity, type State } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import { LazyMap, MapFallback } from '#src/components/map/index.ts';
import { ApiError, apiGet } from '#src/lib/api-client.ts';
import { currentPosition, LocateError, locationMapView, type LocationMarker } from './location-map-view.ts';

/** A choice made on the map: the province, and the city when one was chosen (the country when it is known). */
export interface PickedLocation {
  country_id?: number;
  state_id: number;
  city_id: number | null;
}

export interface LocationMapProps {
  /** ISO 3166-1 alpha-2 of the chosen country (what the base map draws). */
  country: string | undefined;
  states: readonly State[] | undefined;
  cities: readonly City[] | undefined;
  stateId: number | null;
  cityId: number | null;
  onPick: (picked: PickedLocation) => void;
  height?: number;
}

/** The municipality nearest to a point, through the server (the point is rounded first, and never cached). */
export function fetchNearestCity(lat: number, lng: number): Promise<NearestCity> {
  const query = new URLSearchParams({ lat: String(roundCoordinate(lat)), lng: String(roundCoordinate(lng)) });
  return apiGet<{ data: NearestCity }>(`${API.citiesNearest}?${query}`).then((r) => r.data);
}

/**
 * The map is an extra beside the pickers: if its code cannot be loaded (offline before it was ever kept, a failed
 * chunk), the step says so and goes on instead of losing the form to the route's error screen.
 */
class MapBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

type Status =
  | { kind: 'idle' }
  | { kind: 'busy' }
  /** Said while the pickers still hold that city. */
  | { kind: 'chosen'; text: string; cityId: number }
  | { kind: 'failed'; text: string };

export function LocationMap({ country, states, cities, stateId, cityId, onPick, height = 280 }: LocationMapProps) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const wrapperRef = useRef<HTMLDivElement>(null);
  // After a marker is chosen its marker is drawn again (or replaced by the province's cities): the focus follows it
  // (a city's marker, by its name) or goes to the map (a province's).
  const [focusAfterPick, setFocusAfterPick] = useState<{ marker?: string } | null>(null);

  const view = useMemo(
    () => locationMapView({ states, cities, stateId, cityId, stateLabel: (name) => t('locationPicker.stateMarker', { name }) }),
    [states, cities, stateId, cityId, t],
  );

  useEffect(() => {
    if (focusAfterPick === null) return;
    const root = wrapperRef.current;
    const marker = focusAfterPick.marker;
    const target =
      [...(root?.querySelectorAll<HTMLElement>('[role="button"][aria-label]') ?? [])].find(
        (el) => el.getAttribute('aria-label') === marker,
      ) ?? root?.querySelector<HTMLElement>('[role="region"]');
    if (!target) return;
    target.focus();
    setFocusAfterPick(null);
  }, [focusAfterPick, view.markers]);

  // Only the latest lookup may fill the pickers (two quick clicks on the map, a click during "use my location").
  const lookup = useRef(0);
  const pickNearest = async (lat: number, lng: number) => {
    const seq = ++lookup.current;
    setStatus({ kind: 'busy' });
    try {
      const city = await fetchNearestCity(lat, lng);
      if (seq !== lookup.current) return;
      onPick({ country_id: city.country_id, state_id: city.state_id, city_id: city.city_id });
      setStatus({ kind: 'chosen', text: t('locationPicker.chosen', { city: city.city, state: city.state }), cityId: city.city_id });
    } catch (err) {
      if (seq !== lookup.current) return;
      // The server's own message is translated (nothing near, too many tries); anything else is ours.
      const text = err instanceof ApiError && err.data?.message ? err.data.message : t('locationPicker.errors.failed');
      setStatus({ kind: 'failed', text });
    }
  };

  const locate = async () => {
    const seq = ++lookup.current;
    setStatus({ kind: 'busy' });
    let point: { lat: number; lng: number };
    try {
      point = await currentPosition();
    } catch (err) {
      if (seq !== lookup.current) return;
      const failure = err instanceof LocateError ? err.failure : 'unavailable';
      setStatus({ kind: 'failed', text: t(`locationPicker.errors.${failure}`) });
      return;
    }
    if (seq === lookup.current) await pickNearest(point.lat, point.lng);
  };

  const onMarker = (marker: LocationMarker) => {
    lookup.current++;
    if (marker.kind === 'state') {
      onPick({ state_id: marker.placeId, city_id: null });
      // The province's cities replace its marker: the focus goes to the map, from where Tab reaches them.
      setFocusAfterPick({});
    } else {
      const city = cities?.find((c) => c.id === marker.placeId);
      if (!city) return;
      onPick({ state_id: city.state_id, city_id: city.id });
      setFocusAfterPick({ marker: marker.label });
    }
    setStatus({ kind: 'idle' });
  };

  return (
    <Stack gap="xs" ref={wrapperRef}>
      <Group gap="sm" wrap="wrap">
        <Button
          variant="light"
          leftSection={<IconCurrentLocation size={18} aria-hidden />}
          onClick={() => void locate()}
          loading={status.kind === 'busy'}
        >
          {t('locationPicker.useMyLocation')}
        </Button>
      </Group>
      <div aria-live="polite">
        {status.kind === 'busy' ? (
          <Text size="sm" c="dimmed">
            {t('locationPicker.locating')}
          </Text>
        ) : status.kind === 'chosen' && status.cityId === cityId ? (
          <Text size="sm">{status.text}</Text>
        ) : null}
      </div>
      {status.kind === 'failed' ? (
        <Alert color="orange" variant="light" role="alert">
          {status.text}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('locationPicker.mapHint')}
      </Text>
      <MapBoundary
        fallback={
          <Text size="sm" c="dimmed" role="note">
            {t('locationPicker.mapUnavailable')}
          </Text>
        }
      >
        <Suspense fallback={<MapFallback height={height} />}>
          <LazyMap
            ariaLabel={t('locationPicker.mapLabel')}
            center={view.center}
            zoom={view.zoom}
            fitTo={view.fitTo}
            markers={view.markers}
            onMarkerActivate={(m) => onMarker(m as LocationMarker)}
            onMapClick={(lat, lng) => void pickNearest(lat, lng)}
            country={country}
            height={height}
          />
        </Suspense>
      </MapBoundary>
      <Text size="xs" c="dimmed">
        {t('locationPicker.privacy')}
      </Text>
    </Stack>
  );
}
