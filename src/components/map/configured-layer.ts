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

async function fetchMapConfig(): Promise<MapSourceConfig | null> {
  const { map } = publicConfigSchema.parse(await apiGet<unknown>(API.config));
  if (!map || (!map.style_url && !map.tiles_url)) return null;
  return { styleUrl: map.style_url, tilesUrl: map.tiles_url, attribution: map.attribution };
}

/**
 * The configured source: undefined while asked, null for none. A failed question (offline, server down) counts as
 * none: the embedded base map works anywhere, configured tiles may not.
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
  return query.isError ? null : query.data;
}

/** Adds the configured layer under everything else; null when it could not be loaded (the map stays without base). */
export async function addConfiguredLayer(map: L.Map, config: MapSourceConfig): Promise<L.Layer | null> {
  if (config.styleUrl) {
    const [{ maplibreGL }] = await Promise.all([
      import('@maplibre/maplibre-gl-leaflet'),
      import('maplibre-gl'),
      import('maplibre-gl/dist/maplibre-gl.css'),
    ]);
    return maplibreGL({ style: config.styleUrl }).addTo(map);
  }
  if (config.tilesUrl) return L.tileLayer(config.tilesUrl, { maxZoom: 19, crossOrigin: true }).addTo(map);
  return null;
}
