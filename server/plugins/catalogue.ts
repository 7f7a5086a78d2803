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
 *
 * With REDIS_URL (plugins/redis.ts) a change is also published on `{prefix}catalogue`; every other process empties
 * its caches and acknowledges, and the request answers once all have (or after ACK_WAIT_MS: a hung process must not
 * hold writes). Pub/sub alone would not do: the publisher's answer can overtake the message on its way to another
 * process, and a client reading there right away would still meet the old listing. Redis away: the change is local
 * only (the others' caches expire by their TTL), and on its return every process empties its caches once, for the
 * changes it could not hear about meanwhile.
 */
import type { FastifyRequest } from 'fastify';
import { API, API_PREFIX } from '#contract/routes.ts';
import fp from 'fastify-plugin';

export interface Catalogue {
  /** Bumped on every change; compare before caching something read before it. */
  readonly generation: number;
  /** Empties the caches here and, with Redis, in every other process (resolves once published). */
  changed(): Promise<void>;
  onChange(listener: () => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogue: Catalogue;
  }
}

/** The pub/sub channel (under REDIS_PREFIX): `{node} {sequence}`; acknowledgements go to `catalogue:ack:{node}`. */
const CHANNEL = 'catalogue';
const ackChannel = (node: string) => `${CHANNEL}:ack:${node}`;
/** The longest a write waits for the other processes' acknowledgements. */
export const ACK_WAIT_MS = 250;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes (as registered) whose success cannot change what visitors see listed. */
const UNRELATED = new Set([
  API.login,
  API.logout,
  API.register,
  API.userCreate,
  API.publicistCreate,
  API.forgotPassword,
  API.resetPassword,
  API.verifyEmail,
  API.sendVerification,
  API.confirmPassword,
  API.userPassword,
  API.userProfileInformation,
  API.adminCreate,
  API.contact,
  API.contactToAdmin,
  API.adminContactMessage(':id'),
  API.reports,
  API.statementAppeal(':id'),
  API.pageView,
  API.modelVerificationCode,
  API.consentCode,
  // Issue 28: a heart, a saved search or a contact tap changes no card (the counts the cards never show).
  API.favourite(':adId'),
  API.favouritesMerge,
  API.savedSearches,
  API.savedSearch(':id'),
  API.savedSearchUnsubscribe,
  API.savedSearchOneClick,
  API.adContactTap,
]);

export function affectsCatalogue(req: Pick<FastifyRequest, 'method' | 'routeOptions'>, statusCode: number): boolean {
  if (!STATE_CHANGING.has(req.method) || statusCode >= 400) return false;
  const url = req.routeOptions.url;
  return url !== undefined && url.startsWith(API_PREFIX) && !UNRELATED.has(url);
}

export default fp(
  async (app) => {
    const listeners: Array<() => void> = [];
    let generation = 0;
    const changedHere = () => {
      generation++;
      for (const listener of listeners) listener();
    };
    const redis = app.sharedRedis;
    const waiting = new Map<string, { acks: number; needed: number; done: () => void }>();
    let sequence = 0;
    if (redis) {
      redis.subscribe(CHANNEL, (message) => {
        const [origin, seq] = message.split(' ');
        if (!origin || !seq || origin === redis.node) return;
        changedHere();
        void redis.publish(ackChannel(origin), seq);
      });
      redis.subscribe(ackChannel(redis.node), (seq) => {
        const wait = waiting.get(seq);
        if (wait && ++wait.acks >= wait.needed) wait.done();
      });
      redis.onReconnect(changedHere);
    }
    /** Publishes the change and waits until every other subscribed process has emptied its caches. */
    const broadcast = async (shared: NonNullable<typeof redis>) => {
      const seq = String(++sequence);
      let timer: NodeJS.Timeout | undefined;
      const acked = new Promise<void>((resolve) => {
        waiting.set(seq, { acks: 0, needed: Number.POSITIVE_INFINITY, done: resolve });
        timer = setTimeout(resolve, ACK_WAIT_MS);
      });
      try {
        const receivers = await shared.publish(CHANNEL, `${shared.node} ${seq}`);
        const wait = waiting.get(seq)!;
        // Every receiver but this process (subscribed too) acknowledges.
        wait.needed = receivers === undefined ? 0 : receivers - 1;
        if (wait.acks >= wait.needed) wait.done();
        await acked;
      } finally {
        clearTimeout(timer);
        waiting.delete(seq);
      }
    };
    const catalogue: Catalogue = {
      get generation() {
        return generation;
      },
      async changed() {
        changedHere();
        if (redis?.up) await broadcast(redis);
      },
      onChange(listener) {
        listeners.push(listener);
      },
    };
    app.decorate('catalogue', catalogue);
    app.addHook('onSend', async (req, reply, payload) => {
      if (affectsCatalogue(req, reply.statusCode)) await catalogue.changed();
      return payload;
    });
  },
  { name: 'catalogue', dependencies: ['shared-redis'] },
);
