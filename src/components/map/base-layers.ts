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
