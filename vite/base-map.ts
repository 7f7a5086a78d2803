/**
 * The embedded base map (issue 16 point 4), generated at build time from boundary data shipped in npm packages, so a
 * map needs no third party and works offline:
 * - `es`: Spain's land and province lines (es-atlas, IGN data) and the neighbouring countries around it (world-atlas,
 *   Natural Earth 1:50m), what every map of a Spanish city or of the listings shows, and each province's outline with
 *   its name (drawn only around one city: the model page's area map);
 * - `world`: every country (Natural Earth 1:110m) with its ISO 3166-1 alpha-2 code, fetched only when a map is about
 *   another country (the profile form's location step).
 * The Vite plugin (baseMapPlugin) writes both as content-hashed JSON under /assets, and gives their URLs to the
 * browser's code as the constant __BASE_MAP__ (src/components/map/base-layers.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Feature, MultiLineString, MultiPolygon, Polygon, Position } from 'geojson';
import { feature, merge, mesh } from 'topojson-client';
import type {
  GeometryCollection,
  GeometryObject,
  MultiPolygon as TopoMultiPolygon,
  Polygon as TopoPolygon,
  Topology,
} from 'topojson-specification';
import type { Plugin } from 'vite';
import type { BaseMap, BaseMapProperties } from '../src/components/map/base-layers.ts';

const require = createRequire(import.meta.url);
const readTopology = <T extends Topology>(specifier: string): T => JSON.parse(fs.readFileSync(require.resolve(specifier), 'utf8')) as T;

/** The part of the world the Spanish map covers: the Peninsula, the Balearic and Canary Islands, Ceuta and Melilla. */
const SPAIN_REGION = { west: -20, south: 25.5, east: 7, north: 46 } as const;
/** Spain in ISO 3166-1 numeric (world-atlas's ids); drawn from es-atlas instead. */
const SPAIN_NUMERIC = '724';

/**
 * Decimals kept: 3 (about 100 m) for Spain, whose source is quantised to about 200 m anyway; 2 (about 1 km) for the
 * countries, drawn only as a background at low zooms.
 */
const round = (decimals: number) => {
  const f = 10 ** decimals;
  return (p: Position): Position => [Math.round(p[0]! * f) / f, Math.round(p[1]! * f) / f];
};

/** Rounds every point and drops those that became equal to the previous one; rings too small to see are dropped. */
function roundLine(line: Position[], r: (p: Position) => Position, ring: boolean): Position[] | null {
  const out: Position[] = [];
  for (const p of line) {
    const q = r(p);
    const last = out[out.length - 1];
    if (!last || last[0] !== q[0] || last[1] !== q[1]) out.push(q);
  }
  if (ring) {
    // A closed ring needs four points (three corners and the first again).
    if (out.length < 4) return null;
    const first = out[0]!;
    const last = out[out.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) out.push(first);
  }
  return out.length >= 2 ? out : null;
}

function roundPolygons(
  geometry: Polygon | MultiPolygon,
  r: (p: Position) => Position,
  keep: (ring: Position[]) => boolean = () => true,
): MultiPolygon | null {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const out: Position[][][] = [];
  for (const polygon of polygons) {
    if (!polygon[0] || !keep(polygon[0])) continue;
    const outer = roundLine(polygon[0], r, true);
    if (!outer) continue;
    const holes = polygon.slice(1).flatMap((h) => {
      const hole = roundLine(h, r, true);
      return hole ? [hole] : [];
    });
    out.push([outer, ...holes]);
  }
  return out.length ? { type: 'MultiPolygon', coordinates: out } : null;
}

const intersectsSpainRegion = (ring: Position[]): boolean => {
  let west = Infinity,
    east = -Infinity,
    south = Infinity,
    north = -Infinity;
  // A ring around the antimeridian (Russia's far east) spans the world: not a neighbour.
  for (const [x, y] of ring) {
    west = Math.min(west, x!);
    east = Math.max(east, x!);
    south = Math.min(south, y!);
    north = Math.max(north, y!);
  }
  if (east - west > 90) return false;
  return east >= SPAIN_REGION.west && west <= SPAIN_REGION.east && north >= SPAIN_REGION.south && south <= SPAIN_REGION.north;
};

/**
 * ISO 3166-1 numeric → alpha-2 for world-atlas's countries whose Natural Earth name is not the English name of the
 * reference data (countries.json); the rest are matched by name. Features without an id (Kosovo, N. Cyprus,
 * Somaliland…) keep iso2 null.
 */
const NUMERIC_TO_ISO2: Readonly<Record<string, string>> = {
  '028': 'AG',
  '036': 'AU',
  '070': 'BA',
  '086': 'IO',
  '092': 'VG',
  '104': 'MM',
  '132': 'CV',
  '136': 'KY',
  '140': 'CF',
  '178': 'CG',
  '180': 'CD',
  '184': 'CK',
  '214': 'DO',
  '226': 'GQ',
  '234': 'FO',
  '238': 'FK',
  '239': 'GS',
  '248': 'AX',
  '258': 'PF',
  '260': 'TF',
  '275': 'PS',
  '334': 'HM',
  '336': 'VA',
  '344': 'HK',
  '384': 'CI',
  '446': 'MO',
  '580': 'MP',
  '584': 'MH',
  '612': 'PN',
  '652': 'BL',
  '654': 'SH',
  '659': 'KN',
  '662': 'LC',
  '663': 'MF',
  '666': 'PM',
  '670': 'VC',
  '678': 'ST',
  '728': 'SS',
  '732': 'EH',
  '748': 'SZ',
  '780': 'TT',
  '792': 'TR',
  '796': 'TC',
  '807': 'MK',
  '840': 'US',
  '850': 'VI',
  '876': 'WF',
  '090': 'SB',
};

/** A world-atlas file: its countries, each with its ISO 3166-1 numeric id (some have none) and Natural Earth name. */
type CountryTopology = Topology<{ countries: GeometryCollection<{ name: string }> }>;

function iso2Resolver(): (id: string | undefined, name: string) => string | null {
  const countries = JSON.parse(fs.readFileSync(new URL('../server/db/seed/data/countries.json', import.meta.url), 'utf8')) as Array<{
    iso2: string;
    names: { en: string };
  }>;
  const byName = new Map(countries.map((c) => [c.names.en, c.iso2]));
  return (id, name) => (id && NUMERIC_TO_ISO2[id]) || byName.get(name) || null;
}

/** Spain (land, province lines) with its neighbours. */
export function buildSpainMap(): BaseMap {
  const es = readTopology<Topology<{ provinces: GeometryCollection<{ name: string }> }>>('es-atlas/es/provinces.json');
  const provinces = es.objects.provinces.geometries.filter(
    (g): g is TopoPolygon<{ name: string }> | TopoMultiPolygon<{ name: string }> => g.type === 'Polygon' || g.type === 'MultiPolygon',
  );
  const r3 = round(3);
  const land = roundPolygons(merge(es, provinces), r3);
  const lines = mesh(es, es.objects.provinces, (a: GeometryObject, b: GeometryObject) => a !== b);
  const provinceLines: MultiLineString = {
    type: 'MultiLineString',
    coordinates: lines.coordinates.flatMap((l) => {
      const line = roundLine(l, r3, false);
      return line ? [line] : [];
    }),
  };

  // Each province's own outline, with its name: a map of one city shows the province around it (the model page's
  // area map), drawn only there.
  const provinceShapes: Array<Feature<MultiPolygon, BaseMapProperties>> = [];
  for (const g of provinces) {
    const f = feature(es, g) as Feature<Polygon | MultiPolygon | null, { name: string }>;
    const geometry = f.geometry && roundPolygons(f.geometry, r3);
    if (geometry) provinceShapes.push({ type: 'Feature', properties: { kind: 'province', name: f.properties.name }, geometry });
  }

  const world = readTopology<CountryTopology>('world-atlas/countries-50m.json');
  const iso2Of = iso2Resolver();
  const r2 = round(2);
  const neighbours: Array<Feature<MultiPolygon, BaseMapProperties>> = [];
  for (const g of world.objects.countries.geometries) {
    if (g.id === SPAIN_NUMERIC) continue;
    const f = feature(world, g) as Feature<Polygon | MultiPolygon | null, { name: string }>;
    if (!f.geometry) continue;
    const geometry = roundPolygons(f.geometry, r2, intersectsSpainRegion);
    if (geometry)
      neighbours.push({
        type: 'Feature',
        properties: {
          kind: 'neighbour',
          iso2: iso2Of(g.id === undefined ? undefined : String(g.id), f.properties.name),
          name: f.properties.name,
        },
        geometry,
      });
  }
  if (!land) throw new Error('base map: es-atlas gave no land for Spain');
  return {
    type: 'FeatureCollection',
    features: [
      ...neighbours,
      { type: 'Feature', properties: { kind: 'land', iso2: 'ES' }, geometry: land },
      { type: 'Feature', properties: { kind: 'provinces' }, geometry: provinceLines },
      ...provinceShapes,
    ],
  };
}

/** Every country, coarse (1:110m), for a map about a country other than Spain. */
export function buildWorldMap(): BaseMap {
  const world = readTopology<CountryTopology>('world-atlas/countries-110m.json');
  const iso2Of = iso2Resolver();
  const r2 = round(2);
  const features: Array<Feature<MultiPolygon, BaseMapProperties>> = [];
  for (const g of world.objects.countries.geometries) {
    const f = feature(world, g) as Feature<Polygon | MultiPolygon | null, { name: string }>;
    if (!f.geometry) continue;
    const geometry = roundPolygons(f.geometry, r2);
    if (geometry)
      features.push({
        type: 'Feature',
        properties: {
          kind: 'country',
          iso2: iso2Of(g.id === undefined ? undefined : String(g.id), f.properties.name),
          name: f.properties.name,
        },
        geometry,
      });
  }
  return { type: 'FeatureCollection', features };
}

export interface BaseMapAsset {
  /** The file's name under the build's output folder, with a hash of its content. */
  fileName: string;
  source: string;
}

const asset = (name: string, map: BaseMap): BaseMapAsset => {
  const source = JSON.stringify(map);
  const hash = crypto.createHash('sha256').update(source).digest('base64url').slice(0, 10);
  return { fileName: `assets/base-map-${name}-${hash}.json`, source };
};

/** The files and the constant the browser reads their URLs from (`{ es, world }`, paths from the site's root). */
export function buildBaseMapAssets(): { es: BaseMapAsset; world: BaseMapAsset } {
  return { es: asset('es', buildSpainMap()), world: asset('world', buildWorldMap()) };
}

/**
 * Generates the base map once per build (or dev server), emits both files beside the app's assets (so they are
 * precompressed and precached like them: vite.config.ts) and defines __BASE_MAP__ with their URLs. The dev server
 * answers them from memory.
 */
export function baseMapPlugin(): Plugin {
  let assets: ReturnType<typeof buildBaseMapAssets> | undefined;
  const get = () => (assets ??= buildBaseMapAssets());
  return {
    name: 'vitrina-base-map',
    config() {
      const { es, world } = get();
      return { define: { __BASE_MAP__: JSON.stringify({ es: `/${es.fileName}`, world: `/${world.fileName}` }) } };
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = Object.values(get()).find((a) => req.url === `/${a.fileName}`);
        if (!file) return next();
        res.setHeader('Content-Type', 'application/json');
        res.end(file.source);
      });
    },
    generateBundle() {
      for (const { fileName, source } of Object.values(get())) this.emitFile({ type: 'asset', fileName, source });
    },
  };
}
