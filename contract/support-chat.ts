import { z } from 'zod';
import { idField, intParam } from './params.ts';
import { paginationMetaSchema } from './listings.ts';

/**
 * Support chat between a user and staff (SPEC §3 Conversation/Message, §7 calls). Messages live in the database
 * with a per-conversation sequence number (`seq`, 1, 2, 3…); the websocket only tells the other side that something
 * arrived. After every (re)connection the client asks for what follows the last `seq` it has (`after_seq`), so
 * nothing is lost while a phone slept.
 *
 * Channels (Echo names; Pusher names add `private-` / `presence-`):
 * - `support.chat.{id}` (private): the conversation's user and staff. Events `MessageSent`, `MessagesRead`,
 *   `ConversationUpdated` (namespace App.Events, so `.listen('MessageSent')`), and the client event `client-typing`
 *   (`whisper('typing', …)` / `listenForWhisper('typing', …)`).
 * - `support.staff` (presence): admins and super admins only. The staff Messenger joins it; it carries
 *   `ConversationUpdated` for every conversation, so lists and unread counts refresh live. Users cannot join it:
 *   they ask `GET /api/support/chat/status` whether support is online.
 * A user hears about a staff reply on their own channel too (notification kind `support.reply`).
 */

export const CHAT_MESSAGE_MIN = 1;
export const CHAT_MESSAGE_MAX = 2000;
export const CHAT_MESSAGES_PER_MINUTE = 30;
/** A staff reply still unread after this long is e-mailed to the user. */
export const CHAT_EMAIL_DELAY_MINUTES = 10;
export const CHAT_PAGE_SIZE = 30;
export const CHAT_PAGE_MAX = 100;
/** Send `client-typing` at most this often while typing; consider the other side stopped after TYPING_TIMEOUT_MS. */
export const TYPING_THROTTLE_MS = 3000;
export const TYPING_TIMEOUT_MS = 6000;

export const CONVERSATION_STATUSES = ['open', 'resolved'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** Staff list filters: `mine` = assigned to me, `unassigned` = open and nobody assigned. */
export const CONVERSATION_FILTERS = ['open', 'mine', 'unassigned', 'resolved', 'all'] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];

/**
 * Language-neutral PWA paths of the Messenger (the PWA prefixes /{lng}): the index (the user's own conversation, or
 * the staff list) and one conversation. Notifications and the chat e-mail link to `messengerPath(id)`.
 */
export const MESSENGER_PATH = '/messenger';
export const messengerPath = (conversationId?: number | string) =>
  conversationId === undefined ? MESSENGER_PATH : `${MESSENGER_PATH}/${conversationId}`;

/** Echo channel names. */
export const chatChannel = (conversationId: number | string) => `support.chat.${conversationId}`;
export const STAFF_CHANNEL = 'support.staff';
/** Pusher protocol names (auth, subscribe, trigger). */
export const chatPusherChannel = (conversationId: number | string) => `private-${chatChannel(conversationId)}`;
export const STAFF_PUSHER_CHANNEL = `presence-${STAFF_CHANNEL}`;

/** Full event names as triggered; Echo listens with `.listen('MessageSent')` (default namespace App.Events). */
export const CHAT_EVENTS = {
  messageSent: 'App\\Events\\MessageSent',
  messagesRead: 'App\\Events\\MessagesRead',
  conversationUpdated: 'App\\Events\\ConversationUpdated',
} as const;
/** Client event (whisper) name as the protocol carries it. */
export const TYPING_EVENT = 'client-typing';

export const messageSchema = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  seq: z.number().int(),
  /** Null once the sender's account is erased. */
  sender_id: z.number().int().nullable(),
  /** Whether staff wrote it (the user's side shows "Support"). */
  is_staff: z.boolean(),
  /** The sender's display name: the user's name, or the staff member's first name. */
  sender_name: z.string().nullable(),
  /** Plain text; render as text (links made clickable safely), never as HTML. */
  content: z.string(),
  created_at: z.string(),
  /** When the other side had it on screen; null while unread. */
  read_at: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const chatUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Staff only (null for the user's own view). */
  email: z.string().nullable(),
  role: z.string(),
});
export type ChatUser = z.infer<typeof chatUserSchema>;

export const staffMemberSchema = z.object({ id: z.number().int(), name: z.string() });

export const conversationSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  user: chatUserSchema,
  /** Staff member in charge, if any. */
  assigned_to: z.number().int().nullable(),
  assignee: staffMemberSchema.nullable(),
  status: z.enum(CONVERSATION_STATUSES),
  last_message: messageSchema.nullable(),
  /** Highest seq in the conversation (0 when empty). */
  last_seq: z.number().int(),
  /** Messages from the other side the reader has not read. */
  unread: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationsQuerySchema = z
  .object({
    /** Staff only; users see their own conversations. Default `open` for staff. */
    filter: z.enum(CONVERSATION_FILTERS).optional(),
    /** Staff only: name or e-mail of the user. */
    search: z.string().trim().max(100).optional(),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 50).optional().default(20),
  })
  .strict();
export type ConversationsQuery = z.input<typeof conversationsQuerySchema>;

export const conversationListSchema = z.object({
  data: z.array(conversationSchema),
  meta: paginationMetaSchema.extend({
    /** Unread messages across all the reader's conversations (users) or all open conversations (staff). */
    unread_total: z.number().int(),
  }),
});
export type ConversationList = z.infer<typeof conversationListSchema>;

/** POST /api/support/chat/conversations: staff start one with `user_id`; a user without it opens or reopens their own. */
export const createConversationBodySchema = z.object({ user_id: idField.optional() }).strict();

/**
 * GET messages: without cursors, the newest page; `before_seq` = the page older than that seq; `after_seq` = what
 * follows that seq (catching up after a reconnection; page again while `has_more_after`). Each page is in ascending
 * seq order.
 */
export const messagesQuerySchema = z
  .object({
    before_seq: intParam(1, 2_147_483_647).optional(),
    after_seq: intParam(0, 2_147_483_647).optional(),
    limit: intParam(1, CHAT_PAGE_MAX).optional().default(CHAT_PAGE_SIZE),
  })
  .strict()
  .refine((q) => q.before_seq === undefined || q.after_seq === undefined, {
    path: ['after_seq'],
    params: { key: 'supportChat.validation.oneCursor' },
  });

export const messagePageSchema = z.object({
  data: z.array(messageSchema),
  conversation: conversationSchema,
  meta: z.object({
    has_more_before: z.boolean(),
    has_more_after: z.boolean(),
  }),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

/** Text only: trimmed, 1–2,000 characters (counted as the server stores them). */
export const postMessageBodySchema = z.object({ content: z.string().trim().min(CHAT_MESSAGE_MIN).max(CHAT_MESSAGE_MAX) }).strict();
export type PostMessageBody = z.input<typeof postMessageBodySchema>;

/** The reader has had every message of the other side up to `seq` on screen. */
export const markReadBodySchema = z.object({ seq: z.number().int().min(1).max(2_147_483_647) }).strict();

/** Staff: `user_id` of a staff member, or null to unassign. */
export const assignBodySchema = z.object({ user_id: idField.nullable() }).strict();

export const chatUsersQuerySchema = z
  .object({
    search: z.string().trim().max(100).optional(),
    page: intParam(1, 1000).optional().default(1),
    per_page: intParam(1, 50).optional().default(20),
  })
  .strict();
export const chatUserRowSchema = chatUserSchema.extend({
  status: z.string(),
  /** Their open or latest conversation, if any. */
  conversation_id: z.number().int().nullable(),
});
export const chatUserListSchema = z.object({ data: z.array(chatUserRowSchema), meta: paginationMetaSchema });
export type ChatUserList = z.infer<typeof chatUserListSchema>;

/** Staff who can be assigned (GET /api/support/chat/staff). */
export const staffListSchema = z.object({ data: z.array(staffMemberSchema.extend({ online: z.boolean() })) });

/** The staff side panel: who the user is and what they publish. */
export const chatUserPanelSchema = z.object({
  user: chatUserSchema.extend({ status: z.string(), language: z.string().nullable(), created_at: z.string() }),
  model_profiles: z.array(z.object({ id: z.number().int(), name: z.string(), status: z.string(), city: z.string().nullable() })),
  publicist_profile: z.object({ id: z.number().int(), name: z.string(), status: z.string() }).nullable(),
  ads: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      status: z.string(),
      /** Public model page path when listed (language-neutral), else null. */
      url: z.string().nullable(),
    }),
  ),
});
export type ChatUserPanel = z.infer<typeof chatUserPanelSchema>;

/** GET /api/support/chat/status: whether staff are online now, else the usual time to a first reply. */
export const supportStatusSchema = z.object({
  online: z.boolean(),
  staff_online: z.number().int(),
  /** Median minutes to the first staff reply over recent conversations; null when unknown. */
  expected_reply_minutes: z.number().int().nullable(),
});
export type SupportStatus = z.infer<typeof supportStatusSchema>;

export const unreadSchema = z.object({ unread: z.number().int() });

// Broadcast payloads.
export const messageSentPayloadSchema = z.object({ message: messageSchema });
export type MessageSentPayload = z.infer<typeof messageSentPayloadSchema>;
/** Every message of the other side of `reader_is_staff` up to `up_to_seq` now has `read_at`. */
export const messagesReadPayloadSchema = z.object({
  conversation_id: z.number().int(),
  reader_id: z.number().int(),
  reader_is_staff: z.boolean(),
  up_to_seq: z.number().int(),
  read_at: z.string(),
});
export type MessagesReadPayload = z.infer<typeof messagesReadPayloadSchema>;
/**
 * A conversation changed (new message, assignment, resolved/reopened). `unread` is not per reader here: on the staff
 * channel it is the count of unread user messages; refetch the list for exact counts.
 */
export const conversationUpdatedPayloadSchema = z.object({ conversation: conversationSchema });
export type ConversationUpdatedPayload = z.infer<typeof conversationUpdatedPayloadSchema>;
/**
 * `client-typing` whisper payload. The embedded server overwrites `user_id` (as a string) and `name` with the user it
 * authorized the channel for, and refuses client events over 1 KB; the sender cuts its own name to TYPING_NAME_MAX.
 */
export const TYPING_NAME_MAX = 60;
export const typingPayloadSchema = z.object({ user_id: z.coerce.number().int(), name: z.string().max(200), typing: z.boolean() });
export type TypingPayload = z.infer<typeof typingPayloadSchema>;
