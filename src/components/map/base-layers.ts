/**
 * The embedded base map's data (generated at build time: vite/base-map.ts), fetched once per page and shared by
 * every map on it. The files are content-hashed and precached by the service worker, so this works offline.
 */
import type { FeatureCollection, Geometry } from 'geojson';

declare const __BASE_MAP__: { es: string; world: string } | undefined;

/** Properties of the base map's features: what the map draws them as. */
export type BaseMapProperties =
  | { kind: 'land'; iso2: string }
  | { kind: 'provinces' }
  /** One province's outline (IGN's name, e.g. "Asturias", "València/Valencia"): drawn only around a city. */
  | { kind: 'province'; name: string }
  | { kind: 'neighbour'; iso2: string | null; name: string }
  | { kind: 'country'; iso2: string | null; name: string };
export type BaseMap = FeatureCollection<Geometry, BaseMapProperties>;

/** The two files' URLs, or undefined where the build did not define them (tests, the server's renderer). */
export function baseMapUrls(): { es: string; world: string } | undefined {
  return typeof __BASE_MAP__ === 'undefined' ? undefined : __BASE_MAP__;
}

const loaded = new Map<string, Promise<BaseMap>>();

/** Spain's map for Spain, the world's otherwise; a failed fetch is forgotten so the next map tries again. */
export function loadBaseMap(country: string): Promise<BaseMap> {
  const urls = baseMapUrls();
  if (!urls) return Promise.reject(new Error('base map: not built'));
  const url = country === 'ES' ? urls.es : urls.world;
  let promise = loaded.get(url);
  if (!promise) {
    promise = fetch(url).then((res) => {
      if (!res.ok) throw new Error(`base map: ${res.status}`);
      return res.json() as Promise<BaseMap>;
    });
    promise.catch(() => loaded.delete(url));
    loaded.set(url, promise);
  }
  return promise;
}

/** Whether [lng, lat] lies inside a ring (even-odd ray casting; the rings are small enough to treat as flat). */
function inRing(ring: readonly GeoJSON.Position[], lng: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inPolygons(geometry: Geometry, lng: number, lat: number): boolean {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
  return polygons.some(([outer, ...holes]) => !!outer && inRing(outer, lng, lat) && !holes.some((h) => inRing(h, lng, lat)));
}

/**
 * The province a point lies in, from the base map's province outlines; undefined outside them (another country, the
 * sea, a base map without provinces). A city's centre near the coast may fall just outside its province's outline,
 * which the base map keeps to about 100 m: then the nearest province within `toleranceDeg` (a few km) is taken.
 */
export function provinceAt(
  data: BaseMap,
  lat: number,
  lng: number,
  toleranceDeg = 0.05,
): GeoJSON.Feature<Geometry, Extract<BaseMapProperties, { kind: 'province' }>> | undefined {
  const provinces = data.features.filter(
    (f): f is GeoJSON.Feature<Geometry, Extract<BaseMapProperties, { kind: 'province' }>> => f.properties.kind === 'province',
  );
  const at = (y: number, x: number) => provinces.find((f) => inPolygons(f.geometry, x, y));
  const found = at(lat, lng);
  if (found || toleranceDeg <= 0) return found;
  for (const [dy, dx] of [
    [0, -1],
    [0, 1],
    [-1, 0],
    [1, 0],
    [-1, -1],
    [-1, 1],
    [1, -1],
    [1, 1],
  ] as const) {
    const near = at(lat + dy * toleranceDeg, lng + dx * toleranceDeg);
    if (near) return near;
  }
  return undefined;
}
