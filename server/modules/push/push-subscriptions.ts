/**
 * A user's Web Push devices and switches (issue 25, contract/push.ts). A subscription belongs to the user and to the
 * session that made it (push_subscriptions.session_hash, ON DELETE CASCADE): when that session ends — sign-out,
 * expiry, a password reset that signs out everywhere — the device is signed out and hears nothing more. A suspension
 * keeps the sessions (restricted, decision 0018) but removes every subscription; an erasure removes the user's rows.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import Bowser from 'bowser';
import type { FastifyInstance } from 'fastify';
import { endpointAllowed, type PushDevice, type PushPreferences, type PushSubscriptionBody } from '#contract/push.ts';
import type { Db } from '../../db/client.ts';
import { pushPreferences, pushSubscriptions } from '../../db/schema.ts';
import { notFound, validationFailed } from '../../errors.ts';

/** A user's devices beyond this: the one subscribed longest ago goes. */
export const MAX_PUSH_DEVICES = 20;

export const DEFAULT_PUSH_PREFERENCES: PushPreferences = {
  support_chat: true,
  decisions: true,
  consent: true,
  saved_searches: true,
  previews: true,
};

type Row = typeof pushSubscriptions.$inferSelect;

function toDevice(row: Row, sessionHash: string | undefined): PushDevice {
  return {
    id: row.id,
    browser: row.browser,
    os: row.os,
    device_type: row.deviceType ?? null,
    current: !!sessionHash && row.sessionHash === sessionHash,
    created_at: row.createdAt.toISOString(),
    last_push_at: row.lastPushAt?.toISOString() ?? null,
  };
}

function describeAgent(userAgent: string | undefined): Pick<Row, 'browser' | 'os' | 'deviceType'> {
  if (!userAgent) return { browser: null, os: null, deviceType: null };
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type;
  return {
    browser: parsed.browser.name?.slice(0, 64) ?? null,
    os: parsed.os.name?.slice(0, 64) ?? null,
    deviceType: type === 'mobile' || type === 'tablet' ? type : null,
  };
}

/**
 * Stores this device's subscription for the user and session. The same endpoint again (another user signed in on
 * this browser, or the same one after a new sign-in) moves to them: a browser profile has one subscription.
 */
export async function subscribe(
  app: FastifyInstance,
  input: { userId: number; sessionHash: string; userAgent: string | undefined; body: PushSubscriptionBody },
): Promise<{ device: PushDevice; created: boolean }> {
  // Never stored, so never called: a subscription is the one thing that makes this server send a request to an
  // address a client chose (SSRF).
  if (!endpointAllowed(input.body.endpoint, app.config.push.endpointOrigins))
    throw validationFailed(undefined, 'pushServer.endpointRefused');
  const expiration = input.body.expirationTime ? new Date(input.body.expirationTime) : null;
  const values = {
    userId: input.userId,
    sessionHash: input.sessionHash,
    endpoint: input.body.endpoint,
    p256dh: input.body.keys.p256dh,
    auth: input.body.keys.auth,
    expirationTime: expiration && !Number.isNaN(expiration.getTime()) ? expiration : null,
    ...describeAgent(input.userAgent),
  };
  return app.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, values.endpoint));
    const [row] = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { ...values, createdAt: before ? sql`${pushSubscriptions.createdAt}` : new Date() },
      })
      .returning();
    const mine = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, input.userId))
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
    if (mine.length > MAX_PUSH_DEVICES) {
      const extra = mine.slice(0, mine.length - MAX_PUSH_DEVICES).map((r) => r.id);
      await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, extra));
      app.metrics.push('removed', 'too_many');
    }
    return { device: toDevice(row!, input.sessionHash), created: !before };
  });
}

/** This device drops its subscription (the caller's own row only; nothing to drop is fine). */
export async function unsubscribe(app: FastifyInstance, userId: number, endpoint: string): Promise<void> {
  const gone = await app.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  if (gone.length) app.metrics.push('removed', 'user');
}

export async function listDevices(db: Db, userId: number, sessionHash: string | undefined): Promise<PushDevice[]> {
  const rows = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  return rows.map((r) => toDevice(r, sessionHash));
}

/** One of the user's devices, from the profile's list; another user's answers 404. */
export async function removeDevice(app: FastifyInstance, userId: number, id: number): Promise<void> {
  const gone = await app.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (!gone.length) throw notFound();
  app.metrics.push('removed', 'user');
}

/** Every device of the user (a suspension): in the caller's transaction. */
export async function removeAllDevices(app: FastifyInstance, db: Db, userId: number, reason: string): Promise<void> {
  const gone = await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).returning({ id: pushSubscriptions.id });
  for (let i = 0; i < gone.length; i++) app.metrics.push('removed', reason);
}

// saved_searches (migration 0020) is named in SQL until schema.ts carries it.
const SAVED_SEARCHES = sql<boolean>`saved_searches`;

export async function preferencesFor(db: Db, userId: number): Promise<PushPreferences> {
  const [row] = await db
    .select({
      supportChat: pushPreferences.supportChat,
      decisions: pushPreferences.decisions,
      consent: pushPreferences.consent,
      savedSearches: SAVED_SEARCHES,
      previews: pushPreferences.previews,
    })
    .from(pushPreferences)
    .where(eq(pushPreferences.userId, userId));
  if (!row) return { ...DEFAULT_PUSH_PREFERENCES };
  return {
    support_chat: row.supportChat,
    decisions: row.decisions,
    consent: row.consent,
    saved_searches: row.savedSearches,
    previews: row.previews,
  };
}

export async function updatePreferences(db: Db, userId: number, change: Partial<PushPreferences>): Promise<PushPreferences> {
  const next = { ...(await preferencesFor(db, userId)), ...change };
  const values = {
    supportChat: next.support_chat,
    decisions: next.decisions,
    consent: next.consent,
    previews: next.previews,
    updatedAt: new Date(),
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(pushPreferences)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: pushPreferences.userId, set: values });
    await tx.execute(sql`update push_preferences set saved_searches = ${next.saved_searches} where user_id = ${userId}`);
  });
  return next;
}
