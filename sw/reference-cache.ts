import { LANGUAGES } from '../contract/languages.ts';
import { API, pathMatcher } from '../contract/routes.ts';

/** What the service worker keeps for offline use beyond the shell: reference data and translations. */
export const REFERENCE_CACHE = 'vitrina-reference-v1';

export const REFERENCE_URLS = [API.sections, API.getSections, API.countries, ...LANGUAGES.map((lng) => API.language(lng))];

const REFERENCE_EXACT = new Set<string>(REFERENCE_URLS);
const REFERENCE_PATTERNS = [pathMatcher(API.country(':id')), pathMatcher(API.cities(':id'))];

export function isReferenceRequest(url: URL): boolean {
  return REFERENCE_EXACT.has(url.pathname) || REFERENCE_PATTERNS.some((re) => re.test(url.pathname));
}
