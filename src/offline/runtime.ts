/**
 * The page's side of the outbox: when to replay and what to do with the outcomes.
 *
 * Triggers: start (and sign-in: ops stopped for the session go again), the `online` event, the tab becoming
 * visible, a queued op, and a timer set to the earliest back-off. Where the browser has Background Sync, each
 * enqueue also registers the `vitrina-outbox` sync, so the service worker replays (same code, same lock) even with
 * the tab closed. Outcomes from any tab or the worker arrive on the BroadcastChannel: done ops invalidate the
 * queries they name; 'auth' raises the sign-in notice (useOutboxState().needsSignIn).
 *
 * Multipart ops go through XMLHttpRequest here so uploads report progress (`progress` events); the worker uses fetch.
 */
import type { QueryClient } from '@tanstack/react-query';
import { apiLanguage, ensureCsrfToken } from '#src/lib/api-client.ts';
import { clearOutboxAuthFlag, setOutboxAuthFlag } from './auth-flag.ts';
import { outboxDb } from './outbox-db.ts';
import { broadcast, onLocalEvent, resumeAuth } from './outbox.ts';
import { buildFormData, replayWithLock, type ReplaySummary, type SendResult } from './replay.ts';
import { OUTBOX_CHANNEL, OUTBOX_SYNC_TAG, type OutboxEvent, type OutboxOp } from './types.ts';

export interface OutboxState {
  online: boolean;
  syncing: boolean;
  /** The last replay stopped on an expired session: ask the user to sign in again. */
  needsSignIn: boolean;
}

let state: OutboxState = { online: typeof navigator === 'undefined' ? true : navigator.onLine, syncing: false, needsSignIn: false };
const stateListeners = new Set<() => void>();
function setState(patch: Partial<OutboxState>) {
  const next = { ...state, ...patch };
  if (next.online === state.online && next.syncing === state.syncing && next.needsSignIn === state.needsSignIn) return;
  state = next;
  for (const l of stateListeners) l();
}
export const getOutboxState = () => state;
export function subscribeOutboxState(l: () => void) {
  stateListeners.add(l);
  return () => stateListeners.delete(l);
}

const eventListeners = new Set<(e: OutboxEvent) => void>();
/** Every outcome, from this tab, the others and the worker (for features that show progress or the result in place). */
export function onOutboxEvent(l: (e: OutboxEvent) => void) {
  eventListeners.add(l);
  return () => eventListeners.delete(l);
}

function xhrSendParts(op: OutboxOp, headers: Record<string, string>): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(op.method, op.path);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => broadcast({ type: 'progress', id: op.id, loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        data = undefined;
      }
      resolve({ status: xhr.status, data, retryAfter: xhr.getResponseHeader('retry-after') });
    };
    xhr.onerror = () => reject(new TypeError('Failed to send'));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = xhr.onerror;
    xhr.send(buildFormData(op));
  });
}

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/** Asks the service worker to replay when the connection is back, where Background Sync exists (Chromium). */
export async function registerBackgroundSync() {
  try {
    const reg: (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined = await navigator.serviceWorker?.getRegistration();
    await reg?.sync?.register(OUTBOX_SYNC_TAG);
  } catch {
    // Not offered, or refused (permission): the page's own triggers remain.
  }
}

interface Running {
  userId: number;
  stop: () => void;
  run: () => void;
}
let running: Running | undefined;

/** Starts replaying `userId`'s queue in this tab (idempotent; another user stops the previous one). */
export function startOutbox(opts: { userId: number; queryClient: QueryClient }): () => void {
  if (running?.userId === opts.userId) return running.stop;
  running?.stop();
  const { userId, queryClient } = opts;
  let stopped = false;
  let inFlight = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = (summary: ReplaySummary) => {
    clearTimeout(timer);
    if (summary.nextAttemptAt !== undefined && summary.nextAttemptAt !== Infinity) {
      timer = setTimeout(run, Math.max(0, summary.nextAttemptAt - Date.now()) + 50);
    }
  };

  function run() {
    if (stopped) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    setState({ syncing: true });
    replayWithLock({ userId, csrfToken: ensureCsrfToken, language: apiLanguage(), sendParts: xhrSendParts })
      .then((summary) => {
        if (summary.stopped === 'auth') {
          setOutboxAuthFlag(userId);
          setState({ needsSignIn: true });
        }
        if (summary.stopped === 'offline') void registerBackgroundSync();
        schedule(summary);
      })
      .catch(() => {
        // The database itself failed (private mode, eviction): nothing to replay from; try again on the next trigger.
      })
      .finally(() => {
        inFlight = false;
        setState({ syncing: false });
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  }

  const onEvent = (e: OutboxEvent) => {
    if (e.type === 'done' && e.op.userId === userId) {
      // Inactive queries too: the persisted copy of a list not on screen must not bring the old state back after a reload.
      for (const key of e.op.invalidate ?? []) void queryClient.invalidateQueries({ queryKey: key, refetchType: 'all' });
    }
    if (e.type === 'auth') setState({ needsSignIn: true });
    // A new op queued here or in another tab: send it now if we can.
    if (e.type === 'changed' && e.status === 'pending' && navigator.onLine) run();
    for (const l of eventListeners) l(e);
  };
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(OUTBOX_CHANNEL);
  const onMessage = (m: MessageEvent<OutboxEvent>) => onEvent(m.data);
  channel?.addEventListener('message', onMessage);
  const offLocal = onLocalEvent(onEvent);
  const onOnline = () => {
    setState({ online: true });
    run();
  };
  const onOffline = () => setState({ online: false });
  const onVisible = () => {
    if (document.visibilityState === 'visible') run();
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  document.addEventListener('visibilitychange', onVisible);

  // Signed in (again): what stopped for the expired session goes now.
  clearOutboxAuthFlag();
  setState({ needsSignIn: false, online: navigator.onLine });
  void resumeAuth(userId, outboxDb())
    .catch(() => 0)
    .then(run);

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    channel?.removeEventListener('message', onMessage);
    channel?.close();
    offLocal();
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisible);
    if (running?.stop === stop) running = undefined;
  };
  running = { userId, stop, run };
  return stop;
}

/** Replay now (the sync page's "retry all"). */
export function replayNow() {
  running?.run();
}
