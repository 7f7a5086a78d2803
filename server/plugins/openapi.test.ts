/**
 * The OpenAPI document (GET /api/openapi.json) covers every registered route — read from Fastify's own route tree,
 * so a route added later without its documentation fails here — with its parameters, body and answers, the error
 * envelope on every operation, and is well formed: every $ref resolves, every path parameter is declared, every
 * schema compiles as JSON Schema 2020-12. The reference page at /api/docs loads only from our origin, with a CSP of its
 * own that allows its one inline script by hash; the rest of the app keeps its strict CSP.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API } from '#contract/routes.ts';
import { cities, countries } from '#server/db/schema.ts';
import { newAgent, signedIn } from '#tests/agent.ts';
import { buildModel, buildPublicist, CITY, findCity } from '#tests/factories.ts';
import { routesOf } from '#tests/routes.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { NOT_JSON, openapiCollector, referenceLoads, scriptCompressions } from './openapi.ts';

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
  tags?: string[];
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * Not part of the API: the built PWA's files (@fastify/static's wildcard, only when a build is there) — and the
 * top-level wildcard as printRoutes shows it without a build (no route at `/`: the tree then prints it as `*`; seen
 * on a clean clone, where the server tests run before `vite build`).
 */
const NOT_API = new Set(['GET /*', 'GET *']);

/** A registered route's path as OpenAPI writes it (`:id` → `{id}`, the wildcard → `{*}`). */
const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

/** Registered routes the document does not have. */
function undocumented(app: FastifyInstance, doc: Document): string[] {
  return routesOf(app)
    .filter((r) => r.method !== 'HEAD' && !NOT_API.has(`${r.method} ${r.path}`))
    .filter((r) => !doc.paths[openapiPath(r.path)]?.[r.method.toLowerCase()])
    .map((r) => `${r.method} ${r.path}`);
}

function* operations(doc: Document): Generator<[string, Operation]> {
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) yield [`${method.toUpperCase()} ${path}`, op];
}

/**
 * What is wrong with an answer, measured against the document's schema for that route and status (the JSON Schema the
 * route's declared zod schema becomes), or null when it fits. The serializer already refuses an answer that does not
 * fit the declared schema (a 500); this reads the document as a client would, so a document that drifted from what the
 * routes send fails too.
 */
let answerAjv: Ajv2020 | undefined;
function answerProblem(route: string, status: number, body: unknown): string | null {
  const [method, path] = route.split(' ') as [string, string];
  const op = doc.paths[openapiPath(path)]?.[method.toLowerCase()];
  const response = op?.responses[String(status)];
  if (!response) return `${status} not in the document`;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return `${status}: no JSON schema in the document`;
  if (!answerAjv) {
    answerAjv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [id, s] of Object.entries(doc.components.schemas)) answerAjv.addSchema(s as object, `#/components/schemas/${id}`);
  }
  const validate = answerAjv.compile(schema);
  return validate(body) ? null : `${status}: ${answerAjv.errorsText(validate.errors)}`;
}

let t: TestApp;
let doc: Document;
/** Scalar's plugin loads made while the app was built (issue 27: it is loaded on the first request for the page). */
let referenceLoadsAtStart: number;
beforeAll(async () => {
  t = await createTestApp();
  referenceLoadsAtStart = referenceLoads.count;
  const res = await t.app.inject({ method: 'GET', url: API.openapi });
  expect(res.statusCode).toBe(200);
  doc = JSON.parse(res.body) as Document;
});
afterAll(async () => {
  await t.close();
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, served without X-Requested-With', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Vitrina API');
  });

  it('has every registered route', () => {
    expect(undocumented(t.app, doc)).toEqual([]);
    const documented = [...operations(doc)].length;
    expect(documented).toBeGreaterThan(100);
  });

  it('the coverage check finds a route left out of the document', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(openapiCollector);
    app.get('/api/documented', { schema: { querystring: z.object({ q: z.string() }) } }, async () => ({}));
    app.get('/api/left-out', { schema: { hide: true } }, async () => ({}));
    await app.ready();
    expect(undocumented(app, app.swagger() as Document)).toEqual(['GET /api/left-out']);
    await app.close();
  });

  it('every operation: a success answer, the error envelope, descriptions, tags', () => {
    const problems: string[] = [];
    for (const [name, op] of operations(doc)) {
      const statuses = Object.keys(op.responses);
      if (!statuses.some((s) => /^[23]/.test(s))) problems.push(`${name}: no success answer`);
      if (!op.tags?.length) problems.push(`${name}: no tag`);
      for (const [status, r] of Object.entries(op.responses)) {
        if (!r.description) problems.push(`${name} ${status}: no description`);
        // The shared ErrorAnswer, or a route's own envelope (GET /api/ready's 503 carries its readiness as data).
        const body = JSON.stringify(r.content ?? {});
        if (/^[45]/.test(status) && !body.includes('#/components/schemas/ErrorAnswer') && !body.includes('"channel"'))
          problems.push(`${name} ${status}: not the error envelope`);
      }
      if (!op.responses['500']) problems.push(`${name}: no 500`);
    }
    expect(problems).toEqual([]);
  });

  it('declares every path parameter, and every $ref resolves', () => {
    const problems: string[] = [];
    for (const [name, op] of operations(doc)) {
      const path = name.split(' ')[1]!;
      for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) {
        const p = op.parameters?.find((x) => x.in === 'path' && x.name === param);
        if (!p?.required) problems.push(`${name}: path parameter ${param} not declared as required`);
      }
    }
    const refs = JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g);
    for (const [, ref] of refs) {
      const id = ref!.replace('#/components/schemas/', '');
      if (!ref!.startsWith('#/components/schemas/') || !(id in doc.components.schemas)) problems.push(`unresolved ${ref}`);
    }
    expect(problems).toEqual([]);
  });

  it('every schema compiles as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [id, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${id}`);
    const problems: string[] = [];
    const compile = (where: string, schema: unknown) => {
      try {
        // Component refs resolve against the schemas added above under their reference.
        ajv.compile(schema as object);
      } catch (err) {
        problems.push(`${where}: ${(err as Error).message}`);
      }
    };
    for (const [name, op] of operations(doc)) {
      for (const p of op.parameters ?? []) compile(`${name} parameter ${p.name}`, p.schema);
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) compile(`${name} body ${type}`, media.schema);
      for (const [status, r] of Object.entries(op.responses))
        for (const [type, media] of Object.entries(r.content ?? {})) compile(`${name} ${status} ${type}`, media.schema);
    }
    expect(problems).toEqual([]);
  });

  it('says what the routes take and answer', () => {
    const models = doc.paths['/api/models']!.get!;
    expect(models.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'search', 'city', 'section']));
    expect(JSON.stringify(models.responses['200']!.content!['application/json']!.schema)).toContain('current_page');
    const login = doc.paths['/api/login']!.post!;
    expect(JSON.stringify(login.requestBody!.content['application/json']!.schema)).toContain('password');
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '419', '422', '429', '500']));
    const ready = doc.paths[API.ready]!.get!;
    expect(Object.keys(ready.responses)).toEqual(expect.arrayContaining(['200', '503']));
    // Staff routes say who may call them.
    expect(doc.paths['/api/admin/decisions']!.post!.responses['403']!.description).toContain('admin, super_admin');
  });

  it('describes the answers that are not JSON and the bodies that are not JSON', () => {
    expect(Object.keys(doc.paths['/media/{*}']!.get!.responses['200']!.content!)).toEqual(['image/webp']);
    expect(Object.keys(doc.paths['/data-export/{id}/{expires}/{file}']!.get!.responses['200']!.content!)).toEqual(['application/zip']);
    expect(Object.keys(doc.paths['/api/upload/images']!.post!.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(doc.paths['/broadcasting/auth']!.post!.requestBody!.content)).toContain('application/x-www-form-urlencoded');
    expect(Object.keys(doc.paths['/metrics']!.get!.responses['200']!.content!)[0]).toMatch(/^text\/plain/);
    expect(Object.keys(doc.paths['/api/docs/']!.get!.responses['200']!.content!)).toEqual(['text/html']);
  });
});

describe('the read routes answer as the document says', () => {
  it('match what the routes answer', async () => {
    const db = t.database.db;
    const model = (await signedIn(t.app, db, { role: 'model' })).agent;
    const admin = (await signedIn(t.app, db, { role: 'admin' })).agent;
    const anonymous = await newAgent(t.app);
    // Rows in the staff lists, so that their rows are parsed too.
    await buildModel(db, { name: 'Listada', adStatus: 'pending' });
    await buildPublicist(db, { status: 'pending' });
    const opened = await model.post(API.supportConversations, {});
    expect([200, 201]).toContain(opened.statusCode);
    const id = opened.json<{ data: { id: number } }>().data.id;
    expect((await model.post(API.supportMessages(id), { content: 'Hola' })).statusCode).toBe(201);
    const calls: Array<[string, typeof model, string]> = [
      ['GET /api/user', model, '/api/user'],
      ['GET /api/session', model, API.session],
      ['GET /api/session', anonymous, API.session],
      ['GET /api/notifications', model, API.notifications],
      ['GET /api/support/chat/conversations', model, API.supportConversations],
      ['GET /api/support/chat/conversations', admin, API.supportConversations],
      ['GET /api/support/chat/:id/messages', model, API.supportMessages(id)],
      ['GET /api/support/chat/status', model, API.supportStatus],
      ['GET /api/support/chat/unread', model, API.supportUnread],
      ['GET /api/support/chat/users', admin, API.supportUsers],
      ['GET /api/support/chat/staff', admin, API.supportStaff],
      ['GET /api/support/chat/:id/user', admin, API.supportUserPanel(id)],
      ['GET /api/admin/reports', admin, '/api/admin/reports'],
      ['GET /api/admin/contact-messages', admin, '/api/admin/contact-messages'],
      ['GET /api/support/chat/conversations/:id', model, API.supportConversation(id)],
      ['GET /api/admin/counts', admin, '/api/admin/counts'],
      ['GET /api/admin/models', admin, '/api/admin/models'],
      ['GET /api/admin/models-under-responsibility', admin, '/api/admin/models-under-responsibility'],
      ['GET /api/admin/publicists', admin, '/api/admin/publicists'],
      ['GET /api/admin/ads', admin, '/api/admin/ads'],
      ['GET /api/admin/clients', admin, '/api/admin/clients'],
      ['GET /api/admin/users-without-profile', admin, '/api/admin/users-without-profile'],
      ['GET /api/admin/photos', admin, '/api/admin/photos'],
      ['GET /api/admin/verifications', admin, '/api/admin/verifications'],
      ['GET /api/admin/appeals', admin, '/api/admin/appeals'],
      ['GET /api/language/:lng', anonymous, '/api/language/es'],
      ['GET /api/user/confirmed-password-status', model, '/api/user/confirmed-password-status'],
    ];
    const problems: string[] = [];
    for (const [route, agent, url] of calls) {
      const res = await agent.get(url);
      const problem = res.statusCode === 200 ? answerProblem(route, 200, res.json()) : 'not 200';
      if (problem) problems.push(`${route} (${url}): ${res.statusCode} ${problem}`);
    }
    expect(problems).toEqual([]);
    // The two Pusher signatures are the broadcasting module's own tests' business; here, that they are documented.
    for (const path of ['/broadcasting/auth', '/broadcasting/user-auth'])
      expect(doc.paths[path]!.post!.responses['200']!.content!['application/json']!.schema).toBeDefined();
    expect(doc.paths['/api/notifications']!.get!.responses['200']!.content!['application/json']!.schema).toMatchObject({ type: 'object' });
    expect(JSON.stringify(doc.paths['/api/support/chat/{id}/messages']!.get!.responses['200'])).toContain('seq');
  });
});

/** A request to the embedded Pusher HTTP API, signed as Pusher's server libraries sign it. */
function pusherRequest(method: 'GET' | 'POST', path: string, body?: unknown) {
  const { appId, key, secret } = t.app.config.realtime;
  const url = path.replace(':appId', appId);
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const params: Record<string, string> = { auth_key: key, auth_timestamp: String(Math.floor(Date.now() / 1000)), auth_version: '1.0' };
  if (raw) params.body_md5 = crypto.createHash('md5').update(raw).digest('hex');
  const signed = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const signature = crypto.createHmac('sha256', secret).update(`${method}\n${url}\n${signed}`).digest('hex');
  return t.app.inject({
    method,
    url: `${url}?${signed}&auth_signature=${signature}`,
    ...(raw ? { payload: raw, headers: { 'content-type': 'application/json' } } : {}),
  });
}

describe('the write routes answer as documented', () => {
  it('on their happy path, parsed with the documented schemas, at the documented status', async () => {
    const db = t.database.db;
    const [spain] = await db.select().from(countries).where(eq(countries.iso2, 'ES'));
    const oviedo = await findCity(db, CITY.oviedo);
    const [city] = await db.select().from(cities).where(eq(cities.id, oviedo.id));
    const place = { country_id: spain!.id, state_id: city!.stateId, city_id: oviedo.id };
    const adult = `${new Date().getUTCFullYear() - 25}-03-14`;
    const ad = {
      ...place,
      section: 'women',
      title: 'Modelo de moda en Oviedo',
      description: 'Sesiones de fotos en estudio y exteriores, pasarela y catálogo.',
    };
    const listed = await buildModel(db, { name: 'Reportada' });
    const model = await signedIn(t.app, db, { role: 'model' });
    const secondModel = (await signedIn(t.app, db, { role: 'model' })).agent;
    const publicistUser = await signedIn(t.app, db, { role: 'publicist' });
    await buildPublicist(db, { userId: publicistUser.user.id });
    const anonymous = await newAgent(t.app);
    const chatter = (await signedIn(t.app, db, { role: 'client' })).agent;
    const staff = (await signedIn(t.app, db, { role: 'admin' })).agent;
    let conversation: number | undefined;
    const chat = () => conversation ?? 0;
    const password = 'a long enough test secret 42';
    const email = `openapi-${Date.now()}@example.test`;

    const calls: Array<[string, () => Promise<LightMyRequestResponse>]> = [
      [
        'POST /api/register',
        () =>
          anonymous.post('/api/register', {
            name: 'Ana',
            email,
            password: 'another long secret 77',
            password_confirmation: 'another long secret 77',
            role: 'client',
          }),
      ],
      ['POST /api/login', () => newAgent(t.app).then((a) => a.post('/api/login', { email: model.user.email, password }))],
      [
        'POST /api/profile/model-with-ad/create',
        () =>
          model.agent.post('/api/profile/model-with-ad/create', {
            display_name: 'Carlota',
            birth_date: adult,
            phone_country: 'ES',
            phone: '612 34 56 78',
            whatsapp: true,
            ...ad,
          }),
      ],
      ['POST /api/ad/create', () => model.agent.post('/api/ad/create', ad)],
      ['POST /api/profile/create', () => secondModel.post('/api/profile/create', { display_name: 'Lucía' })],
      [
        'POST /api/reports',
        () => anonymous.post('/api/reports', { ad_id: listed.adId, reason: 'spam', details: 'Este anuncio es publicidad engañosa.' }),
      ],
      [
        'POST /api/contact',
        () =>
          anonymous.post('/api/contact', {
            name: 'Ana',
            email: 'ana@example.test',
            subject: 'Una consulta',
            message: 'Quería saber cómo funciona.',
          }),
      ],
      ['POST /api/user/data-export', () => model.agent.post('/api/user/data-export', {})],
      [
        'PUT /api/user/profile-information',
        () => model.agent.put('/api/user/profile-information', { name: 'Carlota M', email: model.user.email }),
      ],
      [
        'POST /api/publicist/model/create',
        () =>
          publicistUser.agent.post('/api/publicist/model/create', {
            display_name: 'Modelo Uno',
            birth_date: adult,
            contact_email: `m-${Date.now()}@example.test`,
            whatsapp: false,
            ...ad,
          }),
      ],
      ['POST /api/forgot-password', () => anonymous.post('/api/forgot-password', { email: model.user.email })],
      [
        'PUT /api/user/password',
        () =>
          model.agent.put('/api/user/password', {
            current_password: password,
            password: 'a new long test secret 43',
            password_confirmation: 'a new long test secret 43',
          }),
      ],
      ['POST /api/support/chat/conversations', () => chatter.post(API.supportConversations, {})],
      ['POST /api/support/chat/conversations', () => chatter.post(API.supportConversations, {})],
      ['POST /api/support/chat/:id/messages', () => chatter.post(API.supportMessages(chat()), { content: 'Hola' })],
      ['POST /api/support/chat/:id/read', () => staff.post(API.supportRead(chat()), { seq: 1 })],
      ['POST /api/support/chat/:id/assign', () => staff.post(API.supportAssign(chat()), { user_id: null })],
      ['POST /api/support/chat/:id/resolve', () => staff.post(API.supportResolve(chat()), {})],
      ['POST /api/support/chat/:id/reopen', () => staff.post(API.supportReopen(chat()), {})],
      ['POST /api/notifications/read-all', () => chatter.post(API.notificationsReadAll, {})],
      ['POST /api/logout', () => model.agent.post('/api/logout', {})],
      ['POST /apps/:appId/events', () => pusherRequest('POST', '/apps/:appId/events', { name: 'ping', channel: 'private-x', data: '{}' })],
      [
        'POST /apps/:appId/batch_events',
        () => pusherRequest('POST', '/apps/:appId/batch_events', { batch: [{ name: 'ping', channel: 'private-x', data: '{}' }] }),
      ],
      ['GET /apps/:appId/channels/:channel/users', () => pusherRequest('GET', '/apps/:appId/channels/presence-x/users')],
      ['GET /apps/:appId/channels', () => pusherRequest('GET', '/apps/:appId/channels')],
      ['GET /apps/:appId/channels/:channel', () => pusherRequest('GET', '/apps/:appId/channels/presence-x')],
      [
        'POST /apps/:appId/users/:userId/terminate_connections',
        () => pusherRequest('POST', '/apps/:appId/users/1/terminate_connections', {}),
      ],
    ];
    const problems: string[] = [];
    for (const [route, call] of calls) {
      const res = await call();
      if (route === 'POST /api/support/chat/conversations') conversation = res.json<{ data?: { id: number } }>().data?.id;
      const problem = /^2/.test(String(res.statusCode)) ? answerProblem(route, res.statusCode, res.json()) : `not 2xx: ${res.body}`;
      if (problem) problems.push(`${route}: ${res.statusCode} ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('an answer that does not fit the documented schema is caught', async () => {
    const res = await (await newAgent(t.app)).post(API.forgotPassword, { email: 'nobody@example.test' });
    expect(answerProblem('POST /api/forgot-password', res.statusCode, res.json())).toBeNull();
    // The same answer read as a login's (which carries the user), or at a status the route never answers, does not pass.
    expect(answerProblem('POST /api/login', 200, res.json())).not.toBeNull();
    expect(answerProblem('POST /api/forgot-password', 201, res.json())).not.toBeNull();
  });
});

/**
 * Routes whose 2xx answer is still documented only as "the envelope, `data` as the route gives it" (or "some JSON"),
 * each with the reason. None is left: a new route without its declared response schema fails here (and in the test
 * above).
 */
const STILL_GENERIC = new Map<string, string>([]);

describe('every route declares its answer schema (issue 26)', () => {
  it('in its own options, apart from the answers that are not JSON', () => {
    const notJson = new Set(
      Object.entries(NOT_JSON)
        .filter(([, v]) => v.response)
        .map(([k]) => k),
    );
    const undeclared = t.app.routesWithoutAnswerSchema.filter((r) => !notJson.has(r) && !NOT_API.has(r));
    expect(undeclared).toEqual([]);
  });

  it('the check finds a route that declares none', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(openapiCollector);
    app.get('/api/declared', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    app.get('/api/undeclared', async () => ({}));
    await app.ready();
    expect(app.routesWithoutAnswerSchema).toEqual(['GET /api/undeclared']);
    await app.close();
  });
});

describe('no route left with a generic answer', () => {
  it('every 2xx answer has its own schema, apart from the listed ones', () => {
    const generic: string[] = [];
    for (const [name, op] of operations(doc))
      for (const [status, r] of Object.entries(op.responses))
        if (/^[23]/.test(status) && /as the route gives it|no schema declared/.test(r.description) && !STILL_GENERIC.has(name))
          generic.push(name);
    expect(generic).toEqual([]);
  });
});

describe('the reference at /api/docs', () => {
  it('is served from our origin with a CSP of its own, allowing its inline script by hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API.docs}/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    const sources = scripts.map((m) => /src="([^"]+)"/.exec(m[1]!)?.[1]).filter((s): s is string => !!s);
    expect(sources).toEqual(['js/scalar.js']);
    expect(res.body).toContain(`"url": "${API.openapi}"`);
    const csp = String(res.headers['content-security-policy']);
    const inline = scripts
      .filter((m) => !/src=/.test(m[1]!))
      .map((m) => `'sha256-${crypto.createHash('sha256').update(m[2]!).digest('base64')}'`);
    expect(inline.length).toBeGreaterThan(0);
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '))!;
    expect(scriptSrc).toBe(`script-src 'self' ${inline.join(' ')}`);
    expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(csp).toContain("connect-src 'self'");

    const js = await t.app.inject({ method: 'GET', url: `${API.docs}/js/scalar.js` });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=3600');
    // /api/docs itself sends the browser to the page (relative script URLs need the trailing slash).
    const bare = await t.app.inject({ method: 'GET', url: API.docs });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(`${API.docs}/`);
  });

  it("loads Scalar's plugin on the first request for the page, not with the app, and only once", async () => {
    expect(referenceLoadsAtStart).toBe(0);
    await t.app.inject({ method: 'GET', url: `${API.docs}/` });
    await t.app.inject({ method: 'GET', url: `${API.docs}/js/scalar.js` });
    expect(referenceLoads.count).toBe(1);
  });

  it('sends its 4.9 MB script compressed once per encoding, not per request', async () => {
    const plain = await t.app.inject({ method: 'GET', url: `${API.docs}/js/scalar.js`, headers: { 'accept-encoding': 'identity' } });
    const before = scriptCompressions.count;
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const first = await t.app.inject({
        method: 'GET',
        url: `${API.docs}/js/scalar.js`,
        headers: { 'accept-encoding': `${encoding}, deflate` },
      });
      const again = await t.app.inject({ method: 'GET', url: `${API.docs}/js/scalar.js`, headers: { 'accept-encoding': encoding } });
      expect(first.headers['content-encoding']).toBe(encoding);
      expect(first.headers.vary).toContain('accept-encoding');
      expect(decode(first.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    }
    // Two requests per encoding, one compression each (brotli alone costs ≈ 0.2 s of CPU for this file).
    expect(scriptCompressions.count - before).toBe(2);
  });

  it('leaves the rest of the app with its own CSP', async () => {
    const docs = String((await t.app.inject({ method: 'GET', url: `${API.docs}/` })).headers['content-security-policy']);
    const docsHashes = docs.match(/'sha256-[^']+'/g)!;
    for (const url of [API.health, '/api/sections', '/', '/es']) {
      const csp = String(
        (await t.app.inject({ method: 'GET', url, headers: { 'x-requested-with': 'XMLHttpRequest' } })).headers['content-security-policy'],
      );
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("connect-src 'self' ws: wss:");
      for (const hash of docsHashes) expect(csp, url).not.toContain(hash);
      // The keyword, quoted: the app's 'wasm-unsafe-eval' (the face search's WebAssembly, decision 0023) allows no eval().
      expect(csp, url).not.toContain("'unsafe-eval'");
    }
  });
});
