/**
 * Saved searches (issue 28, contract/saved-searches.ts):
 *   GET    /api/saved-searches               the signed-in user's searches (any role)
 *   POST   /api/saved-searches               save one (`name`, `search`, `city`, `section`, `alerts`)
 *   PUT    /api/saved-searches/{id}          rename, change the alerts, pause or resume
 *   DELETE /api/saved-searches/{id}          remove
 *   POST   /api/saved-searches/unsubscribe   the e-mail's signed link: alerts off, no session needed
 *   POST   /api/saved-searches/unsubscribe/one-click?id=…&token=…   the digest's List-Unsubscribe (RFC 8058): the
 *          mail client's form post `List-Unsubscribe=One-Click`, without session, XHR header or CSRF token
 *          (plugins/security.ts lets exactly that form through)
 * Writes commit their answer with the change (the outbox replays them with an Idempotency-Key). The matching and
 * alert jobs are registered here (matching.ts, alerts.ts).
 */
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { successOf } from '#contract/answers.ts';
import { API } from '#contract/routes.ts';
import {
  savedSearchCreateSchema,
  savedSearchListSchema,
  savedSearchOneClickAnswerSchema,
  savedSearchOneClickBodySchema,
  savedSearchOneClickQuerySchema,
  savedSearchParamsSchema,
  savedSearchSchema,
  savedSearchUnsubscribedSchema,
  savedSearchUnsubscribeSchema,
  savedSearchUpdateSchema,
  type SavedSearch,
} from '#contract/saved-searches.ts';
import { z } from 'zod';
import { ok } from '../../answers.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser } from '../../plugins/session.ts';
import { sendDigest, sendInstantAlert } from './alerts.ts';
import { ALERT_JOB, DIGEST_JOB, MATCH_JOB, matchAd } from './matching.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  unsubscribe,
  unsubscribeOneClick,
  updateSavedSearch,
} from './saved-searches.ts';

const SIGNED_IN = { auth: true as const };

export const savedSearchesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  app.jobs.register(MATCH_JOB, (payload, job, now) => matchAd(app, Number(payload.ad_id), job.createdAt, now));
  app.jobs.register(ALERT_JOB, (payload, _job, now) => sendInstantAlert(app, Number(payload.search_id), now));
  app.jobs.register(DIGEST_JOB, (payload, _job, now) => sendDigest(app, Number(payload.user_id), now));

  app.get(API.savedSearches, { schema: { response: { 200: savedSearchListSchema } }, config: SIGNED_IN }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { data: await listSavedSearches(db, requireUser(req).id, req.lang) };
  });

  app.post(
    API.savedSearches,
    { schema: { body: savedSearchCreateSchema, response: { 201: successOf(savedSearchSchema) } }, config: SIGNED_IN },
    async (req, reply) => {
      const once = answerOnce(req, reply, 201, (s: SavedSearch) => ok(req, 'savedSearches.api.saved', s));
      return once.send(
        await createSavedSearch(db, requireUser(req).id, req.body, req.lang, (key, vars) => req.t(key, vars ?? {}), once.commit),
      );
    },
  );

  app.put(
    API.savedSearch(':id'),
    {
      schema: { params: savedSearchParamsSchema, body: savedSearchUpdateSchema, response: { 200: successOf(savedSearchSchema) } },
      config: SIGNED_IN,
    },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (s: SavedSearch) => ok(req, 'savedSearches.api.updated', s));
      return once.send(await updateSavedSearch(db, requireUser(req).id, req.params.id, req.body, req.lang, once.commit));
    },
  );

  app.delete(
    API.savedSearch(':id'),
    { schema: { params: savedSearchParamsSchema, response: { 200: successOf(z.object({ id: z.number().int() })) } }, config: SIGNED_IN },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (r: { id: number }) => ok(req, 'savedSearches.api.deleted', r));
      return once.send(await deleteSavedSearch(db, requireUser(req).id, req.params.id, once.commit));
    },
  );

  app.post(
    API.savedSearchUnsubscribe,
    { schema: { body: savedSearchUnsubscribeSchema, response: { 200: successOf(savedSearchUnsubscribedSchema) } } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (r: { id: number; name: string; alerts: 'off' }) =>
        ok(req, 'savedSearches.api.unsubscribed', r, { messageParams: { name: r.name } }),
      );
      return once.send(await unsubscribe(app, req.body, once.commit));
    },
  );

  // The mail client's post is a form (RFC 8058: urlencoded, or multipart as in its example), read only here: a small
  // text body whose fields are taken as strings; anything else is refused by the body schema.
  await app.register(async (oneClick) => {
    oneClick.removeAllContentTypeParsers();
    oneClick.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (req, body, done) => done(null, formFields(String(req.headers['content-type']), body as string)),
    );
    oneClick.withTypeProvider<ZodTypeProvider>().post(
      API.savedSearchOneClick,
      {
        schema: {
          querystring: savedSearchOneClickQuerySchema,
          body: savedSearchOneClickBodySchema,
          response: { 200: successOf(savedSearchOneClickAnswerSchema) },
        },
      },
      async (req) => {
        const { ids, names } = await unsubscribeOneClick(app, req.query);
        return ok(req, 'savedSearches.api.unsubscribed', { ids }, { messageParams: { name: names.join('», «') } });
      },
    );
  });
};

/** The fields of a urlencoded or multipart form, as strings (the last of a repeated name). */
function formFields(contentType: string, body: string): Record<string, string> {
  if (!contentType.toLowerCase().startsWith('multipart/')) return Object.fromEntries(new URLSearchParams(body));
  const fields = new Map<string, string>();
  for (const m of body.matchAll(/content-disposition:\s*form-data;\s*name="([^"]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/gi))
    fields.set(m[1]!, m[2]!);
  return Object.fromEntries(fields);
}
