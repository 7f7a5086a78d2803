import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { City, State } from '#contract/locations.ts';
import type { MapViewProps } from '#src/components/map/index.ts';
import { renderInSpanish } from '#tests/render-es.tsx';
import { LocationMap, type LocationMapProps, type PickedLocation } from './location-map.tsx';

// Leaflet does not run in jsdom: a stand-in draws the markers as buttons, and a "click on the map" button.
const mapCode = vi.hoisted(() => ({ broken: false }));
vi.mock('#src/components/map/index.ts', () => ({
  MapFallback: () => null,
  LazyMap: (props: MapViewProps) => {
    if (mapCode.broken) throw new Error('Failed to fetch dynamically imported module');
    return (
      <div role="region" aria-label={props.ariaLabel} data-center={props.center.join(',')}>
        {props.markers?.map((m) => (
          <button key={m.id} type="button" aria-label={m.label} aria-pressed={m.selected} onClick={() => props.onMarkerActivate?.(m)} />
        ))}
        <button type="button" onClick={() => props.onMapClick?.(43.53571234, -5.66151234)}>
          map-click
        </button>
      </div>
    );
  },
}));

const STATES: State[] = [{ id: 33, country_id: 7, code: '33', name: 'Asturias', latitude: 43.3603, longitude: -5.8448 }];
const CITIES: City[] = [
  { id: 1, state_id: 33, code: '33044', name: 'Oviedo', latitude: 43.3603, longitude: -5.8448 },
  { id: 2, state_id: 33, code: '33024', name: 'Gijón', latitude: 43.5357, longitude: -5.6615 },
];
const GIJON = { country_id: 7, state_id: 33, state: 'Asturias', city_id: 2, city: 'Gijón', latitude: 43.5357, longitude: -5.6615 };

let fetched: string[];
function serveNearest(status = 200, body: unknown = { data: GIJON }) {
  fetched = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      fetched.push(String(url));
      return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
    }),
  );
}
function stubGeolocation(answer: (ok: PositionCallback, fail: PositionErrorCallback) => void) {
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition: vi.fn(answer) }, configurable: true });
}

beforeEach(() => serveNearest());
afterEach(() => {
  mapCode.broken = false;
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'geolocation');
});

/** The step around the map: the pickers' values change with what the map picks. */
function Harness({ onPick, ...initial }: Omit<LocationMapProps, 'country' | 'states'> & { onPick: (p: PickedLocation) => void }) {
  const [choice, setChoice] = useState({ stateId: initial.stateId, cityId: initial.cityId });
  return (
    <LocationMap
      {...initial}
      country="ES"
      states={STATES}
      stateId={choice.stateId}
      cityId={choice.cityId}
      onPick={(p) => {
        onPick(p);
        setChoice({ stateId: p.state_id, cityId: p.city_id });
      }}
    />
  );
}

function renderMap(props: Partial<Pick<LocationMapProps, 'cities' | 'stateId' | 'cityId'>> = {}) {
  const onPick = vi.fn<(p: PickedLocation) => void>();
  renderInSpanish(<Harness cities={undefined} stateId={null} cityId={null} onPick={onPick} {...props} />);
  return onPick;
}

describe('location map', () => {
  it('a province marker picks the province; a city marker picks the city and its province', () => {
    const onPick = renderMap();
    fireEvent.click(screen.getByRole('button', { name: 'Asturias (provincia)' }));
    expect(onPick).toHaveBeenLastCalledWith({ state_id: 33, city_id: null });
    expect(fetched).toEqual([]);

    const onCity = renderMap({ cities: CITIES, stateId: 33 });
    fireEvent.click(screen.getByRole('button', { name: 'Gijón' }));
    expect(onCity).toHaveBeenLastCalledWith({ state_id: 33, city_id: 2 });
  });

  it('starts at the default position and follows the pickers', () => {
    renderMap({ cities: CITIES, stateId: 33, cityId: 1 });
    expect(screen.getByRole('region', { name: 'Mapa para elegir la ciudad' }).dataset.center).toBe('43.3603,-5.8448');
    expect(screen.getByRole('button', { name: 'Oviedo' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('"use my location" sends the rounded position once and fills the three pickers with the nearest municipality', async () => {
    stubGeolocation((ok) => ok({ coords: { latitude: 43.53571234, longitude: -5.66151234 } } as GeolocationPosition));
    const onPick = renderMap();
    fireEvent.click(screen.getByRole('button', { name: 'Usar mi ubicación' }));
    await waitFor(() => expect(onPick).toHaveBeenCalledWith({ country_id: 7, state_id: 33, city_id: 2 }));
    expect(fetched).toEqual(['/api/cities/nearest?lat=43.536&lng=-5.662']);
    expect(await screen.findByText('Ubicación elegida: Gijón, Asturias.')).toBeTruthy();
  });

  it('a click on the map picks the nearest municipality', async () => {
    const onPick = renderMap();
    fireEvent.click(screen.getByRole('button', { name: 'map-click' }));
    await waitFor(() => expect(onPick).toHaveBeenCalledWith({ country_id: 7, state_id: 33, city_id: 2 }));
  });

  it('denied, unavailable, timed out or unsupported: a translated message and nothing changed, nothing sent', async () => {
    const cases: Array<[number | null, string]> = [
      [1, 'No tenemos permiso para ver tu ubicación. Puedes elegir la ciudad en el mapa o en las listas.'],
      [2, 'No hemos podido saber dónde estás. Elige la ciudad en el mapa o en las listas.'],
      [3, 'Tu ubicación está tardando demasiado. Vuelve a intentarlo o elige la ciudad en el mapa.'],
      [null, 'Este navegador no puede darnos tu ubicación. Elige la ciudad en el mapa o en las listas.'],
    ];
    for (const [code, message] of cases) {
      if (code === null) Reflect.deleteProperty(navigator, 'geolocation');
      else stubGeolocation((_ok, fail) => fail({ code } as GeolocationPositionError));
      const onPick = renderMap();
      fireEvent.click(screen.getByRole('button', { name: 'Usar mi ubicación' }));
      expect((await screen.findByRole('alert')).textContent).toBe(message);
      expect(onPick).not.toHaveBeenCalled();
      expect(fetched).toEqual([]);
      cleanup();
    }
  });

  it("no municipality near: the server's translated message, nothing changed", async () => {
    serveNearest(404, {
      channel: 'notification',
      type: 'error',
      error: 'not_found',
      message: 'No conocemos ningún municipio cerca de ese punto.',
    });
    stubGeolocation((ok) => ok({ coords: { latitude: 45, longitude: -15 } } as GeolocationPosition));
    const onPick = renderMap();
    fireEvent.click(screen.getByRole('button', { name: 'Usar mi ubicación' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No conocemos ningún municipio cerca de ese punto.');
    expect(onPick).not.toHaveBeenCalled();
  });

  it('a map whose code cannot load leaves a note and the rest of the step working', async () => {
    mapCode.broken = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubGeolocation((ok) => ok({ coords: { latitude: 43.5357, longitude: -5.6615 } } as GeolocationPosition));
    const onPick = renderMap();
    expect(screen.getByRole('note').textContent).toBe('El mapa no está disponible ahora: elige la ciudad en las listas.');
    expect(screen.queryByRole('region')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Usar mi ubicación' }));
    await waitFor(() => expect(onPick).toHaveBeenCalledWith({ country_id: 7, state_id: 33, city_id: 2 }));
  });

  it('a lookup overtaken by a choice on the map fills nothing', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const onPick = renderMap({ cities: CITIES, stateId: 33 });
    fireEvent.click(screen.getByRole('button', { name: 'map-click' }));
    fireEvent.click(screen.getByRole('button', { name: 'Oviedo' }));
    expect(onPick).toHaveBeenLastCalledWith({ state_id: 33, city_id: 1 });
    answer(new Response(JSON.stringify({ data: GIJON }), { status: 200, headers: { 'content-type': 'application/json' } }));
    // One turn of the event loop: the late answer is read (and, without the guard, would fill the pickers).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Oviedo' }).getAttribute('aria-pressed')).toBe('true');
  });
});
