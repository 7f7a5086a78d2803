/**
 * The outbox's shapes, shared by the page, the service worker and the features that queue writes (no runtime code,
 * so importing it costs nothing in a bundle).
 */

/** What an operation does; the UI's wording and the cache updates hang on it. */
export type OpKind =
  | 'profile.update'
  | 'ad.activate'
  | 'publicist.model.update'
  | 'publicist.model.activate'
  | 'photo.upload'
  | 'photo.delete'
  | 'photo.cover'
  | 'chat.message'
  /** Opens the user's support conversation (a first message written offline waits for it with `after`). */
  | 'chat.open'
  /** Favourites (issue 28): one scope per user, so a heart flipped offline reaches the server in the order it was flipped. */
  | 'favourite.save'
  | 'favourite.remove'
  | 'saved_search.create'
  | 'saved_search.update'
  | 'saved_search.delete';

/**
 * - pending: waiting to be sent (`nextAttemptAt` says when at the earliest);
 * - sending: a replayer has it in flight (a crashed replayer's 'sending' op is taken up again on the next run);
 * - conflict: 409, the record changed on the server since `baseVersion` (`current` holds the server's record);
 * - invalid: 422, `error.errors` holds the server's translated field errors;
 * - auth: 401/419, the session is gone: the queue waits for the user to sign in again;
 * - failed: another refusal (403, 404…) that retrying will not change: the user discards or edits it.
 */
export type OpStatus = 'pending' | 'sending' | 'conflict' | 'invalid' | 'auth' | 'failed';

/** One field of a multipart request: text, or a file (the Blob is stored in IndexedDB as it is). */
export type OpPart = { name: string; value: string } | { name: string; blob: Blob; filename: string };

export interface OpError {
  status?: number;
  code?: string;
  /** The server's translated message. */
  message?: string;
  /** The server's translated field errors (422). */
  errors?: Record<string, string[]>;
  /** A photo the automated check refused: the token that asks a person to review it (issue 24 B7). */
  reviewToken?: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface OutboxOp {
  /** Client-made UUID, sent as the `Idempotency-Key`: a replay never applies the write twice. */
  id: string;
  /** Whose queue: ops of another user are never sent with the current session. */
  userId: number;
  /** The record the op touches (`ad:12`, `photos:ad:12`, `chat:5`): ops of one scope are sent in `seq` order. */
  scope: string;
  /** Global order of queueing. */
  seq: number;
  kind: OpKind;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** An /api path from contract/ (never built by hand in a feature). */
  path: string;
  /** JSON body, or… */
  body?: Json;
  /** …a multipart body. */
  parts?: OpPart[];
  /** For edits: the record version the user's change was based on. */
  baseVersion?: number;
  /** i18n key of a short description for the sync page ("Editar anuncio"), and its parameters. */
  label: string;
  labelParams?: Record<string, string | number>;
  /** A free, already-readable detail (the ad's title, the first words of a message). */
  summary?: string;
  /** Whatever the feature needs to show the op in place or edit it (its form values, a thumbnail Blob, an ad id…). */
  meta?: Record<string, unknown>;
  /** TanStack Query keys to invalidate when the op is done (JSON, so the worker's replays can name them too). */
  invalidate?: Json[][];
  /** GET path of the record's current state, fetched on a version conflict when the 409 does not carry it. */
  currentPath?: string;
  /**
   * An op that needs a value only an earlier op's answer has (the cover change of a photo still queued for upload
   * needs the media id the upload gets): `op` is that earlier op's id, `pick` the path to the value in its 2xx answer
   * (e.g. ['data', 'media', 0, 'media_id']). When `op` is done, replay writes the value into this op's `path` in place
   * of AFTER_TOKEN (and into `body` fields whose value is AFTER_TOKEN) and drops `after`, in the same transaction.
   * Put both ops in one scope so the earlier goes first; if `op` is discarded, this one fails instead of being sent.
   */
  after?: { op: string; pick: (string | number)[] };
  status: OpStatus;
  attempts: number;
  /** Epoch ms: not sent before. */
  nextAttemptAt: number;
  error?: OpError;
  /** On conflict: the server's current record, for the side-by-side view. */
  current?: unknown;
  createdAt: number;
  updatedAt: number;
}

/** What a feature gives `enqueue`; the outbox fills in the rest. */
export type NewOp = Pick<OutboxOp, 'userId' | 'scope' | 'kind' | 'method' | 'path' | 'label'> &
  Partial<
    Pick<OutboxOp, 'id' | 'body' | 'parts' | 'baseVersion' | 'labelParams' | 'summary' | 'meta' | 'invalidate' | 'currentPath' | 'after'>
  >;

/** Stands in an op's path (or a body field) for the value its `after` op's answer gives. */
export const AFTER_TOKEN = '{after}';

/** What replay tells every tab (BroadcastChannel) about an op it handled. */
export type OutboxEvent =
  | { type: 'done'; op: Pick<OutboxOp, 'id' | 'kind' | 'scope' | 'meta' | 'invalidate' | 'userId'>; status: number; data: unknown }
  | { type: 'changed'; id: string; status: OpStatus }
  | { type: 'progress'; id: string; loaded: number; total: number }
  | { type: 'auth' };

export const OUTBOX_CHANNEL = 'vitrina-outbox';
export const OUTBOX_LOCK = 'vitrina-outbox';
/** The Background Sync tag the page registers and the worker answers. */
export const OUTBOX_SYNC_TAG = 'vitrina-outbox';
