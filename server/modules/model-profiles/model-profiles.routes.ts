/**
 * A model's profile with its ad (Profile/Model Create, Update, index, Actions): create with the ad
 * (POST /api/profile/model-with-ad/create, also POST /api/model/create), read (GET /api/profile/model), update
 * with optimistic versions (PUT /api/profile/model-with-ad/update/{id}: a stale version answers 409 with the
 * current record), switch the ad on or off (PUT /api/profile/model/activate/{id}/{value}), add an ad
 * (POST /api/ad/create) and delete one (DELETE /api/ad/{id}). Each handler parses, calls one function of
 * model-profiles.ts and answers.
 */
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#contract/locations.ts';
import {
  activateParamsSchema,
  adAnswerSchema,
  adCreatedAnswerSchema,
  adCreateSchema,
  adDeletedAnswerSchema,
  modelProfileAnswerSchema,
  modelProfileResponseSchema,
  modelWithAdSchema,
  modelWithAdUpdateSchema,
} from '#contract/profiles.ts';
import { ok } from '../../answers.ts';
import type { Db } from '../../db/client.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser, requireVerified } from '../../plugins/session.ts';
import { adSummary, type AdRow } from './model-profiles.repository.ts';
import {
  addOwnAd,
  createOwnModelWithAd,
  deleteOwnAd,
  modelProfileView,
  ownModelProfile,
  switchOwnAd,
  updateOwnModelWithAd,
} from './model-profiles.ts';

export const modelProfilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  const createOptions = {
    schema: { body: modelWithAdSchema, response: { 201: modelProfileAnswerSchema } },
    config: { auth: { roles: ['model' as const], verified: true } },
  };
  for (const path of [API.modelWithAdCreate, API.modelCreate]) {
    app.post(path, createOptions, async (req, reply) => {
      const profile = await createOwnModelWithAd(req, requireVerified(req), req.body);
      return reply.status(201).send(ok(req, 'notices.profileCreated', profile));
    });
  }

  app.get(
    API.modelProfile,
    { schema: { response: { 200: modelProfileResponseSchema } }, config: { auth: { roles: ['model'] } } },
    async (req) => ({ data: await ownModelProfile(db, requireUser(req), req.lang) }),
  );

  app.put(
    API.modelWithAdUpdate(':id'),
    {
      schema: { params: idParamsSchema, body: modelWithAdUpdateSchema, response: { 200: modelProfileAnswerSchema } },
      config: { auth: true },
    },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, async (profileId: number, reader: Db) =>
        ok(req, 'notices.profileUpdated', await modelProfileView(reader, profileId, req.lang)),
      );
      return once.send(await updateOwnModelWithAd(req, requireUser(req), req.params.id, req.body, once.commit));
    },
  );

  app.put(
    API.modelAdActivate(':id', ':value'),
    { schema: { params: activateParamsSchema, response: { 200: adAnswerSchema } }, config: { auth: true } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, async (updated: AdRow, reader: Db) =>
        ok(req, 'notices.adStatusChanged', await adSummary(reader, updated, req.lang)),
      );
      return once.send(await switchOwnAd(req, requireUser(req), req.params.id, req.params.value, once.commit));
    },
  );

  app.post(
    API.adCreate,
    { schema: { body: adCreateSchema, response: { 201: adCreatedAnswerSchema } }, config: { auth: { roles: ['model'], verified: true } } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 201, async (ad: AdRow, reader: Db) => {
        const summary = await adSummary(reader, ad, req.lang);
        return { ...ok(req, 'notices.adCreated', summary), url: summary.url };
      });
      return once.send(await addOwnAd(req, requireVerified(req), req.body, once.commit));
    },
  );

  app.delete(
    API.adDelete(':id'),
    { schema: { params: idParamsSchema, response: { 200: adDeletedAnswerSchema } }, config: { auth: true } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, () => ok(req, 'notices.adDeleted'));
      await deleteOwnAd(req, requireUser(req), req.params.id, once.commit);
      return once.send(undefined);
    },
  );
};
