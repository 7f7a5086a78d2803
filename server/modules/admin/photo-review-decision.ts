/**
 * Staff decide a photo review request (issue 24 B7) from the photo queue. The request is the appeal of the automated
 * refusal's statement, so the decision is that appeal's outcome (decisions.ts decideAppeal, which settles the photo in
 * its transaction): approve = reversed, the photo joins the ad; reject = upheld, it stays refused.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { conflict, notFound } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { pendingAppealOf, photoReviewById } from '../photo-reviews/photo-reviews.ts';
import { decideAppeal } from './decisions.ts';

export async function decidePhotoReview(
  app: FastifyInstance,
  req: FastifyRequest,
  staff: SessionUser,
  reviewId: number,
  action: 'approve' | 'reject',
  text: string,
) {
  if (!(await photoReviewById(app.db, reviewId))) throw notFound();
  const appealId = await pendingAppealOf(app.db, reviewId);
  if (appealId === null) throw conflict(undefined, 'admin.decisionNotApplicable');
  await decideAppeal(app, req, staff, appealId, action === 'approve' ? 'reversed' : 'upheld', text);
  return (await photoReviewById(app.db, reviewId))!;
}
