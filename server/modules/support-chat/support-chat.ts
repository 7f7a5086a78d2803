/**
 * Support chat (issue 14 point 5): one conversation per user with staff. Messages are numbered per conversation
 * (`seq`) under the conversation row's lock, so the order is the same for everyone and a client that was offline
 * catches up with `after_seq`. Every change commits first and is then broadcast (MessageSent, MessagesRead,
 * ConversationUpdated), fire-and-forget: the database is the truth, the socket only says "look".
 *
 * Only the conversation's user and staff (admin, super admin) can read or post; anyone else gets 404, as if it did
 * not exist. A staff reply still unread after CHAT_EMAIL_DELAY_MINUTES is e-mailed (chat-email.ts), through a job
 * scheduled in the same transaction as the message, so it survives a restart.
 */
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { accountScope } from '../../db/account-scope.ts';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { STAFF_ROLES, type Role } from '#contract/roles.ts';
import {
  CHAT_EMAIL_DELAY_MINUTES,
  CHAT_EVENTS,
  chatPusherChannel,
  messengerPath,
  STAFF_PUSHER_CHANNEL,
  type ChatUserList,
  type ChatUserPanel,
  type Conversation,
  type ConversationFilter,
  type Message,
  type MessagePage,
  type SupportStatus,
} from '#contract/support-chat.ts';
import type { Db } from '../../db/client.ts';
import { ads, cities, supportConversations, supportMessages, users } from '../../db/schema.ts';
import { forbidden, notFound, validationFailed } from '../../errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { cancelJob, scheduleJob } from '../jobs/jobs.ts';
import {
  broadcast,
  markConversationNotificationsRead,
  storeNotification,
  type PendingNotification,
} from '../notifications/notifications.ts';
import { pageMeta } from '../../answers.ts';
import { schedulePush, unreadReplyNotificationId } from '../push/push-delivery.ts';

export type ConversationRow = typeof supportConversations.$inferSelect;
type MessageRow = typeof supportMessages.$inferSelect;
export type Viewer = Pick<SessionUser, 'id' | 'name' | 'role'>;

export const CHAT_EMAIL_JOB = 'support-chat-email';
export const chatEmailKey = (conversationId: number) => `chat-email:${conversationId}`;

export const isStaff = (role: Role) => STAFF_ROLES.includes(role);

const invalid = (field: string, key: string) => validationFailed({ [field]: [key] });

/** Staff show by first name only: the user talks to "Ana from support", not to her full name. */
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

function toMessage(m: MessageRow, senderName: string | null): Message {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    seq: m.seq,
    sender_id: m.senderId,
    is_staff: m.isStaff,
    sender_name: senderName === null ? null : m.isStaff ? firstName(senderName) : senderName,
    content: m.content,
    created_at: m.createdAt.toISOString(),
    read_at: m.readAt?.toISOString() ?? null,
  };
}

const owner = alias(users, 'owner');
const assignee = alias(users, 'assignee');
const last = alias(supportMessages, 'last_message');
const lastSender = alias(users, 'last_sender');

/**
 * Conversations as `viewer` sees them: the user's e-mail only for staff, `unread` = the other side's messages the
 * viewer's side has not read.
 */
async function selectConversations(
  db: Db,
  viewerIsStaff: boolean,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<Conversation[]> {
  const unread = sql<number>`(select count(*)::int from ${supportMessages} m where m.conversation_id = ${supportConversations.id} and m.is_staff = ${!viewerIsStaff} and m.read_at is null)`;
  let q = db
    .select({
      c: supportConversations,
      owner: { id: owner.id, name: owner.name, email: owner.email, role: owner.role },
      assignee: { id: assignee.id, name: assignee.name },
      last,
      lastSenderName: lastSender.name,
      unread,
    })
    .from(supportConversations)
    .innerJoin(owner, eq(owner.id, supportConversations.userId))
    .leftJoin(assignee, eq(assignee.id, supportConversations.assignedTo))
    .leftJoin(last, and(eq(last.conversationId, supportConversations.id), eq(last.seq, supportConversations.lastSeq)))
    .leftJoin(lastSender, eq(lastSender.id, last.senderId))
    .where(where)
    .orderBy(desc(supportConversations.updatedAt), desc(supportConversations.id))
    .$dynamic();
  if (page) q = q.limit(page.limit).offset(page.offset);
  const rows = await q;
  return rows.map((r) => ({
    id: r.c.id,
    user_id: r.c.userId,
    user: { id: r.owner.id, name: r.owner.name, email: viewerIsStaff ? r.owner.email : null, role: r.owner.role },
    assigned_to: r.c.assignedTo,
    assignee: r.assignee && r.assignee.id !== null ? { id: r.assignee.id, name: firstName(r.assignee.name) } : null,
    status: r.c.status,
    last_message: r.last && r.last.id !== null ? toMessage(r.last, r.lastSenderName) : null,
    last_seq: r.c.lastSeq,
    unread: Number(r.unread),
    created_at: r.c.createdAt.toISOString(),
    updated_at: r.c.updatedAt.toISOString(),
  }));
}

export async function conversationFor(db: Db, viewerIsStaff: boolean, id: number): Promise<Conversation> {
  const [c] = await selectConversations(db, viewerIsStaff, eq(supportConversations.id, id));
  if (!c) throw notFound();
  return c;
}

/** One conversation as `viewer` sees it, if they may (404 otherwise). */
export async function readConversation(db: Db, viewer: Viewer, id: number): Promise<Conversation> {
  await loadConversation(db, viewer, id);
  return conversationFor(db, isStaff(viewer.role), id);
}

/** The conversation if `viewer` may see it (its user, or staff); 404 otherwise, so ids reveal nothing. */
export async function loadConversation(db: Db, viewer: Viewer, id: number): Promise<ConversationRow> {
  const [c] = await db.select().from(supportConversations).where(eq(supportConversations.id, id));
  if (!c || (c.userId !== viewer.id && !isStaff(viewer.role))) throw notFound();
  return c;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function filterWhere(viewer: Viewer, filter: ConversationFilter | undefined, search: string | undefined): SQL | undefined {
  if (!isStaff(viewer.role)) return eq(supportConversations.userId, viewer.id);
  const open = eq(supportConversations.status, 'open');
  const byFilter: Record<ConversationFilter, SQL | undefined> = {
    open,
    mine: and(open, eq(supportConversations.assignedTo, viewer.id)),
    unassigned: and(open, isNull(supportConversations.assignedTo)),
    resolved: eq(supportConversations.status, 'resolved'),
    all: undefined,
  };
  const text = search ? `%${likeEscape(search)}%` : null;
  return and(byFilter[filter ?? 'open'], text ? or(ilike(owner.name, text), ilike(owner.email, text)) : undefined);
}

/** Unread messages for the navigation badge: the user's from staff, or staff's from users in open conversations. */
export async function unreadTotal(db: Db, viewer: Viewer): Promise<number> {
  const staff = isStaff(viewer.role);
  const [row] = await db
    .select({ n: count() })
    .from(supportMessages)
    .innerJoin(supportConversations, eq(supportConversations.id, supportMessages.conversationId))
    .where(
      and(
        eq(supportMessages.isStaff, !staff),
        isNull(supportMessages.readAt),
        staff ? eq(supportConversations.status, 'open') : eq(supportConversations.userId, viewer.id),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function listConversations(
  db: Db,
  viewer: Viewer,
  q: { filter?: ConversationFilter | undefined; search?: string | undefined; page: number; per_page: number },
) {
  const where = filterWhere(viewer, q.filter, q.search);
  const [data, [total], unread] = await Promise.all([
    selectConversations(db, isStaff(viewer.role), where, { limit: q.per_page, offset: (q.page - 1) * q.per_page }),
    db.select({ n: count() }).from(supportConversations).innerJoin(owner, eq(owner.id, supportConversations.userId)).where(where),
    unreadTotal(db, viewer),
  ]);
  return { data, meta: { ...pageMeta(q.page, q.per_page, Number(total?.n ?? 0), data.length), unread_total: unread } };
}

async function broadcastConversation(app: FastifyInstance, id: number, toChat: boolean, socketId?: string): Promise<void> {
  const conversation = await conversationFor(app.db, true, id).catch(() => null);
  if (!conversation) return;
  await broadcast(app, [STAFF_PUSHER_CHANNEL], CHAT_EVENTS.conversationUpdated, { conversation }, socketId);
  // The user's side gets it without the e-mail and with their own unread count.
  if (toChat) {
    const own = await conversationFor(app.db, false, id);
    await broadcast(app, [chatPusherChannel(id)], CHAT_EVENTS.conversationUpdated, { conversation: own }, socketId);
  }
}

/**
 * POST /api/support/chat/conversations. A user opens (or reopens) their own; staff open one with `userId` (and take
 * it if nobody has). Answers the conversation and whether it was created.
 */
export async function openConversation(
  app: FastifyInstance,
  viewer: Viewer,
  userId: number | undefined,
): Promise<{ conversation: Conversation; created: boolean }> {
  const staff = isStaff(viewer.role);
  let target = viewer.id;
  if (staff) {
    if (userId === undefined) throw invalid('user_id', 'validation.required');
    const [u] = await app.db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, userId));
    if (!u) throw notFound('supportChat.errors.userNotFound');
    if (isStaff(u.role)) throw invalid('user_id', 'supportChat.errors.staffTarget');
    target = u.id;
  } else if (userId !== undefined && userId !== viewer.id) {
    throw forbidden('supportChat.errors.ownOnly');
  }
  const { id, created, changed } = await app.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(supportConversations)
      .values({ userId: target, assignedTo: staff ? viewer.id : null })
      .onConflictDoNothing({ target: supportConversations.userId })
      .returning({ id: supportConversations.id });
    if (inserted[0]) return { id: inserted[0].id, created: true, changed: true };
    const [c] = await tx.select().from(supportConversations).where(eq(supportConversations.userId, target)).for('update');
    const reopen = c!.status === 'resolved';
    const take = staff && c!.assignedTo === null;
    if (reopen || take) {
      await tx
        .update(supportConversations)
        .set({
          ...(reopen ? { status: 'open' as const, resolvedAt: null, updatedAt: new Date() } : {}),
          ...(take ? { assignedTo: viewer.id } : {}),
        })
        .where(eq(supportConversations.id, c!.id));
    }
    return { id: c!.id, created: false, changed: reopen || take };
  });
  if (changed) await broadcastConversation(app, id, !created);
  return { conversation: await conversationFor(app.db, staff, id), created };
}

/** A page of messages: the newest, the one before `before_seq`, or what follows `after_seq` (ascending seq). */
export async function listMessages(
  db: Db,
  viewer: Viewer,
  conversationId: number,
  q: { before_seq?: number | undefined; after_seq?: number | undefined; limit: number },
): Promise<MessagePage> {
  const c = await loadConversation(db, viewer, conversationId);
  const of = eq(supportMessages.conversationId, c.id);
  const rows = (cond: SQL | undefined, ascending: boolean) =>
    db
      .select({ m: supportMessages, name: users.name })
      .from(supportMessages)
      .leftJoin(users, eq(users.id, supportMessages.senderId))
      .where(and(of, cond))
      .orderBy(ascending ? asc(supportMessages.seq) : desc(supportMessages.seq))
      .limit(q.limit + 1);
  let page: { m: MessageRow; name: string | null }[];
  let hasMoreBefore: boolean;
  let hasMoreAfter: boolean;
  if (q.after_seq !== undefined) {
    page = await rows(gt(supportMessages.seq, q.after_seq), true);
    hasMoreAfter = page.length > q.limit;
    page = page.slice(0, q.limit);
    hasMoreBefore = Math.min(q.after_seq, c.lastSeq) >= 1;
  } else {
    page = await rows(q.before_seq !== undefined ? lt(supportMessages.seq, q.before_seq) : undefined, false);
    hasMoreBefore = page.length > q.limit;
    page = page.slice(0, q.limit).reverse();
    hasMoreAfter = q.before_seq !== undefined && q.before_seq <= c.lastSeq;
  }
  return {
    data: page.map((r) => toMessage(r.m, r.name)),
    conversation: await conversationFor(db, isStaff(viewer.role), c.id),
    meta: { has_more_before: hasMoreBefore, has_more_after: hasMoreAfter },
  };
}

const excerpt = (text: string, max = 140) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/**
 * Posts a message: the next seq under the conversation's lock, a resolved conversation reopens, the sender's side
 * has now seen the other side's earlier messages, and staff take an unassigned conversation by answering. A staff
 * reply schedules the unread e-mail and stores the user's notification in the same transaction, and broadcasts the
 * notification after the commit.
 */
export async function postMessage(
  app: FastifyInstance,
  viewer: Viewer,
  conversationId: number,
  content: string,
  socketId?: string,
  /** Stores the request's idempotent answer in the message's transaction (plugins/idempotency.ts answerOnce). */
  commit?: (tx: Db, message: Message) => Promise<void>,
): Promise<Message> {
  const staff = isStaff(viewer.role);
  await loadConversation(app.db, viewer, conversationId);
  const now = new Date();
  let pokeJobs = false;
  const { message, readUpTo, notice } = await app.db.transaction(async (tx) => {
    const [c] = await tx
      .update(supportConversations)
      .set({
        lastSeq: sql`${supportConversations.lastSeq} + 1`,
        status: 'open',
        resolvedAt: null,
        updatedAt: now,
        ...(staff ? { assignedTo: sql`coalesce(${supportConversations.assignedTo}, ${viewer.id})` } : {}),
        ...(staff ? { staffReadSeq: sql`${supportConversations.lastSeq} + 1` } : { userReadSeq: sql`${supportConversations.lastSeq} + 1` }),
      })
      .where(eq(supportConversations.id, conversationId))
      .returning();
    // Erased since it was loaded (the account was deleted meanwhile).
    if (!c) throw notFound();
    const [m] = await tx
      .insert(supportMessages)
      .values({ conversationId, seq: c.lastSeq, senderId: viewer.id, isStaff: staff, content, createdAt: now })
      .returning();
    const read = await tx
      .update(supportMessages)
      .set({ readAt: now })
      .where(and(eq(supportMessages.conversationId, conversationId), eq(supportMessages.isStaff, !staff), isNull(supportMessages.readAt)))
      .returning({ seq: supportMessages.seq });
    let notice: PendingNotification | null = null;
    if (staff) {
      await scheduleJob(tx, {
        name: CHAT_EMAIL_JOB,
        key: chatEmailKey(conversationId),
        payload: { conversation_id: conversationId },
        runAt: new Date(now.getTime() + CHAT_EMAIL_DELAY_MINUTES * 60_000),
      });
      // One unread "support replied" in the bell is enough; the chat itself shows every message. Stored with the
      // reply, broadcast after the commit.
      const unreadNotice = await unreadReplyNotificationId(tx, c.userId, conversationId);
      if (unreadNotice === null) {
        notice = await storeNotification(app, tx, c.userId, {
          kind: 'support.reply',
          vars: { excerpt: excerpt(content) },
          data: { link: messengerPath(conversationId), conversation_id: conversationId, refresh: ['support_chat'] },
        });
      } else if (
        // A further reply: the devices hear again, one push that says how many (it replaces the last one).
        await schedulePush(tx, { id: unreadNotice, userId: c.userId, kind: 'support.reply', data: { conversation_id: conversationId } })
      ) {
        pokeJobs = true;
      }
    } else if (read.length) {
      // A user who answers has read staff's replies: no e-mail about them.
      await cancelJob(tx, chatEmailKey(conversationId));
    }
    const message = toMessage(m!, viewer.name);
    await commit?.(tx, message);
    return { message, readUpTo: read.length ? Math.max(...read.map((r) => r.seq)) : 0, notice };
  });

  await broadcast(app, [chatPusherChannel(conversationId)], CHAT_EVENTS.messageSent, { message }, socketId);
  if (readUpTo) {
    await broadcast(app, [chatPusherChannel(conversationId)], CHAT_EVENTS.messagesRead, {
      conversation_id: conversationId,
      reader_id: viewer.id,
      reader_is_staff: staff,
      up_to_seq: readUpTo,
      read_at: now.toISOString(),
    });
  }
  await broadcastConversation(app, conversationId, false);
  if (staff) {
    await notice?.publish();
    if (pokeJobs && app.hasDecorator('jobs')) app.jobs.poke();
  } else {
    await markConversationNotificationsRead(app.db, viewer.id, conversationId);
  }
  return message;
}

/** The reader has had the other side's messages up to `seq` on screen: read receipts, unread counts, no e-mail. */
export async function markRead(
  app: FastifyInstance,
  viewer: Viewer,
  conversationId: number,
  seq: number,
  socketId?: string,
): Promise<{ unread: number }> {
  const staff = isStaff(viewer.role);
  const c = await loadConversation(app.db, viewer, conversationId);
  const upTo = Math.min(seq, c.lastSeq);
  const now = new Date();
  const read = await app.db.transaction(async (tx) => {
    const rows = await tx
      .update(supportMessages)
      .set({ readAt: now })
      .where(
        and(
          eq(supportMessages.conversationId, c.id),
          eq(supportMessages.isStaff, !staff),
          lte(supportMessages.seq, upTo),
          isNull(supportMessages.readAt),
        ),
      )
      .returning({ seq: supportMessages.seq });
    const mark = staff ? supportConversations.staffReadSeq : supportConversations.userReadSeq;
    await tx
      .update(supportConversations)
      .set(staff ? { staffReadSeq: sql`greatest(${mark}, ${upTo})` } : { userReadSeq: sql`greatest(${mark}, ${upTo})` })
      .where(eq(supportConversations.id, c.id));
    if (!staff) {
      const [left] = await tx
        .select({ n: count() })
        .from(supportMessages)
        .where(and(eq(supportMessages.conversationId, c.id), eq(supportMessages.isStaff, true), isNull(supportMessages.readAt)));
      if (Number(left?.n ?? 0) === 0) await cancelJob(tx, chatEmailKey(c.id));
    }
    return rows;
  });
  if (read.length) {
    // To every socket, the reader's own other tabs included: their unread counts change too.
    await broadcast(app, [chatPusherChannel(c.id)], CHAT_EVENTS.messagesRead, {
      conversation_id: c.id,
      reader_id: viewer.id,
      reader_is_staff: staff,
      up_to_seq: Math.max(...read.map((r) => r.seq)),
      read_at: now.toISOString(),
    });
    if (staff) await broadcastConversation(app, c.id, false, socketId);
  }
  if (!staff) await markConversationNotificationsRead(app.db, viewer.id, c.id);
  return { unread: (await conversationFor(app.db, staff, c.id)).unread };
}

/** Staff: assign to a staff member (or nobody). */
export async function assignConversation(app: FastifyInstance, conversationId: number, assigneeId: number | null): Promise<Conversation> {
  if (assigneeId !== null) {
    const [u] = await app.db.select({ role: users.role }).from(users).where(eq(users.id, assigneeId));
    if (!u || !isStaff(u.role)) throw invalid('user_id', 'supportChat.errors.notStaff');
  }
  const [c] = await app.db
    .update(supportConversations)
    .set({ assignedTo: assigneeId, updatedAt: new Date() })
    .where(eq(supportConversations.id, conversationId))
    .returning({ id: supportConversations.id });
  if (!c) throw notFound();
  await broadcastConversation(app, c.id, true);
  return conversationFor(app.db, true, c.id);
}

/** Staff: resolve or reopen (the same status again changes nothing). */
export async function setConversationStatus(
  app: FastifyInstance,
  conversationId: number,
  status: 'open' | 'resolved',
): Promise<Conversation> {
  const [c] = await app.db
    .update(supportConversations)
    .set({ status, resolvedAt: status === 'resolved' ? new Date() : null, updatedAt: new Date() })
    .where(and(eq(supportConversations.id, conversationId), ne(supportConversations.status, status)))
    .returning({ id: supportConversations.id });
  if (c) await broadcastConversation(app, c.id, true);
  // Unchanged (or missing: conversationFor answers 404).
  return conversationFor(app.db, true, conversationId);
}

/** Staff: people to start a conversation with (not staff), by name or e-mail, with their conversation if any. */
export async function listChatUsers(db: Db, q: { search?: string | undefined; page: number; per_page: number }): Promise<ChatUserList> {
  const text = q.search ? `%${likeEscape(q.search)}%` : null;
  const where = and(
    sql`${users.role} not in ('admin', 'super_admin')`,
    text ? or(ilike(users.name, text), ilike(users.email, text)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ u: users, conversationId: supportConversations.id })
      .from(users)
      .leftJoin(supportConversations, eq(supportConversations.userId, users.id))
      .where(where)
      .orderBy(asc(users.name), asc(users.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    data: rows.map((r) => ({
      id: r.u.id,
      name: r.u.name,
      email: r.u.email,
      role: r.u.role,
      status: r.u.status,
      conversation_id: r.conversationId,
    })),
    meta: pageMeta(q.page, q.per_page, Number(total?.n ?? 0), rows.length),
  };
}

async function onlineStaffIds(app: FastifyInstance): Promise<Set<string>> {
  if (!app.hasDecorator('broadcaster')) return new Set();
  try {
    return new Set((await app.broadcaster.presenceMembers(STAFF_PUSHER_CHANNEL)).map((m) => m.user_id));
  } catch (err) {
    app.log.warn({ err }, 'support chat: presence unavailable');
    return new Set();
  }
}

/** Staff: who can be assigned, and who is in the Messenger now. */
export async function listStaff(app: FastifyInstance) {
  const online = await onlineStaffIds(app);
  const rows = await app.db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.role, ['admin', 'super_admin']))
    .orderBy(asc(users.name), asc(users.id));
  return { data: rows.map((r) => ({ ...r, online: online.has(String(r.id)) })) };
}

/**
 * Whether support is online (any staff member in the Messenger, i.e. on presence-support.staff) and otherwise the
 * usual wait: the median time from a user's message that starts their turn to the next staff reply, over the last
 * 100 such turns.
 */
export async function supportStatus(app: FastifyInstance): Promise<SupportStatus> {
  const online = (await onlineStaffIds(app)).size;
  const res = (await app.db.execute<{ median: number | string | null }>(sql`
    select percentile_cont(0.5) within group (order by extract(epoch from (r.at - t.created_at))) as median
    from (
      select m.conversation_id, m.seq, m.created_at
      from ${supportMessages} m
      left join ${supportMessages} p on p.conversation_id = m.conversation_id and p.seq = m.seq - 1
      where not m.is_staff and (p.id is null or p.is_staff)
      order by m.created_at desc
      limit 100
    ) t
    cross join lateral (
      select min(r.created_at) as at from ${supportMessages} r
      where r.conversation_id = t.conversation_id and r.is_staff and r.seq > t.seq
    ) r
    where r.at is not null
  `)) as { rows: { median: number | string | null }[] };
  const median = res.rows[0]?.median;
  return {
    online: online > 0,
    staff_online: online,
    expected_reply_minutes: median === null || median === undefined ? null : Math.max(1, Math.ceil(Number(median) / 60)),
  };
}

/** Staff: the user's account, profiles and ads beside the conversation. */
export async function userPanel(db: Db, conversationId: number): Promise<ChatUserPanel> {
  const [c] = await db.select().from(supportConversations).where(eq(supportConversations.id, conversationId));
  if (!c) throw notFound();
  const [u] = await db.select().from(users).where(eq(users.id, c.userId));
  const scope = await accountScope(db, c.userId);
  // A profile's city is where its ads are (the first one's).
  const adCities = scope.adIds.length
    ? await db
        .select({ profileId: ads.modelProfileId, city: cities.name })
        .from(ads)
        .innerJoin(cities, eq(cities.id, ads.cityId))
        .where(inArray(ads.id, scope.adIds))
        .orderBy(asc(ads.id))
    : [];
  const cityOf = new Map<number, string>();
  for (const a of adCities) if (!cityOf.has(a.profileId)) cityOf.set(a.profileId, a.city);
  return {
    user: {
      id: u!.id,
      name: u!.name,
      email: u!.email,
      role: u!.role,
      status: u!.status,
      language: u!.locale,
      created_at: u!.createdAt.toISOString(),
    },
    model_profiles: scope.profiles.map((p) => ({ id: p.id, name: p.displayName, status: p.status, city: cityOf.get(p.id) ?? null })),
    publicist_profile: scope.publicist
      ? { id: scope.publicist.id, name: scope.publicist.displayName, status: scope.publicist.status }
      : null,
    ads: scope.adRows.map((a) => ({
      id: a.id,
      title: a.title,
      status: a.status,
      url: a.isListed ? `/models/${a.id}` : null,
    })),
  };
}
