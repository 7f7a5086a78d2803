import { z } from 'zod';
import { intParam } from './params.ts';
import { paginationMetaSchema } from './listings.ts';

/**
 * Notifications (SPEC §3: id, type, message, description, placement, read) and the channel authorization calls.
 *
 * Every event a user should hear about is stored (the bell menu lists them) and broadcast on the user's private
 * channel `private-App.Models.User.{id}` as Laravel's `BroadcastNotificationCreated`, so Echo's
 * `.private(userChannel(id)).notification(cb)` receives it. As Laravel does, the broadcast payload is the
 * notification's fields plus `id` and `type`: here it is exactly `notificationSchema`, so the client can show it as
 * the spec's notification (one at a time, 4.5 s, top right) and prepend it to the bell list without a fetch.
 * `message` and `description` are already translated into the recipient's language.
 */

/** What happened; the client may pick an icon by it. Messages are translated on the server. */
export const NOTIFICATION_KINDS = [
  'ad.approved',
  'ad.rejected',
  'ad.suspended',
  'ad.paused',
  'ad.reinstated',
  'model_profile.approved',
  'model_profile.rejected',
  'model_profile.suspended',
  'model_profile.paused',
  'model_profile.reinstated',
  'publicist_profile.approved',
  'publicist_profile.rejected',
  'publicist_profile.suspended',
  'publicist_profile.paused',
  'publicist_profile.reinstated',
  'verification.approved',
  'verification.rejected',
  'media.approved',
  'media.removed',
  'account.suspended',
  'account.reinstated',
  'statement.issued',
  'appeal.upheld',
  'appeal.reversed',
  /** A person's review of an automated photo refusal (recorded as an appeal): the photo joins the ad, or stays refused. */
  'photo_review.approved',
  'photo_review.rejected',
  'consent.given',
  'consent.withdrawn',
  'support.reply',
  /** New ads for a saved search, bundled (at most one a day per search); `data.link` opens the listing at them. */
  'saved_search',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * What a notification changed, so an open screen refreshes without a reload. On receipt the client invalidates:
 * - `session`: the current-user query (account status, e.g. suspended → the restricted view);
 * - `model_profile`: the model's profile (GET /api/profile/model) and its status card on the dashboard;
 * - `ads`: the user's ads and their galleries/photos (ad status, cover, removed photos);
 * - `publicist_profile`: the publicist's profile;
 * - `publicist_models`: the publicist's list of models (consent state of a model);
 * - `statements`: the statements list and the statement `data.statement_id` (appeal state);
 * - `support_chat`: the conversations list and unread counts.
 */
export const REFRESH_SCOPES = [
  'session',
  'model_profile',
  'ads',
  'publicist_profile',
  'publicist_models',
  'statements',
  'support_chat',
] as const;
export type RefreshScope = (typeof REFRESH_SCOPES)[number];

export const NOTIFICATION_TYPES = ['success', 'info', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_PLACEMENT = 'top-right';

export const notificationDataSchema = z.object({
  /** Language-neutral path to open (the PWA prefixes /{lng}), e.g. `/statements/12` or `/messenger/5`. */
  link: z.string().optional(),
  subject_type: z.string().optional(),
  subject_id: z.number().int().optional(),
  /** The subject's status after the event (e.g. `active`, `rejected`), when it has one. */
  status: z.string().optional(),
  statement_id: z.number().int().optional(),
  conversation_id: z.number().int().optional(),
  refresh: z.array(z.enum(REFRESH_SCOPES)).optional(),
  /**
   * What `message` and `description` were made of (`notifications.kinds.{kind}.*` with these values): the app shows
   * them in the language it is in, which need not be the one the account was created in (the stored texts).
   */
  vars: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** SPEC §3 `type`: how the notification is shown. */
  type: z.enum(NOTIFICATION_TYPES),
  message: z.string(),
  description: z.string().nullable(),
  placement: z.literal(NOTIFICATION_PLACEMENT),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  data: notificationDataSchema,
});
export type Notification = z.infer<typeof notificationSchema>;

export const NOTIFICATIONS_PER_PAGE = 20;

export const notificationsQuerySchema = z
  .object({
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 50).optional().default(NOTIFICATIONS_PER_PAGE),
    /** `1`: unread only. */
    unread: z.enum(['0', '1']).optional(),
  })
  .strict();

export const notificationListSchema = z.object({
  data: z.array(notificationSchema),
  meta: paginationMetaSchema.extend({ unread: z.number().int() }),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** `data` of the answer envelope of mark-read and mark-all-read: the unread count after the change. */
export const notificationReadDataSchema = z.object({ unread: z.number().int() });

/** Echo's event name for notifications (full name: listen with `.notification()`). */
export const NOTIFICATION_EVENT = 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated';
/** The broadcast payload: the notification itself (Laravel: the notification's fields plus id and type). */
export const notificationBroadcastSchema = notificationSchema;

/** Echo channel name of a user's private channel (`Echo.private(userChannel(id))`). */
export const userChannel = (userId: number | string) => `App.Models.User.${userId}`;
/** The same as the Pusher protocol names it (subscribe / auth / trigger). */
export const userPusherChannel = (userId: number | string) => `private-${userChannel(userId)}`;

/**
 * Channel authorization (`POST /broadcasting/auth`) and user authentication (`POST /broadcasting/user-auth`), as
 * pusher-js posts them: form-encoded, with the session cookie, `X-XSRF-TOKEN`, `X-Requested-With` and, when a token
 * is configured, `Authorization: Bearer`. The signatures follow the Pusher spec.
 */
export const broadcastingAuthBodySchema = z.object({
  socket_id: z.string().regex(/^\d{1,20}\.\d{1,20}$/),
  channel_name: z.string().min(1).max(164),
});
export const broadcastingUserAuthBodySchema = z.object({ socket_id: z.string().regex(/^\d{1,20}\.\d{1,20}$/) });
export const channelAuthAnswerSchema = z.object({ auth: z.string(), channel_data: z.string().optional() });
export const userAuthAnswerSchema = z.object({ auth: z.string(), user_data: z.string() });
/** `user_info` of a member of `presence-support.staff` (and of a signed-in socket). */
export const presenceUserInfoSchema = z.object({ name: z.string(), role: z.string() });
export type PresenceUserInfo = z.infer<typeof presenceUserInfoSchema>;
