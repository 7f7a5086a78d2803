/**
 * Notifications (SPEC §3): one is stored in the recipient's language and broadcast on their private channel as
 * Laravel's BroadcastNotificationCreated, so Echo's `.notification()` shows it at once and the bell lists it. A change
 * stores its notification in its own transaction (`storeNotification(app, tx, …)`) and broadcasts it after the commit
 * (`publish()`); `notify()` does both for what has no transaction. Neither throws into the caller (a failure is
 * logged): the change itself has happened.
 */
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  NOTIFICATION_EVENT,
  NOTIFICATION_PLACEMENT,
  userPusherChannel,
  type Notification,
  type NotificationData,
  type NotificationKind,
  type NotificationType,
} from '#contract/notifications.ts';
import type { Db } from '../../db/client.ts';
import { notifications, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { pageMeta } from '../../answers.ts';
import { schedulePush } from '../push/push-delivery.ts';

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * Triggers through app.broadcaster, fire-and-forget as the protocol is (the database holds the truth; clients catch
 * up by fetching). `socketId`: the sender's socket (X-Socket-ID), left out as Echo's `toOthers` expects.
 */
export async function broadcast(app: FastifyInstance, channels: string[], event: string, data: unknown, socketId?: string): Promise<void> {
  if (!app.hasDecorator('broadcaster')) return;
  try {
    await app.broadcaster.trigger(channels, event, data, socketId ? { socketId } : undefined);
  } catch (err) {
    app.log.warn({ err, channels, event }, 'broadcast failed');
  }
}

/** How each kind is shown when the caller does not say. */
function defaultType(kind: NotificationKind): NotificationType {
  if (/\.(approved|reinstated|given|reversed)$/.test(kind)) return 'success';
  if (/\.(rejected|suspended|paused|removed|withdrawn)$/.test(kind)) return 'warning';
  return 'info';
}

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    type: row.type,
    message: row.message,
    description: row.description,
    placement: NOTIFICATION_PLACEMENT,
    read: row.readAt !== null,
    read_at: row.readAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    data: row.data,
  };
}

export interface NotifyInput {
  kind: NotificationKind;
  type?: NotificationType;
  /** Interpolated into `notifications.kinds.{kind}.message` / `.description`. */
  vars?: Record<string, string | number>;
  data?: NotificationData;
  /** false: stored and broadcast, never pushed (a saved search's daily digest arrives by e-mail). */
  push?: boolean;
}

/** A notification stored in a transaction that has not committed yet: `publish()` broadcasts it once it has. */
export interface PendingNotification {
  notification: Notification | null;
  publish(): Promise<void>;
}

const NOTHING: PendingNotification = { notification: null, publish: async () => {} };

async function insertNotification(app: FastifyInstance, db: Db, userId: number, input: NotifyInput): Promise<Notification | null> {
  const [user] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
  if (!user) return null;
  const t = app.tFor(user.locale);
  const vars = input.vars ?? {};
  const [row] = await db
    .insert(notifications)
    .values({
      userId,
      kind: input.kind,
      type: input.type ?? defaultType(input.kind),
      message: t(`notifications.kinds.${input.kind}.message`, vars),
      description: t(`notifications.kinds.${input.kind}.description`, { ...vars, defaultValue: '' }) || null,
      // The values too, so that the app can say it again in the language it is showing (contract: data.vars).
      data: { ...input.data, vars },
    })
    .returning();
  return toNotification(row!);
}

/**
 * Stores a notification for `userId` in `db`: the transaction of the change it tells about, so that both are committed
 * together (a crash right after the commit cannot lose it) or neither is. Under a savepoint: a failure is logged and
 * undone without undoing the change. Broadcast with `publish()` after the commit: a notification about a change that
 * then rolled back would be a lie.
 */
export async function storeNotification(app: FastifyInstance, db: Db, userId: number, input: NotifyInput): Promise<PendingNotification> {
  try {
    let pushed = false;
    const notification = await db.transaction(async (sp) => {
      const stored = await insertNotification(app, sp, userId, input);
      // The push to the user's devices is a job committed with the notification (issue 25): no push for a change
      // that rolled back, and one that survives a crash after the commit.
      if (stored && input.push !== false) pushed = await schedulePush(sp, { id: stored.id, userId, kind: stored.kind, data: stored.data });
      return stored;
    });
    if (!notification) return NOTHING;
    // Laravel's payload is the notification's data plus `id` and `type`: ours is the notification itself.
    return {
      notification,
      publish: async () => {
        if (pushed && app.hasDecorator('jobs')) app.jobs.poke();
        await broadcast(app, [userPusherChannel(userId)], NOTIFICATION_EVENT, notification);
      },
    };
  } catch (err) {
    app.log.error({ err, userId, kind: input.kind }, 'notification failed');
    return NOTHING;
  }
}

/** Stores and broadcasts a notification for `userId` with no change of its own to wait for; null when there is no such user or it failed (logged). */
export async function notify(app: FastifyInstance, userId: number, input: NotifyInput): Promise<Notification | null> {
  const pending = await storeNotification(app, app.db, userId, input);
  await pending.publish();
  return pending.notification;
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

export async function listNotifications(db: Db, userId: number, q: { page: number; per_page: number; unread?: '0' | '1' | undefined }) {
  const where = and(eq(notifications.userId, userId), q.unread === '1' ? isNull(notifications.readAt) : undefined);
  const [rows, [total], unread] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    db.select({ n: count() }).from(notifications).where(where),
    unreadCount(db, userId),
  ]);
  return {
    data: rows.map(toNotification),
    meta: { ...pageMeta(q.page, q.per_page, Number(total?.n ?? 0), rows.length), unread },
  };
}

/** Marks one of the user's notifications read (again is fine); another user's answers 404. */
export async function markRead(db: Db, userId: number, id: number): Promise<{ unread: number }> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  if (!row) throw notFound();
  await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(eq(notifications.id, id));
  return { unread: await unreadCount(db, userId) };
}

export async function markAllRead(db: Db, userId: number): Promise<{ unread: number }> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return { unread: 0 };
}

/** The user's unread notifications of a staff reply in one conversation. */
function unreadReplyNotifications(userId: number, conversationId: number) {
  return and(
    eq(notifications.userId, userId),
    eq(notifications.kind, 'support.reply'),
    isNull(notifications.readAt),
    sql`(${notifications.data} ->> 'conversation_id')::int = ${conversationId}`,
  );
}

/** Marks read the user's notifications of `kind` about one conversation (they have now seen the chat). */
export async function markConversationNotificationsRead(db: Db, userId: number, conversationId: number): Promise<void> {
  await db.update(notifications).set({ readAt: new Date() }).where(unreadReplyNotifications(userId, conversationId));
}

/** Whether the user has an unread notification of a staff reply in this conversation (one is enough in the bell). */
export async function hasUnreadReplyNotification(db: Db, userId: number, conversationId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(unreadReplyNotifications(userId, conversationId))
    .limit(1);
  return !!row;
}
