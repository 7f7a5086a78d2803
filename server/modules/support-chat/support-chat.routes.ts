/**
 * Support chat (SPEC §7 calls, contract/support-chat.ts):
 *   GET  /api/support/chat/conversations            the user's own, or staff's list (filters open/mine/unassigned/resolved/all)
 *   POST /api/support/chat/conversations            open or reopen (staff: with `user_id`)
 *   GET  /api/support/chat/conversations/{id}       one conversation
 *   GET  /api/support/chat/{id}/messages            a page: newest, `before_seq`, or `after_seq` (catching up)
 *   POST /api/support/chat/{id}/messages            `{ content }`, 30 a minute per user, Idempotency-Key honoured
 *   POST /api/support/chat/{id}/read                `{ seq }`: read receipts and unread counts
 *   GET  /api/support/chat/status                   support online now, or the usual reply time
 *   GET  /api/support/chat/unread                   the navigation badge
 * Staff only: GET users, GET staff, GET {id}/user (side panel), POST {id}/assign, {id}/resolve, {id}/reopen.
 * `X-Socket-ID` (the sender's socket) keeps a broadcast from echoing back to it (Echo's toOthers).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, successOf } from '#contract/answers.ts';
import { idParamsSchema } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import {
  assignBodySchema,
  CHAT_MESSAGES_PER_MINUTE,
  chatUserListSchema,
  chatUserPanelSchema,
  chatUsersQuerySchema,
  conversationListSchema,
  conversationSchema,
  conversationsQuerySchema,
  createConversationBodySchema,
  markReadBodySchema,
  messagePageSchema,
  messageSchema,
  messagesQuerySchema,
  postMessageBodySchema,
  staffListSchema,
  supportStatusSchema,
  unreadSchema,
  type Message,
} from '#contract/support-chat.ts';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../answers.ts';
import { answerOnce } from '../../plugins/idempotency.ts';
import { requireUser } from '../../plugins/session.ts';
import { consume } from '../auth/auth.limits.ts';
import { sendUnreadReplyMail } from './chat-email.ts';
import {
  assignConversation,
  CHAT_EMAIL_JOB,
  listChatUsers,
  listConversations,
  listMessages,
  listStaff,
  markRead,
  openConversation,
  postMessage,
  readConversation,
  setConversationStatus,
  supportStatus,
  unreadTotal,
  userPanel,
} from './support-chat.ts';

const STAFF = { auth: { roles: ['admin' as const, 'super_admin' as const] } };
const SIGNED_IN = { auth: true as const };
const CONVERSATION_ANSWER = { 200: successOf(conversationSchema) };

function socketIdOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-socket-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^\d{1,20}\.\d{1,20}$/.test(value) ? value : undefined;
}

export const supportChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // Shared by all processes when REDIS_URL is set (plugins/limits.ts).
  const perUser = app.limiter({ keyPrefix: 'chat-messages', points: CHAT_MESSAGES_PER_MINUTE, duration: 60 });
  app.jobs.register(CHAT_EMAIL_JOB, (payload, _job, now) => sendUnreadReplyMail(app, Number(payload.conversation_id), now));

  app.get(
    API.supportConversations,
    { schema: { querystring: conversationsQuerySchema, response: { 200: conversationListSchema } }, config: SIGNED_IN },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listConversations(db, requireUser(req), req.query);
    },
  );

  app.post(
    API.supportConversations,
    {
      schema: { body: createConversationBodySchema, response: { 200: successOf(conversationSchema), 201: successOf(conversationSchema) } },
      config: SIGNED_IN,
    },
    async (req, reply) => {
      const { conversation, created } = await openConversation(app, requireUser(req), req.body.user_id);
      return reply.status(created ? 201 : 200).send(ok(req, 'supportChat.api.opened', conversation));
    },
  );

  app.get(
    API.supportConversation(':id'),
    { schema: { params: idParamsSchema, response: { 200: dataOf(conversationSchema) } }, config: SIGNED_IN },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await readConversation(db, requireUser(req), req.params.id) };
    },
  );

  app.get(
    API.supportMessages(':id'),
    { schema: { params: idParamsSchema, querystring: messagesQuerySchema, response: { 200: messagePageSchema } }, config: SIGNED_IN },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listMessages(db, requireUser(req), req.params.id, req.query);
    },
  );

  app.post(
    API.supportMessages(':id'),
    { schema: { params: idParamsSchema, body: postMessageBodySchema, response: { 201: successOf(messageSchema) } }, config: SIGNED_IN },
    async (req, reply) => {
      const user = requireUser(req);
      await consume(perUser, String(user.id), reply);
      const once = answerOnce(req, reply, 201, (message: Message) => ok(req, 'supportChat.api.sent', message));
      return once.send(await postMessage(app, user, req.params.id, req.body.content, socketIdOf(req), once.commit));
    },
  );

  app.post(
    API.supportRead(':id'),
    { schema: { params: idParamsSchema, body: markReadBodySchema, response: { 200: successOf(unreadSchema) } }, config: SIGNED_IN },
    async (req) => ok(req, 'supportChat.api.read', await markRead(app, requireUser(req), req.params.id, req.body.seq, socketIdOf(req))),
  );

  app.get(API.supportStatus, { schema: { response: { 200: supportStatusSchema } }, config: SIGNED_IN }, async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return supportStatus(app);
  });

  app.get(API.supportUnread, { schema: { response: { 200: unreadSchema } }, config: SIGNED_IN }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { unread: await unreadTotal(db, requireUser(req)) };
  });

  app.get(
    API.supportUsers,
    { schema: { querystring: chatUsersQuerySchema, response: { 200: chatUserListSchema } }, config: STAFF },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listChatUsers(db, req.query);
    },
  );

  app.get(API.supportStaff, { schema: { response: { 200: staffListSchema } }, config: STAFF }, async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return listStaff(app);
  });

  app.get(
    API.supportUserPanel(':id'),
    { schema: { params: idParamsSchema, response: { 200: dataOf(chatUserPanelSchema) } }, config: STAFF },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await userPanel(db, req.params.id) };
    },
  );

  app.post(
    API.supportAssign(':id'),
    { schema: { params: idParamsSchema, body: assignBodySchema, response: CONVERSATION_ANSWER }, config: STAFF },
    async (req) => {
      const conversation = await assignConversation(app, req.params.id, req.body.user_id);
      return ok(req, req.body.user_id === null ? 'supportChat.api.unassigned' : 'supportChat.api.assigned', conversation);
    },
  );

  app.post(API.supportResolve(':id'), { schema: { params: idParamsSchema, response: CONVERSATION_ANSWER }, config: STAFF }, async (req) =>
    ok(req, 'supportChat.api.resolved', await setConversationStatus(app, req.params.id, 'resolved')),
  );

  app.post(API.supportReopen(':id'), { schema: { params: idParamsSchema, response: CONVERSATION_ANSWER }, config: STAFF }, async (req) =>
    ok(req, 'supportChat.api.reopened', await setConversationStatus(app, req.params.id, 'open')),
  );
};
