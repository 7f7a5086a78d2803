/**
 * What the server prints. One line per request, written when the answer has gone out (method, path, status, time):
 * Fastify's own pair ("incoming request" and "request completed") is switched off in app.ts. In development the lines
 * are made readable for a terminal by pino-pretty (time, level, message; the fields that the message already says are
 * left out); anywhere else they stay JSON, one object a line, for a log collector.
 *
 * Request ids: a well-formed `X-Request-Id` from the client or the proxy in front is kept (so one id follows a request
 * through the balancer and every node), anything else is replaced by a fresh UUID; the id goes back in the answer's
 * `X-Request-Id` and is `reqId` on every line written while the request is handled: `req.log` is bound to it, and a
 * line written through `app.log` by a service (a mail, a notification that failed) gets it from the request's async
 * context (an AsyncLocalStorage read by the logger's mixin).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What a proxy's id looks like (UUIDs, nginx's 32 hex digits, Heroku's, Envoy's): nothing that could forge a log line. */
const WELL_FORMED_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

/** The id of a request: the one it came with when well formed, else a new UUID. */
export function requestIdFor(req: Pick<IncomingMessage, 'headers'>): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && WELL_FORMED_ID.test(sent) ? sent : crypto.randomUUID();
}

/** The request being handled, for log lines written outside `req.log`. */
const requestContext = new AsyncLocalStorage<{ reqId: string }>();
/** Marks the per-request child loggers, which carry the id in their bindings already (no second `reqId` key). */
const BOUND = Symbol('vitrina.requestLogger');
type Marked = FastifyBaseLogger & { [BOUND]?: true };

/** pino's mixin: `reqId` on a line written through a logger not bound to the request (app.log in a service). */
function withRequestId(_obj: object, _level: number, logger: unknown): Record<string, string> {
  if ((logger as Marked)[BOUND]) return {};
  const store = requestContext.getStore();
  return store ? { reqId: store.reqId } : {};
}

const childLoggerFactory: FastifyServerOptions['childLoggerFactory'] = (logger, bindings, opts) => {
  const child = logger.child(bindings, opts) as Marked;
  child[BOUND] = true;
  return child;
};

/** Fields that the readable line already says in words (a request's, a written mail's), left out of it. */
const SAID_IN_THE_MESSAGE = ['pid', 'hostname', 'reqId', 'method', 'url', 'statusCode', 'responseTime', 'mail'];

type LoggerOptions = Pick<FastifyServerOptions, 'logger' | 'logController' | 'genReqId' | 'requestIdHeader' | 'childLoggerFactory'>;

/**
 * Fastify's logger options: pretty in development, JSON elsewhere, without Fastify's own two lines per request; request
 * ids as described above (requestIdHeader off: Fastify would take any header value as it is).
 */
export function loggerOptions(config: Pick<Config, 'env' | 'logLevel'>): LoggerOptions {
  const ids = { genReqId: requestIdFor, requestIdHeader: false, childLoggerFactory } as const;
  const logController = new LogController({ disableRequestLogging: true });
  if (config.logLevel === 'silent') return { logger: false, logController, ...ids };
  if (config.env !== 'development')
    return { logger: { level: config.logLevel, mixin: withRequestId, hooks: { logMethod: dropUnsaid } }, logController, ...ids };
  return {
    logger: {
      level: config.logLevel,
      mixin: withRequestId,
      hooks: { logMethod: dropUnsaid },
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss', ignore: SAID_IN_THE_MESSAGE.join(','), singleLine: true },
      },
    },
    logController,
    ...ids,
  };
}

/** "GET /api/models?page=2 200 12 ms" */
export function requestLine(method: string, url: string, statusCode: number, ms: number): string {
  return `${method} ${url} ${statusCode} ${Math.round(ms)} ms`;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the request line leaves the query string out (it holds what must not be logged, e.g. a position). */
    logQuery?: boolean;
  }
}

export const requestLog = fp(
  async (app: FastifyInstance) => {
    // A callback hook, so that everything after it (the other hooks, the handler, what it awaits) runs inside the
    // request's context; the header is set first, so error answers carry it too.
    app.addHook('onRequest', (req, reply, done) => {
      void reply.header(REQUEST_ID_HEADER, req.id);
      requestContext.run({ reqId: req.id }, done);
    });
    app.addHook('onResponse', async (req, reply) => {
      const responseTime = Math.round(reply.elapsedTime);
      const url = req.routeOptions.config.logQuery === false ? req.url.split('?')[0]! : req.url;
      req.log.info(
        { method: req.method, url, statusCode: reply.statusCode, responseTime },
        requestLine(req.method, url, reply.statusCode, responseTime),
      );
    });
  },
  { name: 'request-log' },
);

/**
 * Fastify's "listening" line, saying which address to open: APP_URL's. Mail links point there, and cookies, the cookie
 * choice and the service worker belong to one origin, so the same server opened as 127.0.0.1 or by another name would
 * be a stranger to them. `address` is where the socket listens.
 */
export function startupLine(config: Pick<Config, 'appUrl'>, databaseKind: string, address: string): string {
  const origin = new URL(config.appUrl).origin;
  return `Vitrina is ready: open ${origin} (the address mail links use; listening on ${address}, database: ${databaseKind})`;
}

/** What a listen text resolver returns for a line that must not be printed (dropped by the logger's hook). */
const UNSAID = '\u0000vitrina:unsaid';

/**
 * The resolver for `app.listen`: Fastify calls it once per address it listens on, and listening on every interface
 * (HOST 0.0.0.0) that is one "ready" line per network interface, each naming another address than the one to open.
 * Only the first is printed, naming the port and "every interface" instead of one of them.
 */
export function startupLineResolver(config: Pick<Config, 'appUrl' | 'host' | 'port'>, databaseKind: string): (address: string) => string {
  let said = false;
  const everywhere = config.host === '0.0.0.0' || config.host === '::';
  return (address) => {
    if (said) return UNSAID;
    said = true;
    return startupLine(config, databaseKind, everywhere ? `port ${config.port} of every interface` : address);
  };
}

/** pino's hook: drops the lines a listen text resolver left unsaid. */
function dropUnsaid(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
  if (args[0] === UNSAID) return;
  method.apply(this, args);
}
