/**
 * The one way the PWA talks to /api: same-origin cookies, `X-Requested-With`, the CSRF token echoed from
 * the XSRF-TOKEN cookie on state-changing calls (fetched once when missing, refreshed once on 419), the
 * current language, and typed errors the screens can tell apart.
 */
import type { Answer } from '#contract/answers.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly data: Answer | undefined,
  ) {
    super(data?.message ?? `HTTP ${status}`);
  }
  get code(): string | undefined {
    return this.data?.error;
  }
}
/** The request never reached the server (offline, DNS, reset). */
export class OfflineError extends Error {
  constructor(cause?: unknown) {
    super('offline', { cause });
  }
}
export class ValidationError extends ApiError {}
export class ConflictError extends ApiError {}

const suspendedListeners = new Set<() => void>();
/**
 * Called whenever the server answers 403 `account_suspended`: the account was suspended while this page was open
 * (issue 24 point 11), so the shell fetches the user again and the restricted view replaces the page at once.
 */
export function onAccountSuspended(listener: () => void): () => void {
  suspendedListeners.add(listener);
  return () => suspendedListeners.delete(listener);
}

let currentLanguage = 'es';
export function setApiLanguage(lng: string) {
  currentLanguage = lng;
}
let socketId: string | undefined;
/**
 * The realtime connection's socket id, sent as `X-Socket-ID` on every request while connected, so that the server
 * leaves this tab out of the broadcasts the request causes (`toOthers`). Echo only does this for axios/jQuery.
 */
export function setSocketId(id: string | undefined) {
  socketId = id;
}

/** The language sent as `X-Locale` (for requests made outside apiRequest, e.g. uploads with progress). */
export function apiLanguage(): string {
  return currentLanguage;
}

function readCookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

/** The CSRF token to echo as `X-XSRF-TOKEN`: the XSRF-TOKEN cookie, fetched first when missing (or with `force`). */
export async function ensureCsrfToken(force = false): Promise<string | undefined> {
  if (!force) {
    const existing = readCookie('XSRF-TOKEN');
    if (existing) return existing;
  }
  await fetch('/sanctum/csrf-cookie', { credentials: 'same-origin', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  return readCookie('XSRF-TOKEN');
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function apiRequest<T = unknown>(path: string, opts: RequestOptions = {}, retried = false): Promise<ApiResponse<T>> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
    'X-Locale': currentLanguage,
  };
  if (socketId) headers['X-Socket-ID'] = socketId;
  // FormData and URLSearchParams (the broadcasting auth's form-encoded bodies) go as they are: fetch sets their type.
  const isForm =
    (typeof FormData !== 'undefined' && opts.body instanceof FormData) ||
    (typeof URLSearchParams !== 'undefined' && opts.body instanceof URLSearchParams);
  if (opts.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const token = await ensureCsrfToken().catch(() => undefined);
    if (token) headers['X-XSRF-TOKEN'] = token;
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.body === undefined ? undefined : isForm ? (opts.body as FormData | URLSearchParams) : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new OfflineError(err);
  }
  const data = (await parseBody(res)) as T;
  if (res.status === 419 && !retried) {
    await ensureCsrfToken(true).catch(() => undefined);
    return apiRequest<T>(path, opts, true);
  }
  if (res.status === 403 && (data as Answer | undefined)?.error === 'account_suspended') suspendedListeners.forEach((l) => l());
  if (!res.ok) throw apiErrorFor(res.status, data as Answer | undefined);
  return { status: res.status, data };
}

/** The typed error for a failed answer: 422 → ValidationError, 409 → ConflictError, else ApiError. */
export function apiErrorFor(status: number, answer: Answer | undefined): ApiError {
  if (status === 422) return new ValidationError(status, answer);
  if (status === 409) return new ConflictError(status, answer);
  return new ApiError(status, answer);
}

export async function apiGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await apiRequest<T>(path, { signal })).data;
}
