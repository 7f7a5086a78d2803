/**
 * Photos of an ad (issue 5, SPEC §5, §7): POST /api/upload/images (its work in media-upload.ts), POST /api/media/delete,
 * PUT /api/change-cover-picture/{id}, and the files themselves under GET /media/*. The gallery read
 * (GET /api/getImagesByAd/{ad}) lives with the listings. Staff changing the photos of an ad that is not theirs are
 * audited, in the same transaction as the change.
 */
import fastifyMultipart from '@fastify/multipart';
import { API } from '#contract/routes.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeCoverParamsSchema,
  deleteMediaBodySchema,
  mediaChangeAnswerSchema,
  UPLOAD_MAX_FILES,
  uploadAnswerSchema,
} from '#contract/media.ts';
import type { Db } from '../../db/client.ts';
import { unsupportedMediaType } from '../../errors.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { recordAudit, staffActsForOthers } from '../audit/audit.ts';
import { toImage } from './images.ts';
import { loadEditableMedia } from './ad-access.ts';
import { registerMediaFiles } from './media-files.routes.ts';
import { receivePhotos, type UploadOutcome } from './media-upload.ts';
import { deletePhoto, listAdPhotos, setCover } from './media.repository.ts';
import { createVisibilityCache } from './media-visibility.ts';

export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { uploadMaxBytes } = app.config;
  const visibility = createVisibilityCache(app.db, undefined, (hit) => app.metrics.cacheLookup('photo-visibility', hit));
  app.catalogue.onChange(() => visibility.clear());
  registerMediaFiles(app, visibility);

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
      const once = answerOnce(req, reply, 201, ({ data, suspended }: UploadOutcome) => ({
        channel: 'notification' as const,
        type: data.refused.length ? ('warning' as const) : ('success' as const),
        message: req.t(suspended ? 'notices.updated' : 'notices.adPendingReview'),
        ...(data.refused.length ? { description: req.t('media.upload.someRefused', { count: data.refused.length }) } : {}),
        data,
      }));
      return once.send(await receivePhotos({ app, req, visibility, commit: once.commit }, req.parts()));
    },
  );

  app.post(
    API.mediaDelete,
    { config: { auth: { verified: true } }, schema: { body: deleteMediaBodySchema, response: { 200: mediaChangeAnswerSchema } } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, async (adId: number, reader: Db) => ({
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('notices.photoDeleted'),
        data: { ad_id: adId, media: (await listAdPhotos(reader, adId)).map((m) => toImage(app.storage, m)) },
      }));
      const removed = await app.db.transaction(async (tx) => {
        const { ad, media } = await loadEditableMedia(tx, req.user, req.body.media_id, { forUpdate: true });
        await deletePhoto(tx, media);
        if (staffActsForOthers(req.user!, ad.ownerUserId, ad.publicistUserId)) {
          await recordAudit(tx, {
            actor: req.user,
            action: 'media.delete',
            subjectType: 'media',
            subjectId: media.id,
            before: { ad_id: ad.id, uid: media.uid, is_cover: media.isCover, position: media.position },
            req,
          });
        }
        await once.commit?.(tx, ad.id);
        return { adId: ad.id, uid: media.uid };
      });
      visibility.forget(removed.adId);
      // The row is gone, so nothing links to the files any more; a failure here leaves only unreachable bytes.
      await app.storage
        .remove(`ads/${removed.adId}/${removed.uid}`)
        .catch((err: unknown) => req.log.error({ err }, 'media: removing files failed'));
      return once.send(removed.adId);
    },
  );

  app.put(
    API.changeCover(':id'),
    { config: { auth: { verified: true } }, schema: { params: changeCoverParamsSchema, response: { 200: mediaChangeAnswerSchema } } },
    async (req, reply) => {
      const once = answerOnce(req, reply, 200, async (adId: number, reader: Db) => ({
        channel: 'notification' as const,
        type: 'success' as const,
        message: req.t('media.coverChanged'),
        data: { ad_id: adId, media: (await listAdPhotos(reader, adId)).map((m) => toImage(app.storage, m)) },
      }));
      const adId = await app.db.transaction(async (tx) => {
        const { ad, media } = await loadEditableMedia(tx, req.user, req.params.id, { forUpdate: true });
        if (media.isCover) {
          await once.commit?.(tx, ad.id);
          return ad.id;
        }
        const previous = (await listAdPhotos(tx, ad.id)).find((m) => m.isCover)?.id ?? null;
        await setCover(tx, ad.id, media.id);
        if (staffActsForOthers(req.user!, ad.ownerUserId, ad.publicistUserId)) {
          await recordAudit(tx, {
            actor: req.user,
            action: 'ad.change_cover',
            subjectType: 'ad',
            subjectId: ad.id,
            before: { cover_media_id: previous },
            after: { cover_media_id: media.id },
            req,
          });
        }
        await once.commit?.(tx, ad.id);
        return ad.id;
      });
      return once.send(adId);
    },
  );
};
