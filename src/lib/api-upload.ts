/**
 * Multipart uploads with progress. fetch() reports no upload progress (request streams are not supported widely
 * enough), so this one call goes through XMLHttpRequest — with the same contract as api-client.ts: the
 * `X-Requested-With` header, the CSRF token echoed from the XSRF-TOKEN cookie (refreshed and retried once on 419),
 * the current language, and the same typed errors.
 */
import type { Answer } from '#contract/answers.ts';
import { apiErrorFor, apiLanguage, ensureCsrfToken, OfflineError, type ApiResponse } from './api-client.ts';

export interface UploadOptions {
  /** Bytes of the request body sent so far, and its total. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  idempotencyKey?: string;
  method?: 'POST' | 'PUT';
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function send(path: string, body: FormData, token: string | undefined, opts: UploadOptions): Promise<{ status: number; data: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(opts.method ?? 'POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Locale', apiLanguage());
    if (token) xhr.setRequestHeader('X-XSRF-TOKEN', token);
    if (opts.idempotencyKey) xhr.setRequestHeader('Idempotency-Key', opts.idempotencyKey);
    // No Content-Type: the browser writes the multipart boundary itself.
    if (opts.onProgress) {
      const report = opts.onProgress;
      xhr.upload.onprogress = (e) => report(e.loaded, e.lengthComputable ? e.total : 0);
    }
    const abort = () => xhr.abort();
    opts.signal?.addEventListener('abort', abort, { once: true });
    const done = () => opts.signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, data: parse(xhr.responseText) });
    };
    xhr.onerror = () => {
      done();
      reject(new OfflineError(new Error('upload failed')));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was aborted.', 'AbortError'));
    };
    xhr.send(body);
  });
}

/** Sends `body` to `path`; resolves with a 2xx answer, rejects with ApiError/ValidationError/OfflineError/AbortError. */
export async function apiUpload<T = unknown>(path: string, body: FormData, opts: UploadOptions = {}): Promise<ApiResponse<T>> {
  if (opts.signal?.aborted) throw new DOMException('The upload was aborted.', 'AbortError');
  let token = await ensureCsrfToken().catch(() => undefined);
  let res = await send(path, body, token, opts);
  if (res.status === 419) {
    token = await ensureCsrfToken(true).catch(() => undefined);
    res = await send(path, body, token, opts);
  }
  if (res.status === 0) throw new OfflineError(new Error('no answer'));
  if (res.status < 200 || res.status >= 300) throw apiErrorFor(res.status, res.data as Answer | undefined);
  return { status: res.status, data: res.data as T };
}
