/** A city (or place) on a map: a focusable control whose accessible name is `label`. */
export interface MapMarker {
  id: string | number;
  lat: number;
  lng: number;
  /** Accessible name, e.g. "Oviedo: 12 modelos". */
  label: string;
  /** Drawn on the marker. */
  count?: number;
  selected?: boolean;
}

/** An approximate area (a circle): where a model is, never a precise point. */
export interface MapArea {
  lat: number;
  lng: number;
  radiusMeters: number;
  label: string;
  /** The place's name, written on the map beside the area (e.g. the city). */
  name?: string;
}

export interface MapViewProps {
  /** The map region's accessible name. */
  ariaLabel: string;
  /** [lat, lng] used until fitTo has points. */
  center: [number, number];
  zoom?: number;
  /** Fit the view to these points (results), when non-empty. */
  fitTo?: Array<[number, number]>;
  markers?: MapMarker[];
  /** Click, tap, Enter or Space on a focused marker. */
  onMarkerActivate?: (marker: MapMarker) => void;
  /** The approximate ~2 km area (model page). */
  area?: MapArea;
  /** ISO 3166-1 alpha-2 of the country to draw (default 'ES'). */
  country?: string;
  height?: number | string;
  /** A click on the map (location picker). */
  onMapClick?: (lat: number, lng: number) => void;
  /** Closest zoom allowed (default 14); the model page's area map stops earlier so the area stays an area. */
  maxZoom?: number;
  /** Markers that would cover each other are drawn as one that zooms in to them (a map of many places). */
  groupNearby?: boolean;
}
