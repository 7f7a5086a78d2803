/** What the service worker keeps for offline use beyond the shell: reference data and translations. */
export const REFERENCE_CACHE = 'vitrina-reference-v1';

export const REFERENCE_URLS = [
  '/api/sections',
  '/api/getSections',
  '/api/countries',
  '/api/language/es',
  '/api/language/en',
  '/api/language/de',
  '/api/language/pt_BR',
];

const REFERENCE_PATTERNS = [
  /^\/api\/(sections|getSections|countries)$/,
  /^\/api\/language\/(es|en|de|pt_BR)$/,
  /^\/api\/country\/\d+$/,
  /^\/api\/cities\/\d+$/,
];

export function isReferenceRequest(url: URL): boolean {
  return REFERENCE_PATTERNS.some((re) => re.test(url.pathname));
}
