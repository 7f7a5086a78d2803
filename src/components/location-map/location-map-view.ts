/**
 * What the location picker's map shows for the pickers' current choice (pure, so it is unit-tested without Leaflet):
 * nothing chosen → the default position (Oviedo, SPEC §3) with the country's provinces as markers; a province → its
 * cities as markers, the view fitted to them; a city → centred on it, still among its neighbours.
 */
import { DEFAULT_POSITION, type City, type State } from '#contract/locations.ts';
import type { MapMarker } from '#src/components/map/index.ts';

/** The zoom of the default position and of a province without cities: the region around it. */
export const OVERVIEW_ZOOM = 6;
/** The zoom on a chosen city: the town and its neighbours. */
export const CITY_ZOOM = 11;
const STATE_ZOOM = 8;

export type LocationMarker = MapMarker & { kind: 'state' | 'city'; placeId: number };

export interface LocationMapView {
  center: [number, number];
  zoom: number;
  fitTo: Array<[number, number]>;
  markers: LocationMarker[];
}

export interface LocationChoice {
  states: readonly State[] | undefined;
  cities: readonly City[] | undefined;
  stateId: number | null;
  cityId: number | null;
  /** A province marker's accessible name ("Asturias (provincia)"). */
  stateLabel: (name: string) => string;
}

const DEFAULT_CENTER: [number, number] = [DEFAULT_POSITION.latitude, DEFAULT_POSITION.longitude];

export function locationMapView({ states, cities, stateId, cityId, stateLabel }: LocationChoice): LocationMapView {
  const state = stateId === null ? undefined : states?.find((s) => s.id === stateId);
  // The cities on screen belong to the chosen province (a list still loading for the previous one is not shown).
  const stateCities = state ? (cities ?? []).filter((c) => c.state_id === state.id) : [];
  if (state && stateCities.length > 0) {
    const markers = stateCities.map((c): LocationMarker => ({
      id: `city-${c.id}`,
      kind: 'city',
      placeId: c.id,
      lat: c.latitude,
      lng: c.longitude,
      label: c.name,
      selected: c.id === cityId,
    }));
    const city = cityId === null ? undefined : stateCities.find((c) => c.id === cityId);
    if (city) return { center: [city.latitude, city.longitude], zoom: CITY_ZOOM, fitTo: [], markers };
    return { center: [state.latitude, state.longitude], zoom: STATE_ZOOM, fitTo: markers.map((m) => [m.lat, m.lng]), markers };
  }
  const markers = (states ?? []).map((s): LocationMarker => ({
    id: `state-${s.id}`,
    kind: 'state',
    placeId: s.id,
    lat: s.latitude,
    lng: s.longitude,
    label: stateLabel(s.name),
    selected: s.id === stateId,
  }));
  if (state) return { center: [state.latitude, state.longitude], zoom: STATE_ZOOM, fitTo: [], markers };
  return { center: DEFAULT_CENTER, zoom: OVERVIEW_ZOOM, fitTo: [], markers };
}

/** Why the browser gave no position, as the picker's message key (GeolocationPositionError codes). */
export type LocateFailure = 'denied' | 'unavailable' | 'timeout' | 'unsupported';

export function locateFailure(code: number | undefined): LocateFailure {
  if (code === 1) return 'denied';
  if (code === 3) return 'timeout';
  return 'unavailable';
}

/** The browser gave no position: `failure` says why. */
export class LocateError extends Error {
  constructor(readonly failure: LocateFailure) {
    super(`geolocation ${failure}`);
  }
}

/**
 * The browser's position, asked once (the permission prompt comes from this call, so only on the user's click):
 * coarse and possibly cached a minute, since only the municipality is wanted. Rejects with a LocateError.
 */
export function currentPosition(
  geolocation: Geolocation | undefined = globalThis.navigator?.geolocation,
): Promise<{ lat: number; lng: number }> {
  return new Promise((resolve, reject) => {
    if (!geolocation) {
      reject(new LocateError('unsupported'));
      return;
    }
    geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude }),
      (err) => reject(new LocateError(locateFailure(err?.code))),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 60_000 },
    );
  });
}
