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
  /** Who is signed in, if anyone: 200 `{ data: User | null }`, never 401, so a visitor's page logs no error (GET /api/user keeps its 401). */
  session: '/api/session',
  /** POST asks for an archive of the user's data, GET answers its state (contract/data-rights.ts). */
  dataExport: '/api/user/data-export',
  /** The download: signed, expiring, and only for its owner's session. Ends in .zip so no navigation fallback takes it. */
  dataExportDownload: (id: number | string, expires: number | string, signature: string) =>
    `/data-export/${id}/${expires}/${signature}.zip`,
} as const;
