/**
 * "Server time": from Fastify's onRequest hook to its onResponse hook (the answer handed to the socket), with
 * process.hrtime. The hook is added after buildApp has registered everything, so it runs after the app's own
 * onRequest hooks (language, XHR guard, session lookup when a cookie is sent): those few microseconds are not counted.
 */
import fs from 'node:fs';
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

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every usual Linux build). */
const USER_HZ = 100;

/** utime + stime (+ the reaped children's, when asked) of a /proc stat file, in ms; undefined off Linux. */
export function procCpuMs(statPath: string, withChildren = false): number | undefined {
  try {
    const stat = fs.readFileSync(statPath, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 (state) on.
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const ticks = f[11]! + f[12]! + (withChildren ? f[13]! + f[14]! : 0);
    return (ticks * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

/**
 * CPU time of this process's main thread: the server's event loop (and with PGlite the database too), not the load
 * generator's worker thread. On a shared machine this is steadier than req/s: it counts work done, not time waited.
 */
export const serverThreadCpuMs = () => procCpuMs(`/proc/self/task/${process.pid}/stat`);
