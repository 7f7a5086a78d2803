/**
 * Load with autocannon's programmatic API. The load generator runs in a worker thread (`workers: 1`), so it does not
 * share the event loop of the server under test (which lives in this process); it does share the machine's cores.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  /** Average requests per second over the run. */
  rps: number;
  /** Client-side latency in ms, as autocannon measures it (connect excluded, queueing included). */
  latency: { p50: number; p90: number; p97_5: number; p99: number; max: number; mean: number };
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
}

export interface LoadOptions {
  origin: string;
  /** One path, or several that every connection cycles through in order. */
  paths: readonly string[];
  connections: number;
  /** Seconds (ignored when `amount` is set). */
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const [first] = o.paths;
  if (!first) throw new Error('runLoad: no path');
  const r = await autocannon({
    url: o.paths.length === 1 ? `${o.origin}${first}` : o.origin,
    connections: o.connections,
    workers: 1,
    timeout: 30,
    headers: o.headers ?? {},
    ...(o.amount ? { amount: o.amount } : { duration: o.duration ?? 10 }),
    ...(o.paths.length > 1 ? { requests: o.paths.map((path) => ({ method: 'GET', path })) } : {}),
  });
  return {
    rps: r.requests.average,
    latency: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      max: r.latency.max,
      mean: r.latency.mean,
    },
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: r.duration,
  };
}
