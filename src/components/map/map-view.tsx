/**
 * The map itself (Leaflet), loaded lazily through LazyMap (index.ts) with Leaflet's CSS. It draws the embedded base
 * map (Spain's land and provinces and its neighbours, or the world for another country: vite/base-map.ts) styled
 * from the Mantine theme in both colour schemes, and above it the tiles the server may configure (MAP_TILES_URL,
 * MAP_STYLE_URL: ./configured-layer.ts); the markers are keyboard-focusable buttons named by their label.
 */
import 'leaflet/dist/leaflet.css';
import { VisuallyHidden } from '@mantine/core';
import L from 'leaflet';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { loadBaseMap, provinceAt, type BaseMap, type BaseMapProperties } from './base-layers.ts';
import { addConfiguredLayer, useMapConfig } from './configured-layer.ts';
import type { MapMarker, MapViewProps } from './types.ts';
import classes from './map-view.module.css';

const DEFAULT_MAX_ZOOM = 14;
/** Fitting the view to results never zooms closer than this: one result shows its surroundings. */
const FIT_MAX_ZOOM = 11;

export const markerClassName = (marker: MapMarker): string =>
  [classes.marker, marker.count === undefined ? classes.dot : '', marker.selected ? classes.selected : ''].filter(Boolean).join(' ');

/** The count as drawn on the marker: big numbers shortened so they fit the round marker. */
export const markerText = (count: number | undefined): string =>
  count === undefined ? '' : count > 999 ? `${Math.floor(count / 1000)}k` : String(count);

/** Builds one marker: a Leaflet divIcon whose element is a button named by the marker's label. */
export function createMarker(marker: MapMarker, onActivate: (m: MapMarker) => void): L.Marker {
  const icon = L.divIcon({
    className: markerClassName(marker),
    html: `<span aria-hidden="true">${markerText(marker.count)}</span>`,
    iconSize: marker.count === undefined ? [24, 24] : [34, 34],
  });
  const m = L.marker([marker.lat, marker.lng], { icon, keyboard: true, riseOnHover: true, zIndexOffset: marker.selected ? 1000 : 0 });
  m.bindTooltip(marker.label, { direction: 'top', offset: [0, -16] });
  m.on('click', () => onActivate(marker));
  m.on('add', () => {
    const el = m.getElement();
    if (!el) return;
    el.setAttribute('role', 'button');
    el.setAttribute('aria-label', marker.label);
    if (marker.selected !== undefined) el.setAttribute('aria-pressed', String(marker.selected));
    // Enter and Space activate, as on any button (preventing the default also stops Leaflet's keypress → click).
    L.DomEvent.on(el, 'keydown', (e) => {
      const key = (e as KeyboardEvent).key;
      if (key !== 'Enter' && key !== ' ') return;
      L.DomEvent.preventDefault(e);
      L.DomEvent.stopPropagation(e);
      onActivate(marker);
    });
  });
  return m;
}

/** How close (px) two markers' centres may be before they are drawn as one: about a marker's width. */
export const GROUP_DISTANCE_PX = 30;

/**
 * Places whose markers would overlap, grouped: each place joins the first group whose first place is within
 * GROUP_DISTANCE_PX on screen (`at` projects a place), the places with most ads placed first so they lead their groups.
 */
export function groupNearby<T extends { count?: number }>(places: readonly T[], at: (p: T) => { x: number; y: number }): T[][] {
  const groups: { x: number; y: number; places: T[] }[] = [];
  for (const p of places.toSorted((a, b) => (b.count ?? 0) - (a.count ?? 0))) {
    const { x, y } = at(p);
    const g = groups.find((c) => Math.hypot(c.x - x, c.y - y) < GROUP_DISTANCE_PX);
    if (g) g.places.push(p);
    else groups.push({ x, y, places: [p] });
  }
  return groups.map((g) => g.places);
}

const styleOf = (props: BaseMapProperties, country: string): L.PathOptions => {
  switch (props.kind) {
    case 'land':
      return { className: classes.land, weight: 1 };
    case 'provinces':
      return { className: classes.provinces, weight: 1, fill: false };
    case 'neighbour':
      return { className: classes.neighbour, weight: 1 };
    case 'country':
      return props.iso2 === country ? { className: classes.land, weight: 1 } : { className: classes.neighbour, weight: 1 };
    case 'province':
      return { className: classes.province, weight: 2 };
  }
};

/**
 * The base map; around an area (the model page), also the outline of the province the area lies in, so a map of one
 * city at city zoom shows where the province's borders run instead of an even square of land.
 */
function addBaseMap(map: L.Map, data: BaseMap, country: string, around?: { lat: number; lng: number }): L.Layer {
  const province = around ? provinceAt(data, around.lat, around.lng) : undefined;
  return L.geoJSON(data, {
    pane: 'base',
    interactive: false,
    filter: (f: GeoJSON.Feature<GeoJSON.Geometry, BaseMapProperties>) => f.properties.kind !== 'province' || f === province,
    style: (f?: GeoJSON.Feature<GeoJSON.Geometry, BaseMapProperties>) => (f ? styleOf(f.properties, country) : {}),
    // Names the drawn province on its path (tests, and anyone reading the page's markup).
    onEachFeature: (f: GeoJSON.Feature<GeoJSON.Geometry, BaseMapProperties>, layer) => {
      if (f.properties.kind === 'province') {
        const { name } = f.properties;
        layer.on('add', () => (layer as L.Path).getElement()?.setAttribute('data-province', name));
      }
    },
  }).addTo(map);
}

/** Leaflet takes attribution as HTML; configured text is shown as text. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export default function MapView({
  ariaLabel,
  center,
  zoom = 8,
  fitTo,
  markers,
  onMarkerActivate,
  area,
  country = 'ES',
  height = 320,
  onMapClick,
  maxZoom = DEFAULT_MAX_ZOOM,
  groupNearby: grouped = false,
}: MapViewProps) {
  const { t } = useTranslation();
  const helpId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const config = useMapConfig();
  const [baseFailed, setBaseFailed] = useState(false);

  // The latest callbacks, read by listeners added once.
  const activateRef = useRef(onMarkerActivate);
  const clickRef = useRef(onMapClick);
  useEffect(() => {
    activateRef.current = onMarkerActivate;
    clickRef.current = onMapClick;
  });

  // The map, once per mount (its view follows the props below).
  const initial = useRef({ center, zoom, maxZoom });
  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const { center: c, zoom: z, maxZoom: mz } = initial.current;
    const m = L.map(el, { center: c, zoom: z, minZoom: 3, maxZoom: mz, zoomControl: false, attributionControl: false, keyboard: true });
    // The embedded base map goes under everything, configured tiles included (tilePane: 200): where a tile is missing
    // (offline, not seen before) Spain's outline still shows.
    m.createPane('base').style.zIndex = '150';
    m.on('click', (e: L.LeafletMouseEvent) => clickRef.current?.(e.latlng.lat, e.latlng.lng));
    setMap(m);
    return () => {
      m.remove();
      setMap(null);
    };
  }, []);

  // Zoom buttons and attribution in the visitor's language: the configured source's (as text), then the embedded map's.
  const configuredAttribution = config?.attribution;
  useEffect(() => {
    if (!map) return;
    const zoomControl = L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(map);
    const attributionControl = L.control.attribution({ prefix: false }).addTo(map);
    if (configuredAttribution) attributionControl.addAttribution(escapeHtml(configuredAttribution));
    attributionControl.addAttribution(escapeHtml(t('map.attribution')));
    return () => {
      zoomControl.remove();
      attributionControl.remove();
    };
  }, [map, t, configuredAttribution]);

  // The base: the embedded map always (it is precached: offline it is there), and above it the configured tiles or
  // style when the server names one.
  const aroundLat = area?.lat;
  const aroundLng = area?.lng;
  useEffect(() => {
    if (!map) return;
    let layer: L.Layer | undefined;
    let cancelled = false;
    const around = aroundLat === undefined || aroundLng === undefined ? undefined : { lat: aroundLat, lng: aroundLng };
    loadBaseMap(country).then(
      (data) => {
        if (!cancelled) layer = addBaseMap(map, data, country, around);
      },
      () => !cancelled && setBaseFailed(true),
    );
    return () => {
      cancelled = true;
      layer?.remove();
    };
  }, [map, country, aroundLat, aroundLng]);

  useEffect(() => {
    if (!map || !config) return;
    let layer: L.Layer | undefined;
    let cancelled = false;
    void addConfiguredLayer(map, config).then((l) => {
      if (cancelled) l?.remove();
      else layer = l ?? undefined;
    });
    return () => {
      cancelled = true;
      layer?.remove();
    };
  }, [map, config]);

  // The view: fitted to the results when there are some, else the given centre.
  const fitKey = JSON.stringify(fitTo ?? []);
  useEffect(() => {
    if (!map) return;
    const points = JSON.parse(fitKey) as Array<[number, number]>;
    if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: Math.min(FIT_MAX_ZOOM, maxZoom) });
    else if (points.length === 1) map.setView(points[0]!, Math.min(Math.max(zoom, 9), maxZoom));
    else map.setView(center, zoom);
    // center is compared by value: a new array with the same point moves nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, fitKey, center[0], center[1], zoom, maxZoom]);

  useEffect(() => {
    map?.setMaxZoom(maxZoom);
  }, [map, maxZoom]);

  useEffect(() => {
    if (!map || !markers?.length) return;
    const group = L.layerGroup().addTo(map);
    // Markers that would cover each other at this zoom are drawn as one, which zooms in to them (cities of one area
    // seen from the whole country); at the closest zoom every place has its own.
    const draw = () => {
      group.clearLayers();
      const near =
        !grouped || map.getZoom() >= map.getMaxZoom()
          ? markers.map((m) => [m])
          : groupNearby(markers, (m) => map.latLngToLayerPoint([m.lat, m.lng]));
      for (const places of near) {
        if (places.length === 1) {
          group.addLayer(createMarker(places[0]!, (x) => activateRef.current?.(x)));
          continue;
        }
        const bounds = L.latLngBounds(places.map((p): [number, number] => [p.lat, p.lng]));
        const counted = places.every((p) => p.count !== undefined);
        const count = counted ? places.reduce((sum, p) => sum + p.count!, 0) : undefined;
        const centre = bounds.getCenter();
        const label = counted ? t('map.groupCount', { places: places.length, count }) : t('map.group', { places: places.length });
        const marker = createMarker(
          { id: `group:${places.map((p) => p.id).join(',')}`, lat: centre.lat, lng: centre.lng, label, count },
          () => {
            map.fitBounds(bounds, { padding: [48, 48], maxZoom: map.getMaxZoom() });
            // The keyboard stays on the map, where the places now are.
            containerRef.current?.focus();
          },
        );
        group.addLayer(marker);
      }
    };
    draw();
    if (grouped) map.on('zoomend', draw);
    return () => {
      map.off('zoomend', draw);
      group.remove();
    };
    // t: the labels follow the language only when the markers change (the map is drawn again then).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, markers, grouped]);

  useEffect(() => {
    if (!map || !area) return;
    const circle = L.circle([area.lat, area.lng], { radius: area.radiusMeters, className: classes.area, interactive: false }).addTo(map);
    // The place's name written on the map, under the area (the region's description already says it: hidden from
    // screen readers, and not focusable).
    const name = area.name
      ? L.marker([area.lat, area.lng], {
          icon: L.divIcon({ className: classes.placeName, html: `<span>${escapeHtml(area.name)}</span>`, iconSize: [0, 0] }),
          interactive: false,
          keyboard: false,
        }).addTo(map)
      : undefined;
    name?.getElement()?.setAttribute('aria-hidden', 'true');
    return () => {
      circle.remove();
      name?.remove();
    };
  }, [map, area]);

  return (
    <div className={classes.root} style={{ height }}>
      <div ref={containerRef} className={classes.map} role="region" aria-label={ariaLabel} aria-describedby={helpId} />
      <VisuallyHidden id={helpId}>
        {[area?.label, t('map.keyboardHelp'), baseFailed ? t('map.baseMapUnavailable') : ''].filter(Boolean).join(' ')}
      </VisuallyHidden>
    </div>
  );
}
