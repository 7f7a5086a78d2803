/**
 * "The public catalogue may have changed": the listings micro-cache and the photo-visibility cache subscribe, so a
 * decision, a withdrawn consent or a deactivated ad shows on the next request instead of after the caches' TTL.
 *
 * Fired for every successful state-changing /api call except the few that cannot touch what is listed (sign-in,
 * mail links, notices, contact, analytics…). A deny list rather than an allow list: a write route added later
 * invalidates by default, which costs a cache miss at worst, never a stale listing.
 *
 * Fired in onSend, before the answer leaves: a client that reads the catalogue right after its write never meets a
 * stale copy. A listing query that was already running when the change committed could still store its older answer;
 * `generation` lets the cache refuse it (read before the query, compare before storing).
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export interface Catalogue {
  /** Bumped on every change; compare before caching something read before it. */
  readonly generation: number;
  changed(): void;
  onChange(listener: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogue: Catalogue;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes (as registered) whose success cannot change what visitors see listed. */
const UNRELATED = new Set([
  '/api/login',
  '/api/logout',
  '/api/register',
  '/api/user/create',
  '/api/publicist/create',
  '/api/forgot-password',
  '/api/reset-password',
  '/api/verify-email',
  '/api/verification/send',
  '/api/user/confirm-password',
  '/api/user/password',
  '/api/user/profile-information',
  '/api/admin/create',
  '/api/contact',
  '/api/contact/sendMessageToAdmin',
  '/api/admin/contact-messages/:id',
  '/api/reports',
  '/api/statements/:id/appeal',
  '/api/analytics/pageview',
  '/api/profile/model/verification/code',
  '/api/consent/code',
]);

export function affectsCatalogue(req: Pick<FastifyRequest, 'method' | 'routeOptions'>, statusCode: number): boolean {
  if (!STATE_CHANGING.has(req.method) || statusCode >= 400) return false;
  const url = req.routeOptions.url;
  return url !== undefined && url.startsWith('/api/') && !UNRELATED.has(url);
}

export default fp(
  async (app) => {
    const listeners: Array<() => void> = [];
    let generation = 0;
    const catalogue: Catalogue = {
      get generation() {
        return generation;
      },
      changed() {
        generation++;
        for (const listener of listeners) listener();
      },
      onChange(listener) {
        listeners.push(listener);
      },
    };
    app.decorate('catalogue', catalogue);
    app.addHook('onSend', async (req, reply, payload) => {
      if (affectsCatalogue(req, reply.statusCode)) catalogue.changed();
      return payload;
    });
  },
  { name: 'catalogue' },
);
