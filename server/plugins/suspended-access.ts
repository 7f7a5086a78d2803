/**
 * What a suspended account may still do (issue 12 point 9, issue 24 point 11, EU DSA arts. 17 and 20): sign in and
 * out, read who it is, read its statements of reasons and appeal them, take its data away or delete the account,
 * write to support about it, and read what any visitor may read (the public catalogue, a model's page, the language
 * and reference data). Everything else answers 403 `account_suspended` (session plugin), so the rule lives here once
 * instead of in each route. Entries are the route patterns Fastify matched.
 */
import { API } from '#contract/routes.ts';

const ALLOWED = new Set([
  'GET /sanctum/csrf-cookie',
  `POST ${API.login}`,
  `POST ${API.logout}`,
  `GET ${API.user}`,
  `GET ${API.session}`,
  `GET ${API.statements}`,
  `GET ${API.statement(':id')}`,
  `POST ${API.statementAppeal(':id')}`,
  // Deleting one's own account asks for the password first.
  `POST ${API.confirmPassword}`,
  `GET ${API.confirmedPasswordStatus}`,
  `DELETE ${API.accountDelete(':id')}`,
  // The support chat, the user's side only (assigning, resolving and the staff lists are staff routes anyway): the
  // way to ask about the suspension. Its realtime channel stays closed (no /broadcasting/auth), so replies arrive by
  // the conversation's own refresh, and a suspended account cannot whisper into staff screens.
  `GET ${API.supportConversations}`,
  `POST ${API.supportConversations}`,
  `GET ${API.supportConversation(':id')}`,
  `GET ${API.supportMessages(':id')}`,
  `POST ${API.supportMessages(':id')}`,
  `POST ${API.supportRead(':id')}`,
  `GET ${API.supportStatus}`,
  `GET ${API.supportUnread}`,
  // A page view counts the visit (with consent), as for any visitor; it changes nothing of the account's.
  `POST ${API.pageView}`,
]);

/** The data export (GDPR arts. 15, 20): asking for it, its state and the download. */
const ALLOWED_PREFIXES = [API.dataExport];

/**
 * `isPublic`: the route asks for no sign-in (no `config.auth`). Its reads are open to any visitor, so a suspended
 * account keeps them (the home, a model's page, the maps, the sections); its writes (register, report, contact form)
 * are not, since the account could use them to act while suspended.
 */
export function suspendedMayCall(method: string, route: string | undefined, isPublic = false): boolean {
  // No route matched: the request ends in a 404 anyway.
  if (route === undefined) return true;
  const m = method === 'HEAD' ? 'GET' : method;
  if (m === 'GET' && isPublic) return true;
  if (ALLOWED.has(`${m} ${route}`)) return true;
  return (m === 'GET' || m === 'POST') && ALLOWED_PREFIXES.some((p) => route === p || route.startsWith(`${p}/`));
}
