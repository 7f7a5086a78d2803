/// <reference lib="webworker" />
/**
 * Background Sync for the outbox (issue 15): the page registers the `vitrina-outbox` sync when it queues a write or a
 * replay stops for want of network; the browser wakes this worker when the connection is back — even with every tab
 * closed — and the worker sends the queue with the page's own code (src/offline/replay.ts, same Web Lock, outcomes on
 * the same BroadcastChannel, so open tabs update their caches).
 *
 * Whose queue: the worker asks the server who the session belongs to (GET /api/session) and sends only that user's
 * ops. CSRF: the worker has no document.cookie; Chromium, the only engine with Background Sync, gives workers the
 * Cookie Store API, so the XSRF-TOKEN cookie is read there (fetched first when missing). Without it the worker leaves
 * the queue to the page (its next start, `online` or visibility). A run that could not finish rejects, so the browser
 * tries the sync again later with its own back-off.
 */
import { API } from '../contract/routes.ts';
import { replayWithLock } from '../src/offline/replay.ts';
import { OUTBOX_SYNC_TAG } from '../src/offline/types.ts';

declare const self: ServiceWorkerGlobalScope;

interface SyncEventLike extends ExtendableEvent {
  readonly tag: string;
}
interface CookieStoreLike {
  get(name: string): Promise<{ value: string } | null | undefined>;
}

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function readToken(store: CookieStoreLike, force: boolean): Promise<string | undefined> {
  if (!force) {
    const existing = await store.get('XSRF-TOKEN');
    if (existing?.value) return decodeURIComponent(existing.value);
  }
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: XHR });
  const fresh = await store.get('XSRF-TOKEN');
  return fresh?.value ? decodeURIComponent(fresh.value) : undefined;
}

export async function replayFromWorker(): Promise<void> {
  const store = (self as unknown as { cookieStore?: CookieStoreLike }).cookieStore;
  if (!store) return;
  const res = await fetch(API.session, { credentials: 'same-origin', headers: XHR });
  if (!res.ok) throw new Error(`session ${res.status}`);
  const user = ((await res.json()) as { data?: { id?: number } | null }).data;
  if (typeof user?.id !== 'number') return; // signed out: the queue waits for its user
  const summary = await replayWithLock({ userId: user.id, csrfToken: (force) => readToken(store, force === true) });
  if (summary.stopped === 'offline' || summary.nextAttemptAt !== undefined) throw new Error('outbox: not everything was sent');
}

self.addEventListener('sync', (event) => {
  const e = event as SyncEventLike;
  if (e.tag === OUTBOX_SYNC_TAG) e.waitUntil(replayFromWorker());
});
