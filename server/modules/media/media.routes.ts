/**
 * Photos of an ad (issue 5, SPEC §5, §7): POST /api/upload/images (its work in media-upload.ts), POST /api/media/delete,
 * PUT /api/change-cover-picture/{id}, and the files themselves under GET /media/*. The gallery read
 * (GET /api/getImagesByAd/{ad}) lives with the listings. The work is in media-upload.ts and media-changes.ts. Staff:
 * GET /api/admin/media/{mediaId}/matches (issue 29, photo-hashes.ts).
 */
import fastifyMultipart from '@fastify/multipart';
import { API } from '#contract/routes.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeCoverParamsSchema,
  deleteMediaBodySchema,
  mediaChangeAnswerSchema,
  UPLOAD_MAX_FILES,
  uploadAnswerSchema,
} from '#contract/media.ts';
import type { Db } from '../../db/client.ts';
import { notFound, unsupportedMediaType } from '../../errors.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { ok } from '../../answers.ts';
import { mediaMatchListSchema } from '#contract/media-matches.ts';
import { idParam } from '#contract/params.ts';
import { z } from 'zod';
import { registerHashBackfill } from './hash-backfill.ts';
import { mediaMatches } from './photo-hashes.ts';
import { toImage } from './images.ts';
import { changeCover, deleteMedia } from './media-changes.ts';
import { registerMediaFiles } from './media-files.ts';
import { receivePhotos, type UploadOutcome } from './media-upload.ts';
import { listAdPhotos } from './media.repository.ts';
import { createVisibilityCache } from './media-visibility.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };

export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { uploadMaxBytes } = app.config;
  const visibility = createVisibilityCache(app.db, undefined, (hit) => app.metrics.cacheLookup('photo-visibility', hit));
  app.catalogue.onChange(() => visibility.clear());
  registerMediaFiles(app, visibility);
  // Issue 29: photos stored before perceptual hashing are hashed in the background (hash-backfill.ts).
  registerHashBackfill(app);

  // Scoped to this plugin: only these routes accept multipart bodies.
  await app.register(fastifyMultipart, {
    // Over-size files are cut at the limit and refused one by one (too_large) instead of failing the whole request.
    throwFileSizeLimit: false,
    limits: {
      fileSize: uploadMaxBytes,
      // Files past UPLOAD_MAX_FILES are refused (too_many_files) but still read; this is the hard stop.
      files: UPLOAD_MAX_FILES + 10,
      fields: 10,
      fieldSize: 1000,
      parts: UPLOAD_MAX_FILES + 20,
    },
  });

  app.post(
    API.uploadImages,
    { config: { auth: { verified: true } }, schema: { response: { 201: uploadAnswerSchema } } },
    async (req, reply) => {
      if (!req.isMultipart()) throw unsupportedMediaType();
      // A success, or a warning naming how many files were refused.
      const once = answerOnce(req, reply, 201, ({ data, suspended }: UploadOutcome) => ({
        ...ok(req, suspended ? 'notices.updated' : 'notices.adPendingReview', data),
        ...(data.refused.length
          ? { type: 'warning' as const, description: req.t('media.upload.someRefused', { count: data.refused.length }) }
          : {}),
      }));
      return once.send(await receivePhotos({ app, req, visibility, commit: once.commit }, req.parts()));
    },
  );

  /** The ad's photos after a change, read through the change's transaction when the answer is stored with it. */
  const photosAnswer = async (req: FastifyRequest, messageKey: string, adId: number, reader: Db) =>
    ok(req, messageKey, { ad_id: adId, media: (await listAdPhotos(reader, adId)).map((m) => toImage(app.storage, m)) });

  app.post(
    API.mediaDelete,
    { config: { auth: { verified: true } }, schema: { body: deleteMediaBodySchema, response: { 200: mediaChangeAnswerSchema } } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (adId: number, reader: Db) => photosAnswer(req, 'notices.photoDeleted', adId, reader));
      return once.send(await deleteMedia({ app, req, commit: once.commit }, visibility, req.body.media_id));
    },
  );

  app.put(
    API.changeCover(':id'),
    { config: { auth: { verified: true } }, schema: { params: changeCoverParamsSchema, response: { 200: mediaChangeAnswerSchema } } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, (adId: number, reader: Db) => photosAnswer(req, 'media.coverChanged', adId, reader));
      return once.send(await changeCover({ app, req, commit: once.commit }, req.params.id));
    },
  );

  // Staff only (issue 29): the photo's matches with other accounts' photos and selfies and with the removed list,
  // closest first, with the other side's staff-only photo URL, account, phone and city (photo-hashes.ts).
  app.get(
    API.adminMediaMatches(':mediaId'),
    { config: STAFF, schema: { params: z.object({ mediaId: idParam }), response: { 200: mediaMatchListSchema } } },
    async (req, reply) => {
      const data = await mediaMatches(app.db, app.storage, req.params.mediaId);
      if (!data) throw notFound();
      reply.header('cache-control', 'private, no-store');
      return { data };
    },
  );
};
