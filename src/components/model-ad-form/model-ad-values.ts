/**
 * The model with its ad as the form holds it, one shape for the model's own profile and the publicist's managed
 * model (which adds the contact the consent request goes to), so both screens read and fill the same fields.
 */
import { MIN_AGE } from '#contract/profiles.ts';
import type { SectionSlug } from '#contract/section-slugs.ts';

/** What the inputs hold: strings and nullable ids, parsed by the contract's schemas on "Next" or on submit. */
export interface ModelAdValues {
  display_name: string;
  birth_date: string;
  phone_country: string;
  phone: string;
  whatsapp: boolean;
  country_id: number | null;
  state_id: number | null;
  city_id: number | null;
  section: SectionSlug | '';
  title: string;
  description: string;
}

/** A publicist's model also holds the contact its consent request goes to. */
export type ManagedModelValues = ModelAdValues & { contact_email: string };

export const EMPTY_MODEL_AD: ModelAdValues = {
  display_name: '',
  birth_date: '',
  phone_country: 'ES',
  phone: '',
  whatsapp: false,
  country_id: null,
  state_id: null,
  city_id: null,
  section: '',
  title: '',
  description: '',
};

/** The saved record's fields, as either side's answer carries them (the ad may be missing). */
interface SavedModelAd {
  display_name: string;
  birth_date: string | null;
  phone_country: string | null;
  phone: string | null;
  whatsapp: boolean;
  country_id: number | null;
  ad: { state_id: number | null; city_id: number | null; section: SectionSlug; title: string; description: string } | null;
}

export function modelAdValues(m: SavedModelAd): ModelAdValues {
  return {
    display_name: m.display_name,
    birth_date: m.birth_date ?? '',
    phone_country: m.phone_country ?? 'ES',
    phone: m.phone ?? '',
    whatsapp: m.whatsapp,
    country_id: m.country_id,
    state_id: m.ad?.state_id ?? null,
    city_id: m.ad?.city_id ?? null,
    section: m.ad?.section ?? '',
    title: m.ad?.title ?? '',
    description: m.ad?.description ?? '',
  };
}

/** The id of the country whose ISO code is `iso2` (the phone's country), else Spain's; null when neither is known. */
export function countryFor(countries: readonly { id: number; iso2: string }[], iso2: string): number | null {
  const find = (code: string) => countries.find((c) => c.iso2.toUpperCase() === code.toUpperCase())?.id;
  return find(iso2) ?? find('ES') ?? null;
}

/** The latest birth date that is 18 today, for the date picker's `max`. */
export function latestAdultBirthDate(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - MIN_AGE, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
}
