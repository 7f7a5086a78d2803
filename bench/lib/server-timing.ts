/**
 * "Server time": from Fastify's onRequest hook to its onResponse hook (the answer handed to the socket), with
 * process.hrtime. The hook is added after buildApp has registered everything, so it runs after the app's own
 * onRequest hooks (language, XHR guard, session lookup when a cookie is sent): those few microseconds are not counted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface ServerTiming {
  /** Starts a new sample set (and forgets the previous one). */
  reset(): void;
  /** Durations in ms since the last reset. */
  samples(): number[];
}

export function installServerTiming(app: FastifyInstance): ServerTiming {
  const started = new WeakMap<FastifyRequest, bigint>();
  let samples: number[] = [];
  app.addHook('onRequest', (req, _reply, done) => {
    started.set(req, process.hrtime.bigint());
    done();
  });
  app.addHook('onResponse', (req, _reply, done) => {
    const start = started.get(req);
    if (start !== undefined) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    done();
  });
  return {
    reset() {
      samples = [];
    },
    samples: () => samples,
  };
}
