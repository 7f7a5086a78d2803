/**
 * The shared map's accessible parts in jsdom (Leaflet builds its DOM there; what it draws is checked in the browser by
 * e2e/maps-model.spec.ts): the region, markers as buttons named by their label that Enter, Space and a click
 * activate, zoom buttons in the visitor's language, the attribution, the base map drawn from the embedded data.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInSpanish } from '#tests/render-es.tsx';
import type * as BaseLayers from './base-layers.ts';
import type { MapMarker } from './types.ts';

const loadBaseMap = vi.fn<(country: string) => Promise<unknown>>();
vi.mock('./base-layers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof BaseLayers>()),
  loadBaseMap: (country: string) => loadBaseMap(country),
}));
const mapConfig = vi.hoisted(() => ({ current: null as null | { tilesUrl?: string; attribution?: string } }));
const addConfiguredLayer = vi.fn(async () => null);
vi.mock('./configured-layer.ts', () => ({
  useMapConfig: () => mapConfig.current,
  addConfiguredLayer: (...args: unknown[]) => addConfiguredLayer(...(args as [])),
}));

const { default: MapView, GROUP_DISTANCE_PX, groupNearby, markerText } = await import('./map-view.tsx');

/** The text of the elements aria-describedby names. */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();

const SPAIN = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { kind: 'land', iso2: 'ES' },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [-9, 36],
              [3, 36],
              [3, 43.8],
              [-9, 43.8],
              [-9, 36],
            ],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { kind: 'provinces' },
      geometry: {
        type: 'MultiLineString',
        coordinates: [
          [
            [-5, 40],
            [-4, 41],
          ],
        ],
      },
    },
  ],
};

const markers: MapMarker[] = [
  { id: 1, lat: 43.36, lng: -5.84, label: 'Oviedo: 12 modelos', count: 12 },
  { id: 2, lat: 43.53, lng: -5.66, label: 'Gijón: 3 modelos', count: 3, selected: true },
];

afterEach(() => {
  vi.clearAllMocks();
  mapConfig.current = null;
});

describe('MapView', () => {
  it('is a focusable region named by ariaLabel, with zoom buttons and the attribution in Spanish', async () => {
    loadBaseMap.mockResolvedValue(SPAIN);
    renderInSpanish(<MapView ariaLabel="Mapa de prueba" center={[43.36, -5.84]} />);
    const region = screen.getByRole('region', { name: 'Mapa de prueba' });
    expect(region.tabIndex).toBe(0);
    expect(description(region)).toMatch(/flechas/);
    expect(screen.getByRole('button', { name: 'Acercar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Alejar' })).toBeTruthy();
    expect(region.textContent).toContain('Mapa: © IGN (es-atlas) · Natural Earth');
    // The embedded base map, drawn as SVG paths styled by the theme's classes.
    await waitFor(() => expect(region.querySelectorAll('.leaflet-base-pane path').length).toBe(2));
    expect(loadBaseMap).toHaveBeenCalledWith('ES');
    expect(addConfiguredLayer).not.toHaveBeenCalled();
  });

  it('draws markers as buttons named by their label, with the count drawn; Enter, Space and a click activate', async () => {
    loadBaseMap.mockResolvedValue(SPAIN);
    const onActivate = vi.fn();
    renderInSpanish(<MapView ariaLabel="Mapa" center={[43.36, -5.84]} markers={markers} onMarkerActivate={onActivate} />);
    const oviedo = await screen.findByRole('button', { name: 'Oviedo: 12 modelos' });
    const gijon = screen.getByRole('button', { name: 'Gijón: 3 modelos' });
    expect(oviedo.tabIndex).toBe(0);
    expect(oviedo.textContent).toBe('12');
    expect(gijon.getAttribute('aria-pressed')).toBe('true');
    // Not a choosable marker: no pressed state.
    expect(oviedo.getAttribute('aria-pressed')).toBeNull();

    fireEvent.keyDown(oviedo, { key: 'Enter' });
    expect(onActivate).toHaveBeenLastCalledWith(markers[0]);
    fireEvent.keyDown(gijon, { key: ' ' });
    expect(onActivate).toHaveBeenLastCalledWith(markers[1]);
    fireEvent.keyDown(gijon, { key: 'a' });
    expect(onActivate).toHaveBeenCalledTimes(2);
    fireEvent.click(oviedo);
    expect(onActivate).toHaveBeenCalledTimes(3);
    expect(onActivate).toHaveBeenLastCalledWith(markers[0]);
  });

  it('replaces the markers when the list changes', async () => {
    loadBaseMap.mockResolvedValue(SPAIN);
    function Harness() {
      const [shown, setShown] = useState(markers);
      return (
        <>
          <button onClick={() => setShown([markers[1]!])}>filtrar</button>
          <MapView ariaLabel="Mapa" center={[43.36, -5.84]} markers={shown} />
        </>
      );
    }
    renderInSpanish(<Harness />);
    await screen.findByRole('button', { name: 'Oviedo: 12 modelos' });
    fireEvent.click(screen.getByRole('button', { name: 'filtrar' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Oviedo: 12 modelos' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Gijón: 3 modelos' })).toBeTruthy();
  });

  it('names the area in the region’s description', () => {
    loadBaseMap.mockResolvedValue(SPAIN);
    renderInSpanish(
      <MapView
        ariaLabel="Mapa de la zona"
        center={[43.36, -5.84]}
        area={{ lat: 43.36, lng: -5.84, radiusMeters: 2000, label: 'Zona de Oviedo.' }}
      />,
    );
    expect(description(screen.getByRole('region', { name: 'Mapa de la zona' }))).toMatch(/^Zona de Oviedo\./);
  });

  it('around an area, draws the outline of the province it lies in (no other) and writes the place’s name', async () => {
    const box = (name: string, west: number, south: number) => ({
      type: 'Feature',
      properties: { kind: 'province', name },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [west, south],
              [west + 1, south],
              [west + 1, south + 1],
              [west, south + 1],
              [west, south],
            ],
          ],
        ],
      },
    });
    const withProvinces = { ...SPAIN, features: [...SPAIN.features, box('Asturias', -6.5, 43), box('Cantabria', -4.5, 43)] };
    loadBaseMap.mockResolvedValue(withProvinces);
    renderInSpanish(
      <MapView
        ariaLabel="Mapa de la zona"
        center={[43.36, -5.84]}
        area={{ lat: 43.36, lng: -5.84, radiusMeters: 2000, label: 'Zona de Oviedo.', name: 'Oviedo' }}
      />,
    );
    const region = screen.getByRole('region', { name: 'Mapa de la zona' });
    // Land, province lines, and Asturias; not Cantabria.
    await waitFor(() => expect(region.querySelectorAll('.leaflet-base-pane path').length).toBe(3));
    const name = region.querySelector('.leaflet-marker-pane [aria-hidden="true"]');
    expect(name?.textContent).toBe('Oviedo');
    expect(name?.getAttribute('tabindex')).toBeNull();

    // A map without an area draws no province outline.
    loadBaseMap.mockResolvedValue(withProvinces);
    renderInSpanish(<MapView ariaLabel="Mapa sin zona" center={[43.36, -5.84]} />);
    const plain = screen.getByRole('region', { name: 'Mapa sin zona' });
    await waitFor(() => expect(plain.querySelectorAll('.leaflet-base-pane path').length).toBe(2));
  });

  it('draws another country from the world map, that country as land and the others as neighbours', async () => {
    const square = (x: number, y: number) => ({
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [x, y],
            [x + 1, y],
            [x + 1, y + 1],
            [x, y + 1],
            [x, y],
          ],
        ],
      ],
    });
    loadBaseMap.mockResolvedValue({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { kind: 'country', iso2: 'FR', name: 'France' }, geometry: square(2, 46) },
        { type: 'Feature', properties: { kind: 'country', iso2: 'DE', name: 'Germany' }, geometry: square(10, 51) },
        { type: 'Feature', properties: { kind: 'country', iso2: 'ES', name: 'Spain' }, geometry: square(-4, 40) },
      ],
    });
    renderInSpanish(<MapView ariaLabel="Mapa" center={[46.5, 2.5]} country="FR" />);
    const region = screen.getByRole('region', { name: 'Mapa' });
    await waitFor(() => expect(region.querySelectorAll('.leaflet-base-pane path').length).toBe(3));
    expect(loadBaseMap).toHaveBeenCalledWith('FR');
    const [france, germany, spain] = [...region.querySelectorAll('.leaflet-base-pane path')].map((p) => p.getAttribute('class'));
    expect(france).not.toBe(germany);
    expect(germany).toBe(spain);
  });

  it('says so when the base map cannot be loaded', async () => {
    loadBaseMap.mockRejectedValue(new Error('offline'));
    renderInSpanish(<MapView ariaLabel="Mapa" center={[43.36, -5.84]} />);
    await waitFor(() =>
      expect(description(screen.getByRole('region', { name: 'Mapa' }))).toMatch(/No se ha podido cargar el mapa de fondo/),
    );
  });

  it('draws the configured tiles above the embedded map, with their attribution as text', async () => {
    loadBaseMap.mockResolvedValue(SPAIN);
    mapConfig.current = { tilesUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', attribution: '© Example <b>contributors</b>' };
    renderInSpanish(<MapView ariaLabel="Mapa" center={[43.36, -5.84]} />);
    await waitFor(() => expect(addConfiguredLayer).toHaveBeenCalledTimes(1));
    expect(addConfiguredLayer).toHaveBeenCalledWith(expect.anything(), mapConfig.current);
    // The embedded map stays under the tiles (where a tile is missing offline, Spain still shows).
    expect(loadBaseMap).toHaveBeenCalledWith('ES');
    const region = screen.getByRole('region', { name: 'Mapa' });
    const attribution = region.querySelector('.leaflet-control-attribution')!;
    expect(attribution.textContent).toBe('© Example <b>contributors</b>, Mapa: © IGN (es-atlas) · Natural Earth');
    expect(attribution.querySelector('b')).toBeNull();
  });
});

describe('markerText', () => {
  it('draws the count, shortened past 999', () => {
    expect(markerText(undefined)).toBe('');
    expect(markerText(7)).toBe('7');
    expect(markerText(999)).toBe('999');
    expect(markerText(1234)).toBe('1k');
  });
});

describe('groupNearby', () => {
  const at = (p: { x: number; y: number }) => p;
  it('draws places whose markers would overlap as one group, led by the one with most ads; others alone', () => {
    const oviedo = { name: 'Oviedo', x: 100, y: 100, count: 28 };
    const gijon = { name: 'Gijón', x: 110, y: 92, count: 30 };
    const aviles = { name: 'Avilés', x: 160, y: 100, count: 27 };
    const madrid = { name: 'Madrid', x: 300, y: 400, count: 9 };
    const groups = groupNearby([oviedo, madrid, aviles, gijon], at).map((g) => g.map((p) => p.name));
    expect(groups).toEqual([['Gijón', 'Oviedo'], ['Avilés'], ['Madrid']]);
  });

  it('keeps places a marker apart as separate markers', () => {
    const groups = groupNearby(
      [
        { x: 0, y: 0, count: 1 },
        { x: GROUP_DISTANCE_PX, y: 0, count: 1 },
      ],
      at,
    );
    expect(groups).toHaveLength(2);
  });
});
