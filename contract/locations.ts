import { z } from 'zod';
import { idParam } from './params.ts';
import { localisedNameSchema } from './sections.ts';

/** Default map/location position of SPEC §3 (Oviedo). */
export const DEFAULT_POSITION = { latitude: 43.3603, longitude: -5.845 } as const;
/** The map default of SPEC §9 (Asturias): where a map of results starts before it is fitted to them. */
export const MAP_DEFAULT_POSITION = { latitude: 43.29588191, longitude: -6.22799901 } as const;

export const countrySchema = z.object({
  id: z.number().int(),
  iso2: z.string().length(2),
  name: z.string(),
  names: localisedNameSchema,
  phone_code: z.string(),
  has_states: z.boolean(),
});
export const stateSchema = z.object({
  id: z.number().int(),
  country_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
});
export const citySchema = z.object({
  id: z.number().int(),
  state_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
});
export type Country = z.infer<typeof countrySchema>;
export type State = z.infer<typeof stateSchema>;
export type City = z.infer<typeof citySchema>;

export const countryListSchema = z.object({ data: z.array(countrySchema) });
export const countryWithStatesSchema = z.object({ data: countrySchema.extend({ states: z.array(stateSchema) }) });
export const cityListSchema = z.object({ data: z.array(citySchema) });

/** Path ids are positive integers; anything else is a 404 (not a 500, not a 400 leak of internals). */
export const idParamsSchema = z.object({ id: idParam });

/** Type-ahead over every city (accent- and case-blind), for the listing's city picker. */
export const citySearchQuerySchema = z.object({ q: z.string().trim().min(1).max(60) }).strict();
export const cityOptionSchema = z.object({ id: z.number().int(), name: z.string(), state: z.string() });
export type CityOption = z.infer<typeof cityOptionSchema>;
export const cityOptionListSchema = z.object({ data: z.array(cityOptionSchema) });
export const cityOptionResponseSchema = z.object({ data: cityOptionSchema });
