/**
 * Staff decisions (issue 6 points 3, 4, 7): approve / reject / suspend / pause / reinstate an ad, a model profile or a
 * publicist profile; approve / reject a verification request (approval makes the model's profile active, SPEC §4
 * "Verificado"); keep (approve: it leaves the photo queue) or remove a photo. One transaction per decision: the row is locked and changed, every restriction stores
 * a statement of reasons, and the audit log gets the before/after. Every mail a decision calls for (the statement, the
 * reinstatement, the appeal's outcome) is queued in the decision's transaction (modules/jobs/mail-job.ts): a decision
 * that commits is certain to be mailed, even if the process dies right after the commit. Status changes reach the
 * listings through the ads trigger (`ads.is_listed`).
 *
 * An account (`user`: client, model or publicist) can be suspended and reinstated: suspension restricts every session
 * of the account to a restricted view (plugins/session.ts: the statement, the appeal, support, the public pages),
 * ends its websockets and unlists its content (the ads trigger reads the owner's and the agency owner's account
 * status, migration 0012); reinstatement lifts it and the content is listed again as it was.
 *
 * Appeals are decided by a person: `upheld` keeps the decision, `reversed` restores the state before it (read from
 * the decision's audit entry, which names the statement) — or, for a rejection, approves the item.
 */
import { removeAllDevices } from '../push/push-subscriptions.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESTRICTIONS, REVIEW_EVENTS, SUSPENDABLE_ROLES, type DecisionAction, type DecisionValues } from '#contract/admin.ts';
import { STAFF_PUSHER_CHANNEL } from '#contract/support-chat.ts';
import type { StatementDecision } from '#contract/statements.ts';
import type { Db } from '../../db/client.ts';
import {
  ads,
  appeals,
  auditLog,
  media,
  modelProfiles,
  publicistProfiles,
  statements,
  users,
  verificationRequests,
} from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { decidedMeanwhile } from './decided-meanwhile.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { recordAudit } from '../audit/audit.ts';
import { deletePhoto } from '../media/media.repository.ts';
import { acceptAfterAppeal, isRemovedListStatement, listRemovedHashes } from '../media/photo-hashes.ts';
import { notifyAppealDecided, notifyDecision } from '../notifications/events.ts';
import { settlePhotoReview } from '../photo-reviews/photo-reviews.ts';
import { broadcast, type PendingNotification } from '../notifications/notifications.ts';
import {
  describeSubject,
  issueStatement,
  recipientFor,
  sendAccountReinstatedMail,
  sendAppealDecidedMail,
  type IssuedStatement,
  type Recipient,
} from '../statements/statements.ts';

type Status = (typeof ads.$inferSelect)['status'];

/** The status each action leads to. */
const STATUS_AFTER: Record<Exclude<DecisionAction, 'remove'>, Status> = {
  approve: 'active',
  reject: 'rejected',
  suspend: 'suspended',
  pause: 'paused',
  reinstate: 'active',
};

const STATEMENT_DECISION: Partial<Record<DecisionAction, StatementDecision>> = {
  reject: 'rejected',
  suspend: 'suspended',
  pause: 'paused',
  remove: 'removed',
};

export interface DecisionResult {
  subject_type: DecisionValues['subject_type'];
  subject_id: number;
  action: DecisionAction;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  statement_id: number | null;
}

const refusedAction = () => conflict(undefined, 'admin.decisionNotApplicable');

export async function applyDecision(
  app: FastifyInstance,
  req: FastifyRequest,
  staff: SessionUser,
  input: DecisionValues,
): Promise<DecisionResult> {
  const restriction = RESTRICTIONS.includes(input.action);
  let issued: IssuedStatement | null = null;
  let removedFiles: string | null = null;
  let reinstated: (Recipient & { role: string }) | null = null;
  let suspendedUser: number | null = null;
  let notice: PendingNotification | null = null;

  const result = await app.db.transaction(async (tx) => {
    let before: Record<string, unknown>;
    let after: Record<string, unknown>;
    let automatedDetail: Record<string, unknown> | null = null;
    // The recipient and the subject's names are found before the change (a removed photo has no row to follow afterwards).
    const recipient = restriction ? await recipientFor(tx, input.subject_type, input.subject_id) : null;
    const about = recipient ? await describeSubject(tx, input.subject_type, input.subject_id) : null;
    // Removed stays removed (issue 29): a photo or ad taken down for stolen or illegal content leaves its hashes behind.
    await listRemovedHashes(tx, {
      subjectType: input.subject_type,
      subjectId: input.subject_id,
      action: input.action,
      reasonCodes: input.reason_codes,
    });

    switch (input.subject_type) {
      case 'ad': {
        const [row] = await tx.select().from(ads).where(eq(ads.id, input.subject_id)).for('update');
        if (!row) throw notFound();
        if (input.from_queue && row.status !== 'pending') throw await decidedMeanwhile(tx, 'ad', row.id);
        const status = STATUS_AFTER[input.action as keyof typeof STATUS_AFTER];
        before = { status: row.status, is_listed: row.isListed };
        const [updated] = await tx
          .update(ads)
          .set({ status, updatedAt: new Date() })
          .where(eq(ads.id, row.id))
          .returning({ status: ads.status, isListed: ads.isListed });
        after = { status: updated!.status, is_listed: updated!.isListed };
        break;
      }
      case 'model_profile': {
        const [row] = await tx.select().from(modelProfiles).where(eq(modelProfiles.id, input.subject_id)).for('update');
        if (!row) throw notFound();
        const status = STATUS_AFTER[input.action as keyof typeof STATUS_AFTER];
        before = { status: row.status };
        await tx
          .update(modelProfiles)
          .set({
            status,
            reasons: restriction ? { codes: input.reason_codes, text: input.text } : null,
            version: row.version + 1,
            updatedAt: new Date(),
          })
          .where(eq(modelProfiles.id, row.id));
        after = { status };
        break;
      }
      case 'publicist_profile': {
        const [row] = await tx.select().from(publicistProfiles).where(eq(publicistProfiles.id, input.subject_id)).for('update');
        if (!row) throw notFound();
        const status = STATUS_AFTER[input.action as keyof typeof STATUS_AFTER];
        before = { status: row.status };
        await tx
          .update(publicistProfiles)
          .set({
            status,
            reasons: restriction ? { codes: input.reason_codes, text: input.text } : null,
            version: row.version + 1,
            updatedAt: new Date(),
          })
          .where(eq(publicistProfiles.id, row.id));
        after = { status };
        break;
      }
      case 'verification': {
        const [row] = await tx.select().from(verificationRequests).where(eq(verificationRequests.id, input.subject_id)).for('update');
        if (!row) throw notFound();
        if (row.status !== 'pending') throw await decidedMeanwhile(tx, 'verification', row.id);
        const [profile] = await tx.select().from(modelProfiles).where(eq(modelProfiles.id, row.modelProfileId)).for('update');
        const approved = input.action === 'approve';
        const profileStatus: Status = approved ? 'active' : 'rejected';
        before = { status: row.status, profile_status: profile!.status };
        await tx
          .update(verificationRequests)
          .set({
            status: approved ? 'approved' : 'rejected',
            decidedAt: new Date(),
            decidedBy: staff.id,
            reasons: approved ? null : { codes: input.reason_codes, text: input.text },
          })
          .where(eq(verificationRequests.id, row.id));
        await tx
          .update(modelProfiles)
          .set({
            status: profileStatus,
            reasons: approved ? null : { codes: input.reason_codes, text: input.text },
            version: profile!.version + 1,
            updatedAt: new Date(),
          })
          .where(eq(modelProfiles.id, profile!.id));
        after = { status: approved ? 'approved' : 'rejected', profile_status: profileStatus, model_profile_id: profile!.id };
        break;
      }
      case 'media': {
        const [row] = await tx.select().from(media).where(eq(media.id, input.subject_id));
        if (!row) {
          // A photo a colleague removed from the queue meanwhile is gone, but its audit entry says who removed it.
          if (
            input.from_queue &&
            (
              await tx
                .select({ id: auditLog.id })
                .from(auditLog)
                .where(
                  and(eq(auditLog.subjectType, 'media'), eq(auditLog.subjectId, input.subject_id), eq(auditLog.action, 'media.remove')),
                )
                .limit(1)
            ).length
          )
            throw await decidedMeanwhile(tx, 'media', input.subject_id);
          throw notFound();
        }
        if (input.from_queue && row.reviewedAt) throw await decidedMeanwhile(tx, 'media', row.id);
        if (input.action === 'approve') {
          // Kept: the photo leaves the review queue; nothing changes for the model.
          before = { reviewed_at: row.reviewedAt?.toISOString() ?? null };
          const [kept] = await tx
            .update(media)
            .set({ reviewedAt: new Date(), reviewedBy: staff.id })
            .where(eq(media.id, row.id))
            .returning({ reviewedAt: media.reviewedAt });
          after = { reviewed_at: kept!.reviewedAt!.toISOString(), ad_id: row.adId };
          break;
        }
        // Lock the ad: photo changes on one ad queue up behind each other (as in the media module).
        await tx.select({ id: ads.id }).from(ads).where(eq(ads.id, row.adId)).for('update');
        before = { ad_id: row.adId, uid: row.uid, is_cover: row.isCover, position: row.position, moderation: row.moderation ?? null };
        await deletePhoto(tx, row);
        after = { removed: true, ad_id: row.adId };
        removedFiles = `ads/${row.adId}/${row.uid}`;
        if (row.moderation) automatedDetail = { moderation: { provider: row.moderation.provider, scores: row.moderation.scores } };
        break;
      }
      case 'user': {
        const [row] = await tx.select().from(users).where(eq(users.id, input.subject_id)).for('update');
        if (!row) throw notFound();
        if (!(SUSPENDABLE_ROLES as readonly string[]).includes(row.role)) throw forbidden('admin.accountNotSuspendable');
        const suspending = input.action === 'suspend';
        if (suspending === (row.status === 'suspended')) throw refusedAction();
        // Back to what the account was before, as far as the account tells: verified or not.
        const status: Status = suspending ? 'suspended' : row.emailVerifiedAt ? 'active' : 'unverified';
        before = { status: row.status };
        await tx.update(users).set({ status, updatedAt: new Date() }).where(eq(users.id, row.id));
        after = { status };
        if (suspending) {
          // The sessions stay: every device is now signed in to the restricted view only (plugins/session.ts checks
          // the account's status on each request), so the person reads at once why and how to appeal instead of
          // being signed out without a word (issue 24 point 11).
          suspendedUser = row.id;
          // But no device hears anything more: the phone of an account taken down is not reached (issue 25).
          await removeAllDevices(app, tx, row.id, 'suspended');
        } else {
          reinstated = { id: row.id, name: row.name, email: row.email, locale: row.locale, role: row.role };
          await sendAccountReinstatedMail(tx, app, reinstated, input.text);
        }
        break;
      }
    }

    if (restriction) {
      issued = await issueStatement(tx, app, {
        subjectType: input.subject_type,
        subjectId: input.subject_id,
        decision: STATEMENT_DECISION[input.action]!,
        reasonCodes: input.reason_codes,
        facts: input.text,
        automated: false,
        automatedDetail,
        decidedBy: staff.id,
        recipient,
        about,
      });
      after = { ...after, statement_id: issued.statement.id };
    }
    await recordAudit(tx, {
      actor: staff,
      action: `${input.subject_type}.${input.action}`,
      subjectType: input.subject_type,
      subjectId: input.subject_id,
      before,
      after,
      reason: input.reason_codes.length || input.text ? { codes: input.reason_codes, text: input.text } : null,
      req,
    });
    // Stored with the decision (broadcast after the commit, below).
    notice = await notifyDecision(
      app,
      {
        subjectType: input.subject_type,
        subjectId: input.subject_id,
        action: input.action,
        status: typeof after.status === 'string' ? after.status : undefined,
        statementId: issued?.statement.id ?? null,
        recipientId: issued?.recipient?.id ?? reinstated?.id ?? null,
      },
      tx,
    );
    return { before, after };
  });

  // The notice first (its `session` refresh brings an open page to the restricted view at once), then the account's
  // open websockets end (after the commit): a suspended account hears nothing more.
  await (notice as PendingNotification | null)?.publish();
  if (suspendedUser !== null) await app.broadcaster.terminateUserConnections(String(suspendedUser));
  if (removedFiles) await app.storage.remove(removedFiles).catch((err: unknown) => req.log.error({ err }, 'admin: removing files failed'));
  await announceReviewed(app, input.subject_type, input.subject_id);
  return {
    subject_type: input.subject_type,
    subject_id: input.subject_id,
    action: input.action,
    before: result.before,
    after: result.after,
    statement_id: (issued as IssuedStatement | null)?.statement.id ?? null,
  };
}

/**
 * Tells every open staff screen that an item was decided (issue 29): the review queues refetch, so an item a
 * colleague took leaves the others' queues as it happens instead of at their next key. Names nothing but the item
 * (the staff presence channel, members staff only); best effort, as every broadcast.
 */
async function announceReviewed(app: FastifyInstance, subjectType: string, subjectId: number): Promise<void> {
  await broadcast(app, [STAFF_PUSHER_CHANNEL], REVIEW_EVENTS.decided, { subject_type: subjectType, subject_id: subjectId });
}

/** The audit entry of the decision that produced statement `statementId` (its `before` is what a reversal restores). */
async function decisionEntry(db: Db, statementId: number) {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(sql`${auditLog.after} ->> 'statement_id' = ${String(statementId)}`)
    .limit(1);
  return row ?? null;
}

export async function decideAppeal(
  app: FastifyInstance,
  req: FastifyRequest,
  staff: SessionUser,
  appealId: number,
  outcome: 'upheld' | 'reversed',
  text: string,
) {
  const out = await app.db.transaction(async (tx) => {
    const [appeal] = await tx.select().from(appeals).where(eq(appeals.id, appealId)).for('update');
    if (!appeal) throw notFound();
    if (appeal.status !== 'pending') throw conflict(undefined, 'admin.appealDecided');
    const [statement] = await tx.select().from(statements).where(eq(statements.id, appeal.statementId));
    const restored: Record<string, unknown> = {};
    // A review request of an automated photo refusal (issue 24 B7): reversed lists the kept photo, upheld removes it.
    const afterCommit =
      statement!.subjectType === 'photo_review'
        ? await settlePhotoReview(tx, app, req, staff, statement!.subjectId, outcome === 'reversed', restored)
        : null;
    if (outcome === 'reversed') {
      const entry = await decisionEntry(tx, statement!.id);
      const previous = (entry?.before ?? {}) as { status?: Status; profile_status?: Status };
      // A rejection found wrong on appeal is an approval (the person deciding has just reviewed the content): the
      // item goes live instead of back to the review queue it came from. Other restrictions restore what was before.
      if (statement!.decision === 'rejected' && previous.status) previous.status = 'active';
      const id = statement!.subjectId;
      switch (statement!.subjectType) {
        case 'ad':
          if (previous.status) {
            await tx.update(ads).set({ status: previous.status, updatedAt: new Date() }).where(eq(ads.id, id));
            restored.status = previous.status;
          }
          break;
        case 'model_profile':
          if (previous.status) {
            await tx
              .update(modelProfiles)
              .set({ status: previous.status, reasons: null, version: sql`${modelProfiles.version} + 1`, updatedAt: new Date() })
              .where(eq(modelProfiles.id, id));
            restored.status = previous.status;
          }
          break;
        case 'publicist_profile':
          if (previous.status) {
            await tx
              .update(publicistProfiles)
              .set({ status: previous.status, reasons: null, version: sql`${publicistProfiles.version} + 1`, updatedAt: new Date() })
              .where(eq(publicistProfiles.id, id));
            restored.status = previous.status;
          }
          break;
        case 'verification': {
          // Reversing a rejected verification is approving it: the profile becomes active.
          const [v] = await tx
            .update(verificationRequests)
            .set({ status: 'approved', decidedAt: new Date(), decidedBy: staff.id, reasons: null })
            .where(eq(verificationRequests.id, id))
            .returning({ profileId: verificationRequests.modelProfileId });
          if (v) {
            await tx
              .update(modelProfiles)
              .set({ status: 'active', reasons: null, version: sql`${modelProfiles.version} + 1`, updatedAt: new Date() })
              .where(eq(modelProfiles.id, v.profileId));
            restored.status = 'approved';
            restored.profile_status = 'active';
          }
          break;
        }
        case 'user':
          // The account as it was before the suspension (the ads trigger lists its content again).
          if (previous.status) {
            await tx.update(users).set({ status: previous.status, updatedAt: new Date() }).where(eq(users.id, id));
            restored.status = previous.status;
          }
          break;
        case 'media': {
          // The automated removed-list refusal withheld a photo that is still stored: the reversal keeps it (issue 29).
          const accepted = isRemovedListStatement(statement!) ? await acceptAfterAppeal(tx, id, staff.id) : null;
          if (accepted) {
            restored.photo = 'accepted';
            restored.removed_list_entries = accepted.unlisted;
          } else {
            // The files are gone: the user is told they may upload the photo again.
            restored.photo = 'may_upload_again';
          }
          break;
        }
        default:
          break;
      }
    }
    await tx
      .update(appeals)
      .set({ status: outcome, decisionText: text, decidedBy: staff.id, decidedAt: new Date() })
      .where(and(eq(appeals.id, appeal.id), eq(appeals.status, 'pending')));
    await recordAudit(tx, {
      actor: staff,
      action: `appeal.${outcome}`,
      subjectType: 'appeal',
      subjectId: appeal.id,
      before: { status: 'pending' },
      after: {
        status: outcome,
        statement_id: statement!.id,
        subject_type: statement!.subjectType,
        subject_id: statement!.subjectId,
        restored,
      },
      reason: { text },
      req,
    });
    const recipient = appeal.userId ? await recipientFor(tx, 'user', appeal.userId) : null;
    if (recipient) await sendAppealDecidedMail(tx, app, recipient, statement!, outcome, text);
    // Stored with the outcome, broadcast after the commit.
    const notice = recipient
      ? await notifyAppealDecided(
          app,
          {
            recipientId: recipient.id,
            outcome,
            statementId: statement!.id,
            subjectType: statement!.subjectType,
            subjectId: statement!.subjectId,
            status: typeof restored.status === 'string' ? restored.status : undefined,
          },
          tx,
        )
      : null;
    return { statement: statement!, recipient, restored, notice, afterCommit };
  });
  await out.afterCommit?.();
  await out.notice?.publish();
  await announceReviewed(app, 'appeal', appealId);
  return { statement: out.statement, recipient: out.recipient, restored: out.restored };
}
