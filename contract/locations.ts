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

/**
 * GET /api/cities/nearest: a point (the browser's position, or a spot clicked on the map) → the municipality whose
 * centre is nearest. Plain decimal degrees only (no exponents, no blanks that would read as 0).
 */
const coordinate = (limit: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/)
    .transform(Number)
    .pipe(z.number().min(-limit).max(limit));
export const nearestCityQuerySchema = z.object({ lat: coordinate(90), lng: coordinate(180) }).strict();
export type NearestCityQuery = z.input<typeof nearestCityQuerySchema>;
export const nearestCitySchema = z.object({
  data: z.object({
    country_id: z.number().int(),
    state_id: z.number().int(),
    state: z.string(),
    city_id: z.number().int(),
    city: z.string(),
    /** The municipality's centre (not the point asked about). */
    latitude: z.number(),
    longitude: z.number(),
  }),
});
export type NearestCity = z.infer<typeof nearestCitySchema>['data'];

/** The browser's position is cut to about 100 m before it leaves the device: enough to find the municipality. */
export const roundCoordinate = (value: number) => Math.round(value * 1000) / 1000;
