/**
 * What the server prints. One line per request, written when the answer has gone out (method, path, status, time):
 * Fastify's own pair ("incoming request" and "request completed") is switched off in app.ts. In development the lines
 * are made readable for a terminal by pino-pretty (time, level, message; the fields that the message already says are
 * left out); anywhere else they stay JSON, one object a line, for a log collector.
 */
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/** Fields that the readable line already says in words (a request's, a written mail's), left out of it. */
const SAID_IN_THE_MESSAGE = ['pid', 'hostname', 'reqId', 'method', 'url', 'statusCode', 'responseTime', 'mail'];

/** Fastify's logger options: pretty in development, JSON elsewhere, without Fastify's own two lines per request. */
export function loggerOptions(config: Pick<Config, 'env' | 'logLevel'>): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const logController = new LogController({ disableRequestLogging: true });
  if (config.logLevel === 'silent') return { logger: false, logController };
  if (config.env !== 'development') return { logger: { level: config.logLevel }, logController };
  return {
    logger: {
      level: config.logLevel,
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss', ignore: SAID_IN_THE_MESSAGE.join(','), singleLine: true },
      },
    },
    logController,
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
