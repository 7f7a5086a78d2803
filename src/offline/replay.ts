/**
 * Sends the outbox, used both by the page (runtime.ts) and by the service worker's Background Sync (sw/sw.ts): one
 * code, one lock (Web Locks `vitrina-outbox`), so two tabs and the worker never send the same op at once. Outcomes go
 * to every tab through the BroadcastChannel (the worker's replays included), which updates the query caches.
 *
 * Order: per scope, in `seq` order; a scope stops at its first op that is not done (waiting for back-off, a
 * conflict, a refusal), the other scopes go on. An op with `after` (added by the photos' outbox: a cover change of a
 * photo still queued for upload) waits for that op's answer, whose value replay writes into it (resolveAfter). Each request carries `Idempotency-Key` = the op's id, so a request
 * whose answer was lost is answered again by the server, never applied twice.
 *
 * Outcomes: 2xx → deleted, `done` broadcast (later edits of the same record based on the version we had are moved
 * to the version our own write made); 409 `idempotency_in_progress` → retried after back-off; other 409 → 'conflict'
 * with the server's current record (from the answer, else GET `currentPath`); 422 → 'invalid' with the server's
 * translated errors; 401, or 419 after one fresh CSRF token → 'auth' and the run stops (every request would fail);
 * 429/5xx/network → back-off with jitter (the run stops on a network error: the others would fail too); other 4xx →
 * 'failed'.
 *
 * CSRF in the worker: it cannot read document.cookie, but Chromium (the only engine with Background Sync) gives
 * workers the Cookie Store API, so `csrfToken` there reads `cookieStore.get('XSRF-TOKEN')` (sw/sw.ts). Where that
 * is missing the worker does not replay; the page does on its next start / `online` / visibility.
 */
import { backoffDelay, retryAfterMs } from './backoff.ts';
import { outboxDb, type OutboxDb } from './outbox-db.ts';
import { broadcast } from './outbox.ts';
import { AFTER_TOKEN, OUTBOX_LOCK, type OpError, type OutboxOp } from './types.ts';

export interface SendResult {
  status: number;
  data: unknown;
  retryAfter?: string | null;
}

export interface ReplayEnv {
  /** Whose ops to send: the signed-in user of this session (ops of others wait for them). */
  userId: number;
  /** The XSRF token to echo; `force` fetches a fresh one. */
  csrfToken: (force?: boolean) => Promise<string | undefined>;
  db?: OutboxDb;
  language?: string;
  socketId?: string;
  fetch?: typeof fetch;
  now?: () => number;
  random?: () => number;
  /** Sends a multipart op (the page uses XHR for upload progress); default fetch. Throws on network failure. */
  sendParts?: (op: OutboxOp, headers: Record<string, string>) => Promise<SendResult>;
  /** REPLAY_REQUEST_TIMEOUT_MS unless given (tests). */
  requestTimeoutMs?: number;
}

/**
 * A request of the replay (an op without files, or the CSRF token) that has not answered in this time counts as a
 * network failure: the op waits for its back-off. The replay holds the outbox's lock (shared with the worker and the
 * other tabs) while it waits, and a request stalled on a dead connection (patchy mobile data, or a network lost while
 * it was on its way) can hang for minutes: nothing else was sent meanwhile. Sending the op again is safe, as every op
 * carries its Idempotency-Key. Uploads are left out: on a slow connection a photo may take minutes to send.
 */
export const REPLAY_REQUEST_TIMEOUT_MS = 30_000;

export interface ReplaySummary {
  done: number;
  /** Why the run stopped early, if it did. */
  stopped?: 'offline' | 'auth';
  /** When the next op waiting for back-off may go (epoch ms), if any. */
  nextAttemptAt?: number;
  /** Ops still waiting to be sent (pending, for whatever reason). */
  pending: number;
  /** Ops the user has to look at (conflict, invalid, failed, auth). */
  attention: number;
}

class NetworkFailure extends Error {}

/** `promise`, or a NetworkFailure once `ms` have passed without it settling. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NetworkFailure('timeout')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function buildFormData(op: OutboxOp): FormData {
  const form = new FormData();
  for (const part of op.parts ?? []) {
    if ('blob' in part) form.append(part.name, part.blob, part.filename);
    else form.append(part.name, part.value);
  }
  return form;
}

async function send(op: OutboxOp, env: ReplayEnv, token: string | undefined): Promise<SendResult> {
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
    'Idempotency-Key': op.id,
  };
  if (env.language) headers['X-Locale'] = env.language;
  if (env.socketId) headers['X-Socket-ID'] = env.socketId;
  if (token) headers['X-XSRF-TOKEN'] = token;
  if (op.parts) {
    if (env.sendParts) return env.sendParts(op, headers);
  } else if (op.body !== undefined) headers['Content-Type'] = 'application/json';
  const doFetch = env.fetch ?? fetch;
  // Safari before 16 has no AbortSignal.timeout: there the request waits as it did (the token's deadline still holds).
  const timeout =
    op.parts || typeof AbortSignal.timeout !== 'function'
      ? undefined
      : AbortSignal.timeout(env.requestTimeoutMs ?? REPLAY_REQUEST_TIMEOUT_MS);
  let res: Response;
  let text: string;
  try {
    res = await doFetch(op.path, {
      method: op.method,
      headers,
      credentials: 'same-origin',
      body: op.parts ? buildFormData(op) : op.body === undefined ? undefined : JSON.stringify(op.body),
      ...(timeout ? { signal: timeout } : {}),
    });
    text = await res.text().catch((err: unknown) => {
      // The answer's status came; its body stalled past the deadline: sent again later (the key makes it once).
      if (timeout?.aborted) throw err;
      return '';
    });
  } catch (err) {
    throw new NetworkFailure('offline', { cause: err });
  }
  return { status: res.status, data: parse(text), retryAfter: res.headers.get('retry-after') };
}

function errorOf(status: number, data: unknown): OpError {
  const d = (data ?? {}) as {
    error?: string;
    message?: string;
    errors?: Record<string, string[]>;
    data?: { refused?: { review?: { token?: unknown } }[] };
  };
  // An automated refusal of a queued photo keeps its way forward: the review token (one photo per upload op).
  const token = d.data?.refused?.[0]?.review?.token;
  return { status, code: d.error, message: d.message, errors: d.errors, ...(typeof token === 'string' ? { reviewToken: token } : {}) };
}

async function fetchCurrent(op: OutboxOp, env: ReplayEnv): Promise<unknown> {
  if (!op.currentPath) return undefined;
  try {
    const res = await (env.fetch ?? fetch)(op.currentPath, {
      headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', ...(env.language ? { 'X-Locale': env.language } : {}) },
      credentials: 'same-origin',
    });
    if (!res.ok) return undefined;
    return ((await res.json()) as { data?: unknown }).data;
  } catch {
    return undefined;
  }
}

/** The record version in an answer's `data` (edits answer the saved record). */
function versionOf(data: unknown): number | undefined {
  const v = (data as { data?: { version?: unknown } } | undefined)?.data?.version;
  return typeof v === 'number' ? v : undefined;
}

/** The value at `pick` in an answer, if it is a string or a number. */
function pickValue(data: unknown, pick: readonly (string | number)[]): string | number | undefined {
  let v: unknown = data;
  for (const k of pick) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

/**
 * `done` answered: the ops that waited for a value of its answer (`after`) get it in their path and body. Call inside
 * the transaction that deletes `done`, so a crash leaves either both as they were or both updated.
 */
async function resolveAfter(db: OutboxDb, done: OutboxOp, data: unknown) {
  await db.ops
    .where('scope')
    .equals(done.scope)
    .filter((o) => o.after?.op === done.id)
    .modify((o) => {
      const value = pickValue(data, o.after!.pick);
      if (value === undefined) {
        o.status = 'failed';
        o.error = { code: 'after_missing' };
        return;
      }
      o.path = o.path.replace(AFTER_TOKEN, encodeURIComponent(String(value)));
      if (o.body && typeof o.body === 'object' && !Array.isArray(o.body)) {
        o.body = Object.fromEntries(Object.entries(o.body).map(([k, v]) => [k, v === AFTER_TOKEN ? value : v]));
      }
      delete o.after;
    });
}

/** One pass over the user's queue. Call it under the lock (replayWithLock) unless the caller is the only sender. */
export async function replayOnce(env: ReplayEnv): Promise<ReplaySummary> {
  const db = env.db ?? outboxDb();
  const now = env.now ?? Date.now;
  const blocked = new Set<string>();
  const summary: ReplaySummary = { done: 0, pending: 0, attention: 0 };
  let token: string | undefined;
  let tokenFetched = false;

  const ops = await db.ops.where('[userId+seq]').between([env.userId, -Infinity], [env.userId, Infinity]).toArray();
  for (const listed of ops) {
    if (summary.stopped || blocked.has(listed.scope)) continue;
    // Re-read: a tab may have discarded or edited it while earlier ops were sent.
    const op = await db.ops.get(listed.id);
    if (!op) continue;
    if (op.status !== 'pending' && op.status !== 'sending') {
      blocked.add(op.scope);
      continue;
    }
    if (op.nextAttemptAt > now()) {
      blocked.add(op.scope);
      continue;
    }
    if (op.after) {
      // Its value is still to come: the earlier op is not done yet, or it was discarded (then this cannot be sent).
      const gone = !(await db.ops.get(op.after.op));
      if (gone) {
        await db.ops.update(op.id, { status: 'failed', error: { code: 'after_discarded' }, updatedAt: now() });
        broadcast({ type: 'changed', id: op.id, status: 'failed' });
      }
      blocked.add(op.scope);
      continue;
    }
    await db.ops.update(op.id, { status: 'sending', attempts: op.attempts + 1, updatedAt: now() });
    broadcast({ type: 'changed', id: op.id, status: 'sending' });
    const attempts = op.attempts + 1;

    let result: SendResult;
    try {
      const deadline = env.requestTimeoutMs ?? REPLAY_REQUEST_TIMEOUT_MS;
      if (!tokenFetched) {
        token = await withDeadline(
          env.csrfToken().catch(() => undefined),
          deadline,
        );
        tokenFetched = true;
      }
      result = await send(op, env, token);
      if (result.status === 419) {
        token = await withDeadline(
          env.csrfToken(true).catch(() => undefined),
          deadline,
        );
        result = await send(op, env, token);
      }
    } catch (err) {
      if (!(err instanceof NetworkFailure) && !(err instanceof TypeError) && (err as Error).name !== 'OfflineError') throw err;
      await db.ops.update(op.id, { status: 'pending', nextAttemptAt: now() + backoffDelay(attempts, env.random), updatedAt: now() });
      broadcast({ type: 'changed', id: op.id, status: 'pending' });
      summary.stopped = 'offline';
      break;
    }

    const { status, data } = result;
    if (status >= 200 && status < 300) {
      await db.transaction('rw', db.ops, async () => {
        await db.ops.delete(op.id);
        await resolveAfter(db, op, data);
        // Our own write made a new version: later edits of the record that were based on the old one follow it.
        const made = versionOf(data);
        if (op.baseVersion !== undefined && made !== undefined) {
          await db.ops
            .where('scope')
            .equals(op.scope)
            .filter((o) => o.userId === op.userId && o.seq > op.seq && o.baseVersion === op.baseVersion)
            .modify((o) => {
              o.baseVersion = made;
              if (o.body && typeof o.body === 'object' && !Array.isArray(o.body) && 'version' in o.body)
                o.body = { ...o.body, version: made };
            });
        }
      });
      summary.done++;
      broadcast({
        type: 'done',
        op: { id: op.id, kind: op.kind, scope: op.scope, meta: op.meta, invalidate: op.invalidate, userId: op.userId },
        status,
        data,
      });
      continue;
    }

    const error = errorOf(status, data);
    let patch: Partial<OutboxOp>;
    if (status === 401 || status === 419) {
      patch = { status: 'auth', error };
      summary.stopped = 'auth';
    } else if (status === 409 && error.code === 'idempotency_in_progress') {
      patch = { status: 'pending', nextAttemptAt: now() + backoffDelay(attempts, env.random) };
    } else if (status === 409) {
      const fromAnswer = (data as { data?: { current?: unknown } } | undefined)?.data?.current;
      patch = { status: 'conflict', error, current: fromAnswer ?? (await fetchCurrent(op, env)) };
    } else if (status === 422) {
      patch = { status: 'invalid', error };
    } else if (status === 429 || status >= 500 || status === 0) {
      const wait = retryAfterMs(result.retryAfter, now());
      patch = { status: 'pending', error, nextAttemptAt: now() + Math.max(wait ?? 0, backoffDelay(attempts, env.random)) };
    } else {
      patch = { status: 'failed', error };
    }
    await db.ops.update(op.id, { ...patch, updatedAt: now() });
    broadcast({ type: 'changed', id: op.id, status: patch.status! });
    if (patch.status === 'auth') broadcast({ type: 'auth' });
    blocked.add(op.scope);
  }

  const left = await db.ops.where('[userId+seq]').between([env.userId, -Infinity], [env.userId, Infinity]).toArray();
  for (const op of left) {
    if (op.status === 'pending' || op.status === 'sending') {
      summary.pending++;
      if (op.nextAttemptAt > now()) summary.nextAttemptAt = Math.min(summary.nextAttemptAt ?? Infinity, op.nextAttemptAt);
    } else summary.attention++;
  }
  return summary;
}

/**
 * replayOnce under the cross-tab lock (the worker's too). Without Web Locks (old browsers) it runs unguarded: the
 * Idempotency-Key still keeps a double send from applying twice.
 */
export async function replayWithLock(env: ReplayEnv): Promise<ReplaySummary> {
  // The page's Navigator or the worker's WorkerNavigator: both have `locks` where the browser does.
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return replayOnce(env);
  return locks.request(OUTBOX_LOCK, () => replayOnce(env));
}
