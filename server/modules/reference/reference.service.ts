/**
 * Reference data as the routes answer it (reference.routes.ts stays parse → call → answer): names in the request's
 * language (`name`) and in all four (`names`); states and cities sorted by name as Spanish speakers expect.
 */
import type { Language } from '#contract/languages.ts';
import type { SectionSlug } from '#contract/sections.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import {
  findCityOption,
  findCountry,
  findState,
  listCities,
  listCountries,
  listSections,
  listStates,
  nearestCity,
} from './reference.repository.ts';

const collator = new Intl.Collator('es', { sensitivity: 'base' });

export async function sectionsFor(db: Db, lang: Language) {
  return (await listSections(db)).map((s) => ({
    id: s.id,
    slug: s.slug as SectionSlug,
    name: s.names[lang],
    names: s.names,
    color: s.color,
    position: s.position,
  }));
}

export async function countriesFor(db: Db, lang: Language) {
  return (await listCountries(db)).map((c) => ({
    id: c.id,
    iso2: c.iso2,
    name: c.names[lang],
    names: c.names,
    phone_code: c.phoneCode,
    has_states: c.hasStates,
  }));
}

/** A country with its states. */
export async function countryWithStates(db: Db, id: number, lang: Language) {
  const country = await findCountry(db, id);
  if (!country) throw notFound();
  const rows = await listStates(db, country.id);
  return {
    id: country.id,
    iso2: country.iso2,
    name: country.names[lang],
    names: country.names,
    phone_code: country.phoneCode,
    has_states: rows.length > 0,
    states: rows
      .map((s) => ({ id: s.id, country_id: s.countryId, code: s.code, name: s.name, latitude: s.latitude, longitude: s.longitude }))
      .sort((a, b) => collator.compare(a.name, b.name)),
  };
}

/** A state's cities. */
export async function citiesOf(db: Db, stateId: number) {
  const state = await findState(db, stateId);
  if (!state) throw notFound();
  return (await listCities(db, state.id))
    .map((c) => ({ id: c.id, state_id: c.stateId, code: c.code, name: c.name, latitude: c.latitude, longitude: c.longitude }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

export async function cityOption(db: Db, id: number) {
  const city = await findCityOption(db, id);
  if (!city) throw notFound();
  return city;
}

/** The municipality nearest to a point (404 with its own message when none is near enough). */
export async function nearestCityTo(db: Db, lat: number, lng: number) {
  const city = await nearestCity(db, lat, lng);
  if (!city) throw notFound('locationPicker.noneNearby');
  return {
    country_id: city.countryId,
    state_id: city.stateId,
    state: city.state,
    city_id: city.cityId,
    city: city.city,
    latitude: city.latitude,
    longitude: city.longitude,
  };
}
