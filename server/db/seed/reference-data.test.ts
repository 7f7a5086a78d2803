import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

type Names = { es: string; en: string; de: string; pt_BR: string };
interface CountryRow {
  iso2: string;
  phone_code: string;
  names: Names;
}
interface StateRow {
  code: string;
  name: string;
  latitude: number;
  longitude: number;
}
interface CityRow {
  ine: string;
  state: string;
  name: string;
  latitude: number;
  longitude: number;
  population: number;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as T;
}

const countries = readJson<CountryRow[]>('countries.json');
const states = readJson<StateRow[]>('es-states.json');
const cities = readJson<CityRow[]>('es-cities.json');

/** Spain's bounding box, Canary Islands, Ceuta and Melilla included. */
const inSpain = (p: { latitude: number; longitude: number }): boolean =>
  p.latitude >= 27 && p.latitude <= 44.5 && p.longitude >= -18.5 && p.longitude <= 4.6;

describe('countries.json', () => {
  it('has unique ISO 3166-1 alpha-2 codes and calling codes', () => {
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(new Set(countries.map((c) => c.iso2)).size).toBe(countries.length);
    for (const c of countries) {
      expect(c.iso2).toMatch(/^[A-Z]{2}$/);
      expect(c.phone_code).toMatch(/^\d{1,4}$/);
    }
  });

  it('names every country in es, en, de and pt_BR', () => {
    for (const c of countries) {
      for (const lang of ['es', 'en', 'de', 'pt_BR'] as const) expect(c.names[lang], `${c.iso2}.${lang}`).toMatch(/\S/);
    }
  });

  it('puts Spain first', () => {
    expect(countries[0]).toEqual({
      iso2: 'ES',
      phone_code: '34',
      names: { es: 'España', en: 'Spain', de: 'Spanien', pt_BR: 'Espanha' },
    });
  });
});

describe('es-states.json', () => {
  it('has the 52 provinces and autonomous cities, codes 01..52', () => {
    expect(states).toHaveLength(52);
    const codes = states.map((s) => s.code).sort();
    expect(codes).toEqual(Array.from({ length: 52 }, (_, i) => String(i + 1).padStart(2, '0')));
    expect(states.find((s) => s.code === '33')?.name).toBe('Asturias');
  });

  it('is sorted by Spanish name and located in Spain', () => {
    const names = states.map((s) => s.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
    for (const s of states) expect(inSpain(s), `${s.code} ${s.name}`).toBe(true);
  });
});

describe('es-cities.json', () => {
  it('has unique codes: INE codes that start with their state, or GeoNames ids for places filed under a neighbour', () => {
    expect(new Set(cities.map((c) => c.ine)).size).toBe(cities.length);
    const stateCodes = new Set(states.map((s) => s.code));
    for (const c of cities) {
      expect(c.ine).toMatch(/^(\d{5}|g\d+)$/);
      if (!c.ine.startsWith('g')) expect(c.ine.slice(0, 2)).toBe(c.state);
      expect(stateCodes.has(c.state), `${c.ine} ${c.name}`).toBe(true);
    }
  });

  it('has at least one city in every state', () => {
    const withCities = new Set(cities.map((c) => c.state));
    for (const s of states) expect(withCities.has(s.code), `${s.code} ${s.name}`).toBe(true);
    expect(cities.find((c) => c.ine === '51001')?.name).toBe('Ceuta');
    expect(cities.find((c) => c.ine === '52001')?.name).toBe('Melilla');
  });

  it("has the big municipalities GeoNames files under a neighbour's code", () => {
    const names = new Set(cities.map((c) => c.name));
    for (const name of ['Cornellà de Llobregat', 'El Ejido', 'Manresa', 'Vila-real', 'Viladecans'])
      expect(names.has(name), name).toBe(true);
  });

  it('has Oviedo, Gijón and Avilés in Asturias', () => {
    const asturias = cities.filter((c) => c.state === '33');
    const oviedo = asturias.find((c) => c.name === 'Oviedo');
    expect(oviedo?.ine).toBe('33044');
    expect(Math.abs((oviedo?.latitude ?? 0) - 43.3603)).toBeLessThanOrEqual(0.01);
    expect(Math.abs((oviedo?.longitude ?? 0) + 5.845)).toBeLessThanOrEqual(0.01);
    expect(asturias.map((c) => c.name)).toEqual(expect.arrayContaining(['Gijón', 'Avilés']));
  });

  it('only has municipalities of at least 1,000 inhabitants, located in Spain', () => {
    for (const c of cities) {
      expect(c.population, `${c.ine} ${c.name}`).toBeGreaterThanOrEqual(1000);
      expect(inSpain(c), `${c.ine} ${c.name}`).toBe(true);
      expect(c.name.trim()).toBe(c.name);
      expect(c.name).not.toBe('');
    }
  });
});
