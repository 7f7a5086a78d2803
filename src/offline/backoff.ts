/**
 * Exponential back-off with "full jitter" (a random wait between 0 and the exponential cap): many phones coming back
 * online at once do not all retry in the same second. No library in package.json does this for fetch; it is 3 lines.
 */
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** The wait before attempt `attempts + 1` (attempts ≥ 1 made), in ms; at least one second. */
export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.max(1_000, Math.round(random() * cap));
}

/** A server's `Retry-After` (seconds or an HTTP date) in ms, when it gives one. */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
