/**
 * What a suspended account may still do (issue 12 point 9, EU DSA arts. 17 and 20): sign in and out, read who it is,
 * read its statements of reasons and appeal them, take its data away or delete the account, and load the language
 * and reference data the restricted view needs. Everything else answers 403 `account_suspended` (session plugin),
 * so the rule lives here once instead of in each route. Entries are the route patterns Fastify matched.
 */
const ALLOWED = new Set([
  'GET /sanctum/csrf-cookie',
  'GET /api/health',
  'GET /api/config',
  'GET /api/language/:lng',
  'GET /api/countries',
  'GET /api/country/:id',
  'GET /api/cities/search',
  'GET /api/cities/:id',
  'GET /api/city/:id',
  'GET /api/sections',
  'GET /api/getSections',
  'POST /api/login',
  'POST /api/logout',
  'GET /api/user',
  'GET /api/session',
  'GET /api/statements',
  'GET /api/statements/:id',
  'POST /api/statements/:id/appeal',
  // Deleting one's own account asks for the password first.
  'POST /api/user/confirm-password',
  'GET /api/user/confirmed-password-status',
  'DELETE /api/profile/delete/:id',
]);

/** The data export (GDPR arts. 15, 20): asking for it, its state and the download. */
const ALLOWED_PREFIXES = ['/api/user/data-export'];

export function suspendedMayCall(method: string, route: string | undefined): boolean {
  // No route matched: the request ends in a 404 anyway.
  if (route === undefined) return true;
  const m = method === 'HEAD' ? 'GET' : method;
  if (ALLOWED.has(`${m} ${route}`)) return true;
  return (m === 'GET' || m === 'POST') && ALLOWED_PREFIXES.some((p) => route === p || route.startsWith(`${p}/`));
}
