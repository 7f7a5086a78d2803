/**
 * The events a user hears about, as notifications: staff decisions on their ads, profiles, photos, verification or
 * account (with the statement of reasons of a restriction), an appeal decided, a model's consent given or withdrawn
 * (to the publicist). The modules that make those changes call these inside their transaction (`db`: the notification
 * is stored with the change) and broadcast the answer's `publish()` after the commit. `data.refresh` tells an open
 * dashboard what to fetch again, so an admin's decision shows there without a reload.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DecisionAction, DecisionSubject } from '#contract/admin.ts';
import type { NotificationKind, RefreshScope } from '#contract/notifications.ts';
import { dashboardFor, type Role } from '#contract/roles.ts';
import { ads, modelProfiles, publicistProfiles, users } from '../../db/schema.ts';
import { recipientFor } from '../statements/statements.ts';
import { subjectLabel } from '../statements/statement-views.ts';
import type { Db } from '../../db/client.ts';
import { storeNotification, type PendingNotification } from './notifications.ts';

const NOTHING: PendingNotification = { notification: null, publish: async () => {} };

const PAST: Record<DecisionAction, string> = {
  approve: 'approved',
  reject: 'rejected',
  suspend: 'suspended',
  pause: 'paused',
  reinstate: 'reinstated',
  remove: 'removed',
};

/** What a change to each kind of subject may have changed on the recipient's screens. */
const REFRESH: Record<DecisionSubject, RefreshScope[]> = {
  ad: ['ads', 'model_profile', 'publicist_models'],
  model_profile: ['model_profile', 'ads', 'publicist_models'],
  publicist_profile: ['publicist_profile'],
  verification: ['model_profile', 'publicist_models'],
  media: ['ads'],
  user: ['session'],
};

function kindOf(subject: DecisionSubject, action: DecisionAction): NotificationKind | null {
  const kind = subject === 'user' ? `account.${PAST[action]}` : `${subject}.${PAST[action]}`;
  // A photo kept in review is no news to its owner: it simply stays.
  if (kind === 'media.approved') return null;
  return kind as NotificationKind;
}

async function roleOf(db: Db, userId: number): Promise<Role | null> {
  const [u] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return u?.role ?? null;
}

/**
 * Why an approved (or reinstated) ad is still not listed, as the i18next context of the notice's description
 * (issue 24 point 12: "approved" must not read "shown in the catalogue" when it is not); undefined when it is listed.
 * Read in the decision's transaction, after the ads trigger has derived `is_listed`.
 */
export async function listingGap(db: Db, adId: number, role: Role | null): Promise<string | undefined> {
  const [row] = await db
    .select({
      isListed: ads.isListed,
      isActive: ads.isActive,
      status: ads.status,
      profile: modelProfiles.status,
      consent: modelProfiles.consentStatus,
    })
    .from(ads)
    .innerJoin(modelProfiles, eq(modelProfiles.id, ads.modelProfileId))
    .where(eq(ads.id, adId));
  if (!row || row.isListed) return undefined;
  if (row.status !== 'active') return 'hidden';
  if (row.profile === 'unverified' || row.profile === 'rejected') return role === 'publicist' ? 'unverifiedAgency' : 'unverified';
  if (row.profile === 'pending') return 'verificationPending';
  if (row.profile !== 'active') return 'hidden';
  if (!row.isActive) return 'off';
  if (row.consent === 'pending' || row.consent === 'withdrawn') return 'consent';
  return 'hidden';
}

/** The i18next context of a decision's notice, when its wording depends on more than the decision. */
async function contextOf(db: Db, e: DecisionEvent, role: Role | null): Promise<string | undefined> {
  // A client has no ads: the account's texts have a `_client` wording that does not mention them.
  if (e.subjectType === 'user') return role === 'client' ? 'client' : undefined;
  if (e.subjectType === 'ad' && (e.action === 'approve' || e.action === 'reinstate')) return listingGap(db, e.subjectId, role);
  return undefined;
}

export interface DecisionEvent {
  subjectType: DecisionSubject;
  subjectId: number;
  action: DecisionAction;
  /** The subject's status after the decision, when it has one. */
  status?: string | undefined;
  statementId?: number | null | undefined;
  /** Who is told, when the caller found it before the change (a removed photo has no row to follow afterwards). */
  recipientId?: number | null | undefined;
  /** A label found before the change (same reason). */
  label?: string | null | undefined;
}

export async function notifyDecision(app: FastifyInstance, e: DecisionEvent, db: Db = app.db): Promise<PendingNotification> {
  const kind = kindOf(e.subjectType, e.action);
  if (!kind) return NOTHING;
  try {
    const recipientId = e.recipientId ?? (await recipientFor(db, e.subjectType, e.subjectId))?.id ?? null;
    if (recipientId === null) return NOTHING;
    const role = await roleOf(db, recipientId);
    const label = e.label ?? (await subjectLabel(db, e.subjectType, e.subjectId)) ?? '';
    const context = await contextOf(db, e, role);
    return await storeNotification(app, db, recipientId, {
      kind,
      vars: { label, ...(context ? { context } : {}) },
      data: {
        link: e.statementId ? `/statements/${e.statementId}` : role ? dashboardFor(role) : undefined,
        subject_type: e.subjectType,
        subject_id: e.subjectId,
        ...(e.status ? { status: e.status } : {}),
        ...(e.statementId ? { statement_id: e.statementId } : {}),
        refresh: [...REFRESH[e.subjectType], ...(e.statementId ? (['statements'] as const) : [])],
      },
    });
  } catch (err) {
    app.log.error({ err, event: e }, 'decision notification failed');
    return NOTHING;
  }
}

export interface AppealEvent {
  recipientId: number;
  outcome: 'upheld' | 'reversed';
  statementId: number;
  /** `photo_review`: a person's review of an automated refusal, which is recorded as an appeal (issue 24 B7). */
  subjectType: DecisionSubject | 'photo_review';
  subjectId: number;
  status?: string | undefined;
}

export async function notifyAppealDecided(app: FastifyInstance, e: AppealEvent, db: Db = app.db): Promise<PendingNotification> {
  const label = (await subjectLabel(db, e.subjectType, e.subjectId).catch(() => null)) ?? '';
  return storeNotification(app, db, e.recipientId, {
    // A review of an automated photo refusal says what became of the photo, not of "the decision".
    kind: e.subjectType === 'photo_review' ? `photo_review.${e.outcome === 'reversed' ? 'approved' : 'rejected'}` : `appeal.${e.outcome}`,
    vars: { label },
    data: {
      link: `/statements/${e.statementId}`,
      subject_type: e.subjectType,
      subject_id: e.subjectId,
      statement_id: e.statementId,
      ...(e.status ? { status: e.status } : {}),
      refresh: ['statements', ...(e.outcome === 'reversed' ? REFRESH[e.subjectType === 'photo_review' ? 'media' : e.subjectType] : [])],
    },
  });
}

export interface ConsentEvent {
  /** The publicist profile that asked for the consent. */
  publicistId: number;
  modelProfileId: number;
  given: boolean;
}

/** To the publicist: the model they listed agreed, declined or withdrew (declining and withdrawing read alike). */
export async function notifyConsent(app: FastifyInstance, e: ConsentEvent, db: Db = app.db): Promise<PendingNotification> {
  try {
    const [p] = await db
      .select({ userId: publicistProfiles.userId })
      .from(publicistProfiles)
      .where(eq(publicistProfiles.id, e.publicistId));
    if (!p) return NOTHING;
    const label = (await subjectLabel(db, 'model_profile', e.modelProfileId)) ?? '';
    return await storeNotification(app, db, p.userId, {
      kind: e.given ? 'consent.given' : 'consent.withdrawn',
      vars: { label },
      data: {
        link: '/profile/publicist',
        subject_type: 'model_profile',
        subject_id: e.modelProfileId,
        status: e.given ? 'given' : 'withdrawn',
        refresh: ['publicist_models'],
      },
    });
  } catch (err) {
    app.log.error({ err, event: e }, 'consent notification failed');
    return NOTHING;
  }
}
