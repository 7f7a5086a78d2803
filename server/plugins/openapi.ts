/**
 * The API's OpenAPI 3.1 document, generated from the routes as registered: @fastify/swagger collects every route (it
 * must be registered before them: `openapiCollector` in app.ts) and fastify-type-provider-zod turns each route's zod
 * schemas from contract/ into JSON Schema (request parts as the client sends them, answers as the server writes them).
 * On top of what the schemas say, `describeRoute` adds for every route the error answers it can give (the envelope
 * of contract/answers.ts, by status), who may call it, and for the routes that do not answer JSON (photos, archives,
 * metrics) or do not take JSON (uploads, Pusher's form posts) what they do answer and take.
 *
 * `apiDocsRoutes` serves it at GET /api/openapi.json and an interactive reference (Scalar) at /api/docs, whose script
 * is served from our own origin; that page gets a Content-Security-Policy of its own (its inline start-up script
 * allowed by hash), the rest of the app keeps the strict one of app.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answerSchema, ERROR_CODES } from '#contract/answers.ts';
import { API, API_PREFIX, BROADCASTING_PREFIX } from '#contract/routes.ts';
import { SESSION_COOKIE } from './cookies.ts';

/** Schemas shown once under components and referenced from every route that uses them. */
const components = z.registry<{ id: string }>();
const errorAnswerSchema = answerSchema.extend({
  type: z.literal('error'),
  error: z.string().describe(`Stable machine code: ${ERROR_CODES.join(', ')}, or a module's own (e.g. a limit reached).`),
});
components.add(answerSchema, { id: 'Answer' });
components.add(errorAnswerSchema, { id: 'ErrorAnswer' });

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const ERROR_REF = { $ref: '#/components/schemas/ErrorAnswer' };
const ANSWER_REF = { $ref: '#/components/schemas/Answer' };
const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });
const binary = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string', format: 'binary' } } },
});

interface AuthRule {
  roles?: string[];
  verified?: boolean;
}

/** What the routes that answer or take something other than JSON do, by `METHOD pattern`. */
export const NOT_JSON: Record<string, { summary?: string; response?: Record<string, unknown>; consumes?: string[]; body?: unknown }> = {
  'GET /media/*': {
    summary: "A photo variant (`ads/{ad}/{uid}/{width}.webp`) or a promotion's image",
    response: {
      200: binary(
        'image/webp',
        'The image. Public and immutable while its ad is listed; otherwise only for its owner, the publicist and staff (`private, no-store`).',
      ),
      404: error('No such file, or not visible to this visitor'),
    },
  },
  'GET /data-export/:id/:expires/:file': {
    summary: "The user's data export archive (signed, expiring link; only for its owner's session)",
    response: {
      200: binary('application/zip', 'The ZIP archive (JSON files and the photos)'),
      403: error('Not this session’s export'),
      404: error('Unknown or expired'),
    },
  },
  [`GET ${API.adminVerificationSelfie(':id')}`]: {
    response: { 200: binary('image/webp', 'The verification selfie (private, no-store)') },
  },
  [`GET ${API.adminPhotoReviewImage(':id')}`]: {
    response: { 200: binary('image/webp', 'A refused photo kept for review, as staff see it (private, no-store)') },
  },
  'GET /metrics': {
    summary: 'Prometheus metrics (text exposition format)',
    response: {
      200: { description: 'Metrics', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
      401: error('Missing or wrong `Authorization: Bearer $METRICS_TOKEN`'),
      404: error('Metrics are not exposed on this port (METRICS_TOKEN unset)'),
    },
  },
  [`POST ${API.modelVerification}`]: {
    summary: 'The verification selfie (multipart; stored privately)',
    consumes: ['multipart/form-data'],
    body: {
      type: 'object',
      required: ['code', 'photo'],
      properties: {
        code: { type: 'string', description: 'The code shown to the model, held up in the photo' },
        photo: { type: 'string', format: 'binary' },
      },
    },
  },
  'GET /sanctum/csrf-cookie': {
    response: { 204: { description: 'No content: the `XSRF-TOKEN` cookie is set (bound to the session, if any)', type: 'null' } },
  },
  [`POST ${API.pageView}`]: { response: { 204: { description: 'No content: the page view is counted', type: 'null' } } },
  'GET /': {
    summary: "The PWA's first screen (HTML; the shell's fallback serves every other page path)",
    response: { 200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
  [`GET ${API.docs}`]: { summary: 'Redirects to /api/docs/', response: { 301: { description: 'To the reference page', type: 'null' } } },
  [`GET ${API.docsIndex}`]: {
    summary: 'This interactive API reference (HTML)',
    response: { 200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
  [`GET ${API.docsScript}`]: {
    summary: "The reference page's script, served from our origin",
    response: { 200: { description: 'JavaScript', content: { 'application/javascript': { schema: { type: 'string' } } } } },
  },
  [`POST ${API.uploadImages}`]: {
    consumes: ['multipart/form-data'],
    body: {
      type: 'object',
      required: ['ad_id', 'images'],
      properties: {
        ad_id: { type: 'string', description: 'The ad the photos belong to (first field)' },
        images: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One or more photos (also `images[]`)' },
      },
    },
  },
  'POST /broadcasting/auth': {
    consumes: ['application/x-www-form-urlencoded', 'application/json'],
    body: {
      type: 'object',
      required: ['socket_id', 'channel_name'],
      properties: { socket_id: { type: 'string' }, channel_name: { type: 'string' } },
    },
  },
  'POST /broadcasting/user-auth': {
    consumes: ['application/x-www-form-urlencoded', 'application/json'],
    body: { type: 'object', required: ['socket_id'], properties: { socket_id: { type: 'string' } } },
  },
};

const TAGS: Array<[RegExp, string]> = [
  [/^\/api\/(health|ready|config|openapi\.json|docs)(\/|$)|^\/metrics$/, 'operations'],
  [/^\/api\/(super-)?admin\//, 'staff'],
  [/^\/api\/(publicist|consent)/, 'publicists'],
  [/^\/api\/(profile|model|ad\/|verification)/, 'models and ads'],
  [/^\/api\/(upload|media|change-cover|getImagesByAd|getCoverImage)|^\/media\//, 'photos'],
  [/^\/api\/(support|notifications)|^\/broadcasting\/|^\/apps\//, 'realtime, notifications, support chat'],
  [/^\/api\/(statements|reports|contact)/, 'statements, reports, contact'],
  [/^\/api\/(user\/data-export)|^\/data-export\//, 'data rights'],
  [/^\/api\/(login|logout|register|user|session|forgot|reset|email|password|publicist\/create)|^\/sanctum\//, 'accounts'],
  [/^\/api\/(models|getModels|models\/)/, 'listings'],
];
const tagOf = (url: string) => TAGS.find(([re]) => re.test(url))?.[1] ?? 'catalogue and reference data';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error answers a route can give, from how it is declared: the guards of security.ts and session.ts run before
 * any handler, so they apply by path, method and `config.auth`; validation by the schema parts it has.
 */
export function errorResponses(method: string, url: string, schema: Record<string, unknown>, auth: AuthRule | boolean | undefined) {
  const out: Record<string, unknown> = {};
  const guarded = url.startsWith(API_PREFIX) || url.startsWith(BROADCASTING_PREFIX);
  const exempt = ([API.health, API.ready, API.openapi, API.docs] as string[]).includes(url) || url.startsWith(`${API.docs}/`);
  if (guarded && !exempt) out['400'] = error('`xhr_required` (no `X-Requested-With: XMLHttpRequest`), or a malformed request');
  if (auth) {
    out['401'] = error('`unauthenticated`: no valid session');
    out['403'] = error(
      typeof auth === 'object' && auth.roles
        ? `\`forbidden\`: only ${auth.roles.join(', ')}${auth.verified ? ' (verified)' : ''}; \`account_suspended\``
        : '`forbidden`, or `account_suspended` for a suspended account',
    );
  }
  if (schema.params || /[:*]/.test(url)) out['404'] = error('`not_found`: nothing with that id (a malformed id too)');
  if (guarded && STATE_CHANGING.has(method)) {
    out['409'] = error('`conflict` (a stale `version`), or `idempotency_in_progress`');
    out['419'] = error('`csrf_mismatch`: the XSRF-TOKEN cookie not echoed in `X-XSRF-TOKEN`');
  }
  if (schema.body || schema.querystring || (guarded && STATE_CHANGING.has(method)))
    out['422'] = error('`validation_failed` with per-field messages in `errors` (or `idempotency_mismatch`)');
  out['429'] = error('`too_many_requests` where a rate limit applies (`Retry-After`)');
  out['500'] = error('`server_error`: nothing internal is revealed');
  return out;
}

const zodTransform = createJsonSchemaTransform({ schemaRegistry: components, skipList: [] });

type TransformInput = Parameters<typeof zodTransform>[0] & { route: RouteOptions };

/** @fastify/swagger's per-route transform: zod → JSON Schema, then the errors, the tag and the non-JSON parts. */
export function describeRoute(input: TransformInput) {
  const { schema, url } = zodTransform(input) as { schema: Record<string, unknown> | undefined; url: string };
  const out: Record<string, unknown> = { ...(schema ?? {}) };
  const method = String(Array.isArray(input.route.method) ? input.route.method[0] : input.route.method);
  const special = NOT_JSON[`${method} ${url}`];
  // The reference's own routes hide themselves; they are part of the API like any other.
  if (url === API.docs || url.startsWith(`${API.docs}/`)) delete out.hide;
  if (out.hide) return { schema: out, url };
  const auth = (input.route.config as { auth?: AuthRule | boolean } | undefined)?.auth;
  out.tags ??= [tagOf(url)];
  if (special?.summary) out.summary ??= special.summary;
  if (special?.body) out.body = special.body;
  if (special?.consumes) out.consumes = special.consumes;
  const declared = (out.response as Record<string, unknown> | undefined) ?? {};
  // A route without a declared answer: a write answers the envelope (SPEC §7) by design; a read, some JSON.
  const success = Object.keys({ ...declared, ...special?.response }).some((s) => /^[23]/.test(s))
    ? {}
    : STATE_CHANGING.has(method)
      ? { 200: { description: 'The answer envelope (SPEC §7), `data` as the route gives it', ...ANSWER_REF } }
      : { 200: { description: 'JSON (no schema declared by the route yet)', type: 'object', additionalProperties: true } };
  out.response = { ...errorResponses(method, url, out, auth), ...success, ...declared, ...(special?.response ?? {}) };
  if (auth) out.security = [{ session: [] }];
  return { schema: out, url };
}

/** Registered before every route: it collects them as they are added. */
export const openapiCollector = fp(
  async (app: FastifyInstance) => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Vitrina API',
          version,
          description: [
            'Every `/api` call carries `X-Requested-With: XMLHttpRequest`; state-changing calls echo the `XSRF-TOKEN` cookie',
            '(from `GET /sanctum/csrf-cookie`) as `X-XSRF-TOKEN`, and accept an `Idempotency-Key`. Answers and errors come in',
            'the envelope `{ channel, type, message, error?, errors?, data? }` with `message` in the request’s language',
            '(`X-Locale`, `lang` cookie, `Accept-Language`). Every answer carries an `X-Request-Id`.',
          ].join(' '),
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by `POST /api/login`.' },
          },
        },
      },
      transform: describeRoute,
      transformObject: createJsonSchemaTransformObject({ schemaRegistry: components }),
    });
    // Issue 26: every route declares its answer in its own options, where it is also what serializes the answer.
    // Those that cannot (non-JSON answers: NOT_JSON above) are listed there; the test names any other.
    const undeclared: string[] = [];
    app.decorate('routesWithoutAnswerSchema', undeclared);
    app.addHook('onRoute', (route) => {
      const schema = route.schema;
      if (schema?.response || schema?.hide) return;
      for (const method of [route.method].flat()) if (method !== 'HEAD') undeclared.push(`${method} ${route.url}`);
    });
  },
  { name: 'openapi-collector' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Routes registered without `schema.response` ("METHOD /path"), for the test that allows none but the non-JSON ones. */
    routesWithoutAnswerSchema: string[];
  }
}

/** Hash of every inline script of an HTML page, for that page's script-src. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${crypto.createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
}

/**
 * The reference's script is 4.9 MB: compressing it per request (brotli ≈ 0.2 s of CPU) would let anyone keep a core
 * busy from a public URL. Each encoding is made once per process, on first use, and then sent as it is
 * (@fastify/compress leaves an answer that already has a Content-Encoding alone).
 */
const scriptEncodings = new Map<'br' | 'gzip', Promise<Buffer>>();
/** How many times the script was compressed in this process (tests). */
export const scriptCompressions = { count: 0 };
async function sendScript(req: FastifyRequest, reply: FastifyReply, script: string): Promise<string | Buffer> {
  void reply.header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding');
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  if (!encoding) return script;
  let compressed = scriptEncodings.get(encoding);
  if (!compressed) {
    scriptCompressions.count++;
    compressed =
      encoding === 'br' ? brotliCompress(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzip(script, { level: 9 });
    scriptEncodings.set(encoding, compressed);
    compressed.catch(() => scriptEncodings.delete(encoding));
  }
  const bytes = await compressed;
  void reply.header('content-encoding', encoding).removeHeader('content-length');
  return bytes;
}

/**
 * Scalar's Fastify plugin in an instance of its own, made on the first request for the reference: its module holds the
 * 4.9 MB script as a string literal, ≈18 MB of every process's heap with its source (issue 27: server memory), and
 * most processes never serve the page. The routes below answer what this instance answers, so the page and the script
 * are Scalar's own, as when the plugin was registered on the app.
 */
let reference: Promise<FastifyInstance> | undefined;
/** How many times this process loaded Scalar's plugin (tests: none before the first request, then once). */
export const referenceLoads = { count: 0 };
function referenceApp(): Promise<FastifyInstance> {
  reference ??= (async () => {
    referenceLoads.count++;
    const { default: scalarApiReference } = await import('@scalar/fastify-api-reference');
    const inner = Fastify({ logger: false });
    await inner.register(scalarApiReference, {
      routePrefix: API.docs,
      configuration: {
        url: API.openapi,
        pageTitle: 'Vitrina API',
        // No request to fonts.scalar.com or any other origin: the system fonts, no telemetry, no AI agent, and none of
        // the developer toolbar's links to Scalar's services (shown on localhost otherwise).
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        showDeveloperTools: 'never',
      },
    });
    await inner.ready();
    return inner;
  })();
  // A failed load is tried again by the next request.
  reference.catch(() => (reference = undefined));
  return reference;
}

/** GET /api/openapi.json and the reference at /api/docs. */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    API.openapi,
    {
      schema: { summary: 'This OpenAPI 3.1 document', tags: ['operations'], response: { 200: z.looseObject({ openapi: z.string() }) } },
      // Built once by @fastify/swagger and cached there; written as it is.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (_req, reply) => {
      void reply.header('cache-control', 'no-cache');
      return app.swagger();
    },
  );

  // The reference page in a context of its own, so that its hook sets the page's own CSP and touches nothing else.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (req, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('application/javascript') && typeof payload === 'string') return sendScript(req, reply, payload);
      if (!type.startsWith('text/html') || typeof payload !== 'string') return payload;
      void reply.header(
        'content-security-policy',
        [
          "default-src 'self'",
          `script-src 'self' ${inlineScriptHashes(payload).join(' ')}`,
          // Scalar injects its stylesheet and sets styles inline.
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: blob:",
          "font-src 'self' data:",
          "connect-src 'self'",
          "worker-src 'self' blob:",
          "base-uri 'self'",
          "form-action 'self'",
          "frame-ancestors 'self'",
          "object-src 'none'",
        ].join('; '),
      );
      return payload;
    });
    // Scalar's own routes, answered by its plugin loaded on first use (`referenceApp`); the same paths and answers.
    const hidden = { schema: { hide: true }, logLevel: 'warn' as const };
    docs.get(API.docs, hidden, (_req, reply) => reply.redirect(API.docsIndex, 301));
    const forward = async (req: FastifyRequest, reply: FastifyReply) => {
      const res = await (await referenceApp()).inject({ method: 'GET', url: req.url });
      void reply.code(res.statusCode);
      for (const name of ['content-type', 'location'] as const) {
        const value = res.headers[name];
        if (value !== undefined) void reply.header(name, value);
      }
      return res.body;
    };
    docs.get(API.docsIndex, hidden, forward);
    docs.get(API.docsScript, hidden, forward);
  });
}
