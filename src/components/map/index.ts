/**
 * The shared map (issue 16): Leaflet and its CSS are in a chunk loaded only when a map is on screen (LazyMap, to use
 * inside <Suspense fallback={<MapFallback />}>), so no route pays for them before it shows one.
 */
import { lazy } from 'react';

export type { MapArea, MapMarker, MapViewProps } from './types.ts';
export { MapFallback } from './map-fallback.tsx';

export const LazyMap = lazy(() => import('./map-view.tsx'));
