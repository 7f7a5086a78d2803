/**
 * The request id on every log line of a request: the ones written through `req.log` and the ones a service writes
 * through `app.log` while the request is handled (after awaits, timers, a body being read), once per line; and none
 * on lines written outside any request. The logger is the one app.ts builds (loggerOptions), writing to a buffer.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loggerOptions, requestLog } from './request-log.ts';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>>; raw: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const raw = () =>
    chunks
      .join('')
      .split('\n')
      .filter((l) => l.trim() !== '');
  return { stream, raw, lines: () => raw().map((l) => JSON.parse(l) as Record<string, unknown>) };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(out: Writable): Promise<FastifyInstance> {
  const opts = loggerOptions({ env: 'production', logLevel: 'info' });
  const a = Fastify({ ...opts, logger: { ...(opts.logger as object), stream: out } });
  await a.register(requestLog);
  a.post('/work', async (req) => {
    req.log.info('handler via req.log');
    await new Promise((r) => setTimeout(r, 5));
    a.log.info('service via app.log after a timer');
    await Promise.resolve().then(() => a.log.warn({ part: 'x' }, 'service via app.log in a promise chain'));
    setImmediate(() => a.log.info('a later callback the request started'));
    return { ok: true };
  });
  return a;
}

describe('request id on the log lines', () => {
  it('is on every line of the request exactly once, the one answered in X-Request-Id', async () => {
    const out = capture();
    app = await build(out.stream);
    app.log.info('outside any request');
    const [a, b] = await Promise.all([
      app.inject({ method: 'POST', url: '/work', payload: { some: 'body' }, headers: { 'x-request-id': 'proxy-id-0001' } }),
      app.inject({ method: 'POST', url: '/work', payload: { other: 'body' } }),
    ]);
    await new Promise((r) => setImmediate(r));
    expect(a.headers['x-request-id']).toBe('proxy-id-0001');
    const idB = b.headers['x-request-id'] as string;
    expect(idB).toMatch(/^[0-9a-f-]{36}$/);

    const lines = out.lines();
    for (const id of ['proxy-id-0001', idB]) {
      const mine = lines.filter((l) => l.reqId === id).map((l) => l.msg);
      expect(mine.sort()).toEqual(
        [
          'handler via req.log',
          'service via app.log after a timer',
          'service via app.log in a promise chain',
          'a later callback the request started',
          `POST /work 200 ${lines.find((l) => l.reqId === id && String(l.msg).startsWith('POST'))!.responseTime as number} ms`,
        ].sort(),
      );
    }
    expect(lines.find((l) => l.msg === 'outside any request')).not.toHaveProperty('reqId');
    // One reqId key per line (the request's child logger is not given a second one).
    for (const line of out.raw()) expect(line.match(/"reqId"/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
