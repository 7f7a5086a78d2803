// @vitest-environment node
/**
 * The embedded base map generated at build time (issue 16 point 4): small, with Spain's land (Peninsula and islands),
 * its province lines and its neighbours; the world's countries keyed by ISO code for maps about another country.
 */
import zlib from 'node:zlib';
import type { MultiLineString, MultiPolygon, Position } from 'geojson';
import { beforeAll, describe, expect, it } from 'vitest';
import { provinceAt, type BaseMap } from '../src/components/map/base-layers.ts';
import { buildBaseMapAssets } from './base-map.ts';

let assets: ReturnType<typeof buildBaseMapAssets>;
let es: BaseMap;
let world: BaseMap;
beforeAll(() => {
  assets = buildBaseMapAssets();
  es = JSON.parse(assets.es.source) as BaseMap;
  world = JSON.parse(assets.world.source) as BaseMap;
});

/** Ray casting over every ring (holes count as outside). */
function inside(geometry: MultiPolygon, [lng, lat]: [number, number]): boolean {
  let hit = false;
  for (const polygon of geometry.coordinates)
    for (const ring of polygon)
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i] as [number, number];
        const [xj, yj] = ring[j] as [number, number];
        if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) hit = !hit;
      }
  return hit;
}

function crosses(a: Position, b: Position, c: Position, d: Position): boolean {
  const side = (p: Position, q: Position, r: Position) => Math.sign((q[0]! - p[0]!) * (r[1]! - p[1]!) - (q[1]! - p[1]!) * (r[0]! - p[0]!));
  return side(a, b, c) !== side(a, b, d) && side(c, d, a) !== side(c, d, b);
}

/** Whether the straight way between two places crosses a province line. */
function separated(lines: MultiLineString, from: [number, number], to: [number, number]): boolean {
  return lines.coordinates.some((line) => line.some((p, i) => i > 0 && crosses(from, to, line[i - 1]!, p)));
}

const land = (map: BaseMap) => map.features.find((f) => f.properties.kind === 'land')!.geometry as MultiPolygon;
const provinces = (map: BaseMap) => map.features.find((f) => f.properties.kind === 'provinces')!.geometry as MultiLineString;

// [lng, lat]
const MADRID: [number, number] = [-3.7038, 40.4168];
const TOLEDO: [number, number] = [-4.0273, 39.8628];
const OVIEDO: [number, number] = [-5.8448, 43.3603];
const GIJON: [number, number] = [-5.6615, 43.5322];
const LEON: [number, number] = [-5.5671, 42.5987];
const PALMA: [number, number] = [2.6502, 39.5696];
// Inland points, so the test does not depend on how a coastline is simplified.
const GRAN_CANARIA: [number, number] = [-15.6, 27.95];
const SANTA_CRUZ: [number, number] = [-16.2518, 28.4636];
const MELILLA: [number, number] = [-2.9381, 35.2923];
const EVORA: [number, number] = [-7.9097, 38.5714];
const BAY_OF_BISCAY: [number, number] = [-5, 44.5];

describe('the base map', () => {
  it('is small: Spain with its provinces and neighbours well under 150 KB gzipped, the world under 100 KB', () => {
    const gz = (s: string) => zlib.gzipSync(s, { level: 9 }).length;
    expect(gz(assets.es.source)).toBeLessThan(150 * 1024);
    expect(gz(assets.world.source)).toBeLessThan(100 * 1024);
  });

  it('is written under content-hashed names', () => {
    expect(assets.es.fileName).toMatch(/^assets\/base-map-es-[\w-]{10}\.json$/);
    expect(assets.world.fileName).toMatch(/^assets\/base-map-world-[\w-]{10}\.json$/);
    expect(buildBaseMapAssets().es.fileName).toBe(assets.es.fileName);
  });

  it('draws Spain: the Peninsula, the Balearic and Canary Islands and Melilla are land; the sea and Portugal are not', () => {
    const spain = land(es);
    for (const place of [MADRID, OVIEDO, PALMA, GRAN_CANARIA, SANTA_CRUZ, MELILLA]) expect(inside(spain, place)).toBe(true);
    expect(inside(spain, BAY_OF_BISCAY)).toBe(false);
    expect(inside(spain, EVORA)).toBe(false);
  });

  it('draws the province lines between provinces, and none inside one', () => {
    const lines = provinces(es);
    expect(separated(lines, MADRID, TOLEDO)).toBe(true);
    expect(separated(lines, OVIEDO, LEON)).toBe(true);
    expect(separated(lines, OVIEDO, GIJON)).toBe(false);
  });

  it('draws the neighbouring countries, and never Spain twice', () => {
    const neighbours = es.features.flatMap((f) => (f.properties.kind === 'neighbour' ? [f.properties.iso2] : []));
    expect(neighbours).toEqual(expect.arrayContaining(['PT', 'FR', 'AD', 'MA', 'DZ']));
    expect(neighbours).not.toContain('ES');
    const portugal = es.features.find((f) => f.properties.kind === 'neighbour' && f.properties.iso2 === 'PT')!;
    expect(inside(portugal.geometry as MultiPolygon, EVORA)).toBe(true);
  });

  it('knows the world’s countries by ISO code, once each', () => {
    const codes = world.features.flatMap((f) => (f.properties.kind === 'country' && f.properties.iso2 ? [f.properties.iso2] : []));
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThan(150);
    expect(codes).toEqual(expect.arrayContaining(['ES', 'PT', 'FR', 'US', 'BR', 'DE', 'TR', 'CD']));
    const spain = world.features.find((f) => f.properties.kind === 'country' && f.properties.iso2 === 'ES')!;
    expect(inside(spain.geometry as MultiPolygon, MADRID)).toBe(true);
  });
});

describe("the provinces' outlines (issue 24 D: the area map of one city)", () => {
  it('has every province with its name, and finds the one a city lies in', () => {
    const names = es.features.flatMap((f) => (f.properties.kind === 'province' ? [f.properties.name] : []));
    expect(names.length).toBeGreaterThanOrEqual(52);
    const cities: Array<[string, number, number]> = [
      ['Asturias', 43.36, -5.85], // Oviedo
      ['Asturias', 43.54, -5.66], // Gijón, on the coast
      ['Madrid', 40.42, -3.7],
      ['Barcelona', 41.39, 2.17],
      ['Illes Balears', 39.57, 2.65], // Palma
      ['Las Palmas', 28.1, -15.41],
      ['València/Valencia', 39.47, -0.38],
      ['Sevilla', 37.39, -5.98],
    ];
    for (const [province, lat, lng] of cities) expect(provinceAt(es, lat, lng)?.properties.name, `${lat},${lng}`).toBe(province);
    // Lisbon and the open sea are in no province.
    expect(provinceAt(es, 38.72, -9.14)).toBeUndefined();
    expect(provinceAt(es, 37, -12)).toBeUndefined();
  });
});
