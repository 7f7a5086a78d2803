/** API paths, exactly as SPEC §7 names them (both spellings where it lists two). */
export const API = {
  sections: '/api/sections',
  getSections: '/api/getSections',
  countries: '/api/countries',
  country: (id: number | string) => `/api/country/${id}`,
  cities: (stateId: number | string) => `/api/cities/${stateId}`,
  language: (lng: string) => `/api/language/${lng}`,
  pageView: '/api/analytics/pageview',
  config: '/api/config',
  health: '/api/health',
} as const;
