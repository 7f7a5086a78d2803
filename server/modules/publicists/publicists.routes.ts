/**
 * Models under a publicist's responsibility (issue 6 point 1): list (search, sort, pagination; `data` + `meta`), read,
 * create one or several (all-or-nothing), update with `version` (409 answers the current record), switch the ad on or
 * off, delete the ad or the whole model, and re-send the model's consent request. Only a publicist with their own
 * publicist profile, or staff, may call these (publicist-models.ts checks every row). Each handler parses, calls one
 * function of publicist-models.ts and answers.
 */
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#contract/locations.ts';
import { activateParamsSchema } from '#contract/profiles.ts';
import {
  publicistModelAnswerSchema,
  publicistModelDeletedSchema,
  publicistModelListSchema,
  publicistModelReadSchema,
  publicistModelSchema,
  publicistModelsAnswerSchema,
  publicistModelsBulkSchema,
  publicistModelsQuerySchema,
  publicistModelUpdateSchema,
} from '#contract/publicists.ts';
import { ok } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser } from '../../plugins/session.ts';
import {
  createManagedModels,
  deleteManagedAd,
  deleteManagedModel,
  listModelsOf,
  listOwnModels,
  publicistModelView,
  readManagedModel,
  resendConsent,
  switchManagedAd,
  updateManagedModel,
} from './publicist-models.ts';

const PUBLICIST_OR_STAFF = { roles: ['publicist' as const, 'admin' as const, 'super_admin' as const] };
const PUBLICIST = { roles: ['publicist' as const] };

export const publicistsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.get(
    API.publicistModelsOf(':id'),
    {
      schema: { params: idParamsSchema, querystring: publicistModelsQuerySchema, response: { 200: publicistModelListSchema } },
      config: { auth: PUBLICIST_OR_STAFF },
    },
    async (req) => listModelsOf(db, requireUser(req), req.params.id, req.query, req.lang),
  );

  for (const path of [API.publicistModels, API.publicistModelsLegacy]) {
    app.get(
      path,
      { schema: { querystring: publicistModelsQuerySchema, response: { 200: publicistModelListSchema } }, config: { auth: PUBLICIST } },
      async (req) => listOwnModels(db, requireUser(req), req.query, req.lang),
    );
  }

  app.get(
    API.publicistModel(':id'),
    { schema: { params: idParamsSchema, response: { 200: publicistModelReadSchema } }, config: { auth: PUBLICIST_OR_STAFF } },
    async (req) => ({ data: await readManagedModel(db, requireUser(req), req.params.id, req.lang) }),
  );

  for (const path of [API.publicistModelCreate, API.publicistModelUnderResponsibilityCreate]) {
    app.post(
      path,
      { schema: { body: publicistModelSchema, response: { 201: publicistModelAnswerSchema } }, config: { auth: PUBLICIST } },
      async (req, reply) => {
        const [model] = await createManagedModels(req, requireUser(req), [req.body]);
        return reply.status(201).send(ok(req, 'publicist.notices.modelCreated', model!));
      },
    );
  }

  app.post(
    API.publicistModelsCreate,
    { schema: { body: publicistModelsBulkSchema, response: { 201: publicistModelsAnswerSchema } }, config: { auth: PUBLICIST } },
    async (req, reply) => {
      const models = await createManagedModels(req, requireUser(req), req.body.models, (i) => `models.${i}.`);
      // The form sends one model through this route too: one model is told in the singular.
      const notice = models.length === 1 ? 'publicist.notices.modelCreated' : 'publicist.notices.modelsCreated';
      return reply.status(201).send(ok(req, notice, models));
    },
  );

  app.put(
    API.publicistModelUpdate(':id'),
    {
      schema: { params: idParamsSchema, body: publicistModelUpdateSchema, response: { 200: publicistModelAnswerSchema } },
      config: { auth: PUBLICIST_OR_STAFF },
    },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, async (id: number, reader: Db) =>
        ok(req, 'notices.profileUpdated', await publicistModelView(reader, id, req.lang)),
      );
      return once.send(await updateManagedModel(req, requireUser(req), req.params.id, req.body, once.commit));
    },
  );

  app.put(
    API.publicistModelActivate(':id', ':value'),
    { schema: { params: activateParamsSchema, response: { 200: publicistModelAnswerSchema } }, config: { auth: PUBLICIST_OR_STAFF } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, async (id: number, reader: Db) =>
        ok(req, 'notices.adStatusChanged', await publicistModelView(reader, id, req.lang)),
      );
      return once.send(await switchManagedAd(req, requireUser(req), req.params.id, req.params.value, once.commit));
    },
  );

  app.delete(
    API.publicistModelAd(':id'),
    { schema: { params: idParamsSchema, response: { 200: publicistModelAnswerSchema } }, config: { auth: PUBLICIST_OR_STAFF } },
    async (req) => ok(req, 'notices.adDeleted', await deleteManagedAd(req, requireUser(req), req.params.id)),
  );

  app.delete(
    API.publicistModel(':id'),
    { schema: { params: idParamsSchema, response: { 200: publicistModelDeletedSchema } }, config: { auth: PUBLICIST_OR_STAFF } },
    async (req) => {
      await deleteManagedModel(req, requireUser(req), req.params.id);
      return ok(req, 'publicist.notices.modelDeleted');
    },
  );

  app.post(
    API.publicistModelConsentResend(':id'),
    { schema: { params: idParamsSchema, response: { 200: publicistModelAnswerSchema } }, config: { auth: PUBLICIST } },
    async (req) => ok(req, 'publicist.notices.consentSent', await resendConsent(req, requireUser(req), req.params.id)),
  );
};
