import { describe, expect, it } from 'vitest';
import { DEFAULT_POSITION, type City, type State } from '#contract/locations.ts';
import { CITY_ZOOM, currentPosition, LocateError, locateFailure, locationMapView, OVERVIEW_ZOOM } from './location-map-view.ts';

const STATES: State[] = [
  { id: 33, country_id: 1, code: '33', name: 'Asturias', latitude: 43.3603, longitude: -5.8448 },
  { id: 28, country_id: 1, code: '28', name: 'Madrid', latitude: 40.4165, longitude: -3.7026 },
];
const CITIES: City[] = [
  { id: 1, state_id: 33, code: '33044', name: 'Oviedo', latitude: 43.3603, longitude: -5.8448 },
  { id: 2, state_id: 33, code: '33024', name: 'Gijón', latitude: 43.5357, longitude: -5.6615 },
];
const stateLabel = (name: string) => `${name} (provincia)`;

describe('location map view', () => {
  it('starts at the default position (Oviedo) with the provinces as markers when nothing is chosen', () => {
    const v = locationMapView({ states: STATES, cities: undefined, stateId: null, cityId: null, stateLabel });
    expect(v.center).toEqual([DEFAULT_POSITION.latitude, DEFAULT_POSITION.longitude]);
    expect(v.center).toEqual([43.3603, -5.845]);
    expect(v.zoom).toBe(OVERVIEW_ZOOM);
    expect(v.fitTo).toEqual([]);
    expect(v.markers.map((m) => [m.kind, m.placeId, m.label])).toEqual([
      ['state', 33, 'Asturias (provincia)'],
      ['state', 28, 'Madrid (provincia)'],
    ]);
  });

  it('with no country data yet: the default position and no markers', () => {
    const v = locationMapView({ states: undefined, cities: undefined, stateId: null, cityId: null, stateLabel });
    expect(v.center).toEqual([43.3603, -5.845]);
    expect(v.markers).toEqual([]);
  });

  it('a province: its cities are the markers and the view fits them', () => {
    const v = locationMapView({ states: STATES, cities: CITIES, stateId: 33, cityId: null, stateLabel });
    expect(v.markers.map((m) => [m.kind, m.placeId, m.label, m.selected])).toEqual([
      ['city', 1, 'Oviedo', false],
      ['city', 2, 'Gijón', false],
    ]);
    expect(v.fitTo).toEqual([
      [43.3603, -5.8448],
      [43.5357, -5.6615],
    ]);
  });

  it('a city: centred on it, marked as chosen, among its neighbours', () => {
    const v = locationMapView({ states: STATES, cities: CITIES, stateId: 33, cityId: 2, stateLabel });
    expect(v.center).toEqual([43.5357, -5.6615]);
    expect(v.zoom).toBe(CITY_ZOOM);
    expect(v.fitTo).toEqual([]);
    expect(v.markers.find((m) => m.selected)?.label).toBe('Gijón');
    expect(v.markers).toHaveLength(2);
  });

  it("a province whose cities are still loading (or the previous province's list): centred on the province, its marker chosen", () => {
    const v = locationMapView({ states: STATES, cities: CITIES, stateId: 28, cityId: null, stateLabel });
    expect(v.center).toEqual([40.4165, -3.7026]);
    expect(v.markers.every((m) => m.kind === 'state')).toBe(true);
    expect(v.markers.find((m) => m.selected)?.placeId).toBe(28);
  });

  it('marker ids of provinces and cities never collide', () => {
    const a = locationMapView({ states: STATES, cities: undefined, stateId: null, cityId: null, stateLabel }).markers;
    const b = locationMapView({ states: STATES, cities: CITIES, stateId: 33, cityId: null, stateLabel }).markers;
    const ids = [...a, ...b].map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the browser position', () => {
  const geolocation = (answer: (ok: PositionCallback, fail: PositionErrorCallback, opts?: PositionOptions) => void) =>
    ({ getCurrentPosition: answer }) as unknown as Geolocation;

  it('resolves the coordinates, asking for a coarse position', async () => {
    let options: PositionOptions | undefined;
    const point = await currentPosition(
      geolocation((ok, _fail, opts) => {
        options = opts;
        ok({ coords: { latitude: 43.36, longitude: -5.84 } } as GeolocationPosition);
      }),
    );
    expect(point).toEqual({ lat: 43.36, lng: -5.84 });
    expect(options?.enableHighAccuracy).toBe(false);
    expect(options?.timeout).toBeGreaterThan(0);
  });

  it('says why there is none: denied, unavailable, timeout, unsupported', async () => {
    for (const [code, failure] of [
      [1, 'denied'],
      [2, 'unavailable'],
      [3, 'timeout'],
    ] as const) {
      const err = await currentPosition(geolocation((_ok, fail) => fail({ code } as GeolocationPositionError))).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LocateError);
      expect((err as LocateError).failure).toBe(failure);
    }
    const none = await currentPosition(undefined).catch((e: unknown) => e);
    expect((none as LocateError).failure).toBe('unsupported');
    expect(locateFailure(undefined)).toBe('unavailable');
  });
});
