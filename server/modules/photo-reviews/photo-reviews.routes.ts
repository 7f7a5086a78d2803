/**
 * A person's review of an automatically refused photo (issue 24 B7; the work in photo-reviews.ts):
 *   POST /api/photo-reviews                          `{ token }`: the owner asks (201; 200 when already asked)
 *   GET  /api/admin/photo-reviews                    staff: the requests (status=requested|decided|all)
 *   GET  /api/admin/photo-reviews/{id}/image         staff: the kept photo (private, never cached)
 * Staff decide a request with the other staff decisions (admin.routes.ts: POST /api/admin/photo-reviews/{id}/decision,
 * an appeal's outcome), so this module does not depend on the admin module, which depends on it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#contract/locations.ts';
import {
  adminPhotoReviewListSchema,
  photoReviewAnswerSchema,
  photoReviewQueueQuerySchema,
  photoReviewRequestSchema,
} from '#contract/photo-reviews.ts';
import { API } from '#contract/routes.ts';
import { ok } from '../../answers.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser } from '../../plugins/session.ts';
import { heldImage, photoReviewsPage, requestPhotoReview, type toPhotoReview } from './photo-reviews.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };

export const photoReviewsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    API.photoReviews,
    {
      config: { auth: { verified: true } },
      schema: { body: photoReviewRequestSchema, response: { 200: photoReviewAnswerSchema, 201: photoReviewAnswerSchema } },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const build = ({ review, created }: { review: ReturnType<typeof toPhotoReview>; created: boolean }) =>
        ok(req, created ? 'photoReviews.requested' : 'photoReviews.alreadyRequested', review);
      // 201 asked now, 200 asked before: the status is known only once the request ran, and is stored with the answer.
      const once = { 201: answerOnce(req, reply, 201, build), 200: answerOnce(req, reply, 200, build) };
      const out = await requestPhotoReview(app, req, user, req.body.token, async (tx, result) => {
        await once[result.created ? 201 : 200].commit?.(tx, result);
      });
      return once[out.created ? 201 : 200].send(out);
    },
  );

  app.get(
    API.adminPhotoReviews,
    { config: STAFF, schema: { querystring: photoReviewQueueQuerySchema, response: { 200: adminPhotoReviewListSchema } } },
    async (req) => photoReviewsPage(app.db, req.query),
  );

  // Kept photos live under `held/…`, which /media/* never serves: staff only, never cached.
  app.get(API.adminPhotoReviewImage(':id'), { config: STAFF, schema: { params: idParamsSchema } }, async (req, reply) => {
    const file = await heldImage(app.db, app.storage, req.params.id);
    return reply
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .type('image/webp')
      .header('content-length', file.size)
      .send(file.stream);
  });
};
