/**
 * Sending Web Push (issue 25). A push is a durable job scheduled in the transaction that stores the notification it
 * announces (`schedulePush`, called by notifications.ts storeNotification and by the support chat for a further reply):
 * a rollback sends nothing, a crash after the commit still sends, and with several processes the job runner's claim
 * makes it one send per notification and device, not one per node. The committing process pokes its runner so that
 * the push does not wait for the next poll.
 *
 * When the job runs it looks again: a notification already read, or a conversation whose replies were all read, is
 * not pushed (nothing for what the user already saw); nor is a category the user switched off. The payload is built
 * in the user's language (contract/push.ts pushPayloadSchema), encrypted (RFC 8291) and signed (VAPID) by web-push,
 * and sent to each device only if its endpoint is still on the allowed origins. A device that is gone (404/410) is
 * removed; one that failed for a while (429, 5xx, network) is retried on its own (`push-retry`), so the others are
 * never sent the same push twice.
 */
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import webpush, { WebPushError } from 'web-push';
import { toLanguage } from '#contract/languages.ts';
import type { NotificationData, NotificationKind } from '#contract/notifications.ts';
import { chatPushTopic, endpointAllowed, pushCategoryOf, PUSH_TTL_SECONDS, PUSH_URGENCY, type PushPayload } from '#contract/push.ts';
import { API } from '#contract/routes.ts';
import type { Db } from '../../db/client.ts';
import { notifications, pushSubscriptions, supportConversations, supportMessages, users } from '../../db/schema.ts';
import { scheduleJob } from '../jobs/jobs.ts';
import { preferencesFor } from './push-subscriptions.ts';

export const PUSH_JOB = 'push';
export const PUSH_RETRY_JOB = 'push-retry';
/** A device that keeps failing is given up after this many tries (with the runner's back-off: about 30 minutes). */
export const PUSH_RETRY_ATTEMPTS = 6;
/** Devices sent to at once (a user with many devices; the benchmark's 1,000). */
const CONCURRENCY = 50;
const SEND_TIMEOUT_MS = 10_000;
const EXCERPT = 120;

type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** One pending push per conversation (later replies replace it: the push says how many), else per notification. */
function jobKey(notificationId: number, data: NotificationData | undefined, kind: string): string {
  return kind === 'support.reply' && data?.conversation_id ? `push:chat:${data.conversation_id}` : `push:n:${notificationId}`;
}

/** Schedules the push of a stored notification in `db` (the change's transaction); nothing when the user has no device. */
export async function schedulePush(
  db: Db,
  n: { id: number; userId: number; kind: string; data?: NotificationData | undefined },
): Promise<boolean> {
  const [device] = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, n.userId))
    .limit(1);
  if (!device) return false;
  await scheduleJob(db, {
    name: PUSH_JOB,
    key: jobKey(n.id, n.data, n.kind),
    payload: { notification_id: n.id },
    maxAttempts: 3,
    onConflict: 'replace',
  });
  return true;
}

/** The unread replies of a conversation and the latest one's text. */
async function unreadReplies(db: Db, conversationId: number): Promise<{ count: number; latest: string | null }> {
  const rows = await db
    .select({ content: supportMessages.content })
    .from(supportMessages)
    .where(and(eq(supportMessages.conversationId, conversationId), eq(supportMessages.isStaff, true), isNull(supportMessages.readAt)))
    .orderBy(desc(supportMessages.seq));
  return { count: rows.length, latest: rows[0]?.content ?? null };
}

/** The app badge: unread notifications plus unread support replies. */
async function badgeCount(db: Db, userId: number): Promise<number> {
  const [[n], [m]] = await Promise.all([
    db
      .select({ n: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt))),
    db
      .select({ n: count() })
      .from(supportMessages)
      .innerJoin(supportConversations, eq(supportConversations.id, supportMessages.conversationId))
      .where(and(eq(supportConversations.userId, userId), eq(supportMessages.isStaff, true), isNull(supportMessages.readAt))),
  ]);
  return Number(n?.n ?? 0) + Number(m?.n ?? 0);
}

/**
 * What a notification's push says, in the user's language, or null when nothing is to be pushed now (read already,
 * its category off, no such notification).
 */
export async function buildPushPayload(app: FastifyInstance, notificationId: number): Promise<PushPayload | null> {
  const [row] = await app.db
    .select({ n: notifications, locale: users.locale })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(eq(notifications.id, notificationId));
  if (!row) return null;
  const { n } = row;
  const kind = n.kind as NotificationKind;
  const category = pushCategoryOf(kind);
  const prefs = await preferencesFor(app.db, n.userId);
  if (!prefs[category]) return null;
  const lng = toLanguage(row.locale) ?? 'es';
  const t = app.tFor(lng);
  const data = n.data as NotificationData;
  const conversationId = kind === 'support.reply' ? data.conversation_id : undefined;
  let title: string;
  let body: string;
  if (conversationId !== undefined) {
    const unread = await unreadReplies(app.db, conversationId);
    if (!unread.count) return null;
    title = t('pushMessages.chat.title');
    // The text only when the user allows previews and there is one message; otherwise how many, never what.
    body =
      prefs.previews && unread.count === 1 && unread.latest
        ? unread.latest.length > EXCERPT
          ? `${unread.latest.slice(0, EXCERPT - 1)}…`
          : unread.latest
        : t('pushMessages.chat.count', { count: unread.count });
  } else {
    if (n.readAt) return null;
    const vars: Record<string, string | number> = data.vars ?? {};
    title = t(`notifications.kinds.${kind}.message`, vars);
    body = t(`notifications.kinds.${kind}.description`, { ...vars, defaultValue: '' }) || t('pushMessages.open');
  }
  const path = `/${lng}${data.link ?? ''}`;
  const unread = await badgeCount(app.db, n.userId);
  const prefetch =
    conversationId !== undefined
      ? [API.supportConversations, API.supportConversation(conversationId), API.supportMessages(conversationId)]
      : data.statement_id
        ? [API.statement(data.statement_id)]
        : [];
  return {
    web_push: 8030,
    notification: {
      title,
      body,
      navigate: `${app.config.appUrl}${path}`,
      lang: lng === 'pt_BR' ? 'pt-BR' : lng,
      tag: conversationId !== undefined ? `chat-${conversationId}` : `n-${n.id}`,
      app_badge: String(unread),
    },
    mutable: true,
    vitrina: {
      notification_id: n.id,
      kind,
      category,
      user_id: n.userId,
      path,
      prefetch,
      unread,
      ...(conversationId !== undefined ? { conversation_id: conversationId } : {}),
    },
  };
}

type Outcome = 'sent' | 'gone' | 'retry' | 'failed';

/** One device, one push: what became of it (the metric is counted here). */
async function sendTo(
  app: FastifyInstance,
  sub: SubscriptionRow,
  payload: PushPayload,
): Promise<{ outcome: Outcome; retryAfterMs?: number }> {
  if (!endpointAllowed(sub.endpoint, app.config.push.endpointOrigins)) {
    app.metrics.push('failed', 'not_allowed');
    app.log.warn({ subscription: sub.id }, 'push: endpoint no longer on the allowed origins, not called');
    return { outcome: 'failed' };
  }
  const category = payload.vitrina.category;
  try {
    await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
      vapidDetails: app.config.push.vapid,
      TTL: PUSH_TTL_SECONDS[category],
      urgency: PUSH_URGENCY[category],
      ...(payload.vitrina.conversation_id !== undefined ? { topic: chatPushTopic(payload.vitrina.conversation_id) } : {}),
      timeout: SEND_TIMEOUT_MS,
      contentEncoding: 'aes128gcm',
    });
    app.metrics.push('sent');
    return { outcome: 'sent' };
  } catch (err) {
    const status = err instanceof WebPushError ? err.statusCode : 0;
    if (status === 404 || status === 410) {
      app.metrics.push('failed', 'gone');
      return { outcome: 'gone' };
    }
    if (status === 429 || status >= 500 || status === 0) {
      app.metrics.push('failed', status === 429 ? 'rate_limited' : status ? 'server_error' : 'network');
      const header = err instanceof WebPushError ? err.headers?.['retry-after'] : undefined;
      const seconds = header ? Number(header) : NaN;
      const at = header && Number.isNaN(seconds) ? Date.parse(header) - Date.now() : seconds * 1000;
      return { outcome: 'retry', ...(Number.isFinite(at) && at > 0 ? { retryAfterMs: Math.min(at, 60 * 60_000) } : {}) };
    }
    app.metrics.push('failed', 'refused');
    app.log.warn({ err, subscription: sub.id, status }, 'push refused by the push service');
    return { outcome: 'failed' };
  }
}

async function settle(
  app: FastifyInstance,
  sub: SubscriptionRow,
  notificationId: number,
  result: Awaited<ReturnType<typeof sendTo>>,
  attempt: number,
) {
  if (result.outcome === 'sent') {
    await app.db.update(pushSubscriptions).set({ lastPushAt: new Date() }).where(eq(pushSubscriptions.id, sub.id));
  } else if (result.outcome === 'gone') {
    const gone = await app.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id)).returning({ id: pushSubscriptions.id });
    if (gone.length) app.metrics.push('removed', 'gone');
  } else if (result.outcome === 'retry' && attempt < PUSH_RETRY_ATTEMPTS) {
    await scheduleJob(app.db, {
      name: PUSH_RETRY_JOB,
      key: `push-retry:${notificationId}:${sub.id}`,
      payload: { notification_id: notificationId, subscription_id: sub.id, attempt: attempt + 1 },
      runAt: new Date(Date.now() + (result.retryAfterMs ?? 30_000 * 2 ** (attempt - 1))),
      maxAttempts: 1,
      onConflict: 'replace',
    });
  }
}

/** Sends a notification's push to every device of its user; answers how many accepted it. */
export async function deliverNotification(app: FastifyInstance, notificationId: number): Promise<number> {
  const payload = await buildPushPayload(app, notificationId);
  if (!payload) return 0;
  const subs = await app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, payload.vitrina.user_id));
  let sent = 0;
  let next = 0;
  const worker = async () => {
    while (next < subs.length) {
      const sub = subs[next++]!;
      const result = await sendTo(app, sub, payload);
      if (result.outcome === 'sent') sent++;
      await settle(app, sub, notificationId, result, 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, subs.length) }, worker));
  return sent;
}

export function registerPushJobs(app: FastifyInstance): void {
  app.jobs.register(PUSH_JOB, async (payload) => {
    await deliverNotification(app, Number(payload.notification_id));
  });
  app.jobs.register(PUSH_RETRY_JOB, async (payload) => {
    const notificationId = Number(payload.notification_id);
    const [sub] = await app.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, Number(payload.subscription_id)));
    if (!sub) return;
    const built = await buildPushPayload(app, notificationId);
    // Another user's device now (the browser was signed in by someone else since): not theirs to hear.
    if (!built || built.vitrina.user_id !== sub.userId) return;
    await settle(app, sub, notificationId, await sendTo(app, sub, built), Number(payload.attempt) || PUSH_RETRY_ATTEMPTS);
  });
}

/** The unread staff-reply notification of a conversation, if any (a further reply pushes through it). */
export async function unreadReplyNotificationId(db: Db, userId: number, conversationId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.kind, 'support.reply'),
        isNull(notifications.readAt),
        sql`(${notifications.data} ->> 'conversation_id')::int = ${conversationId}`,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}
