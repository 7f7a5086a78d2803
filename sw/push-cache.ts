/**
 * What a push prefetches (issue 25): the answers the page a notification opens needs, fetched by the worker when the
 * push arrives, so that a tap opens that page even without a network. They are private answers: kept in their own
 * cache, never the public runtime caches, served only when the network fails, and removed when the user signs out
 * (src/lib/session.ts) or another user's push arrives.
 */
import { API, pathMatcher } from '../contract/routes.ts';

export const PUSH_CACHE = 'vitrina-push-v1';
/** The entry that says whose answers the cache holds. */
export const PUSH_CACHE_OWNER = '/__vitrina-push-owner';
/** At most this many answers are kept (the oldest go first). */
export const PUSH_CACHE_MAX_ENTRIES = 40;

const PREFETCH_PATTERNS = [
  pathMatcher(API.supportConversation(':id')),
  pathMatcher(API.supportMessages(':id')),
  pathMatcher(API.statement(':id')),
];

/** Same-origin API GETs a push may prefetch: the user's conversations, one with its messages, a statement of reasons. */
export function isPushPrefetchPath(pathname: string): boolean {
  return pathname === API.supportConversations || PREFETCH_PATTERNS.some((re) => re.test(pathname));
}
