/**
 * The production map source the server may configure (GET /api/config `map`: MAP_STYLE_URL, MAP_TILES_URL,
 * MAP_ATTRIBUTION). Unset, maps use the embedded base map and make no third-party request; MapLibre GL (large) is
 * imported only when a vector style is configured.
 */
import { useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import { publicConfigSchema } from '#contract/config.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';

export interface MapSourceConfig {
  styleUrl?: string;
  tilesUrl?: string;
  attribution?: string;
}

export const MAP_CONFIG_QUERY_KEY = ['public-config', 'map'] as const;

/** The last source the server named, kept so that offline the tiles seen before (service worker) are used again. */
export const MAP_SOURCE_STORAGE_KEY = 'vitrina-map-source';

function storedMapConfig(): MapSourceConfig | null {
  try {
    const stored = JSON.parse(localStorage.getItem(MAP_SOURCE_STORAGE_KEY) ?? 'null') as MapSourceConfig | null;
    return stored && (typeof stored.styleUrl === 'string' || typeof stored.tilesUrl === 'string') ? stored : null;
  } catch {
    return null;
  }
}

function storeMapConfig(config: MapSourceConfig | null) {
  try {
    if (config) localStorage.setItem(MAP_SOURCE_STORAGE_KEY, JSON.stringify(config));
    else localStorage.removeItem(MAP_SOURCE_STORAGE_KEY);
  } catch {
    // Storage refused (private mode, full): offline maps then show the embedded base map only.
  }
}

export async function fetchMapConfig(): Promise<MapSourceConfig | null> {
  const { map } = publicConfigSchema.parse(await apiGet<unknown>(API.config));
  const config =
    map && (map.style_url || map.tiles_url) ? { styleUrl: map.style_url, tilesUrl: map.tiles_url, attribution: map.attribution } : null;
  storeMapConfig(config);
  return config;
}

/**
 * The configured source: undefined while asked, null for none. When the question fails (offline, server down) the
 * last source the server named is used, whose tiles seen before the service worker kept; the embedded base map is
 * drawn under it anyway (map-view.tsx), so unseen places still show Spain's outline.
 */
export function useMapConfig(): MapSourceConfig | null | undefined {
  const query = useQuery({
    queryKey: MAP_CONFIG_QUERY_KEY,
    queryFn: fetchMapConfig,
    staleTime: Infinity,
    retry: false,
    // Offline the question fails at once instead of waiting for the network (the map must show without it).
    networkMode: 'always',
  });
  return query.isError ? storedMapConfig() : query.data;
}

/** Adds the configured layer under everything else; null when it could not be loaded (the map stays without base). */
export async function addConfiguredLayer(map: L.Map, config: MapSourceConfig): Promise<L.Layer | null> {
  if (config.styleUrl) {
    const [{ maplibreGL }, maplibre, { default: workerUrl }] = await Promise.all([
      import('@maplibre/maplibre-gl-leaflet'),
      import('maplibre-gl'),
      // MapLibre finds its worker beside its own file, which bundling moves: it is given the emitted file's URL.
      import('maplibre-gl/dist/maplibre-gl-worker.mjs?url'),
      import('maplibre-gl/dist/maplibre-gl.css'),
    ]);
    maplibre.setWorkerUrl(workerUrl);
    return maplibreGL({ style: config.styleUrl }).addTo(map);
  }
  if (config.tilesUrl) return L.tileLayer(config.tilesUrl, { maxZoom: 19, crossOrigin: true }).addTo(map);
  return null;
}
