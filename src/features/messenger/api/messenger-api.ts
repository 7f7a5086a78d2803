/** The support chat's calls (SPEC §7, contract/support-chat.ts) as TanStack Query pieces and plain functions. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Answer } from '#contract/answers.ts';
import { API } from '#contract/routes.ts';
import type {
  ChatUserList,
  ChatUserPanel,
  Conversation,
  ConversationFilter,
  ConversationList,
  Message,
  MessagePage,
  staffListSchema,
  SupportStatus,
  unreadSchema,
} from '#contract/support-chat.ts';
import type { z } from 'zod';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

/** Every query of the Messenger starts with this: a notification's `support_chat` scope refreshes them all. */
export const MESSENGER_KEY = ['support-chat'] as const;

const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

export interface ConversationsParams {
  filter?: ConversationFilter;
  search?: string;
  page?: number;
}

export const conversationsQueryOptions = (params: ConversationsParams = {}) =>
  queryOptions({
    queryKey: [...MESSENGER_KEY, 'conversations', params],
    queryFn: ({ signal }) => apiGet<ConversationList>(`${API.supportConversations}${query({ ...params })}`, signal),
    placeholderData: keepPreviousData,
  });

export const unreadQueryOptions = () =>
  queryOptions({
    queryKey: [...MESSENGER_KEY, 'unread'],
    queryFn: ({ signal }) => apiGet<z.infer<typeof unreadSchema>>(API.supportUnread, signal),
    staleTime: 30_000,
  });

export const supportStatusQueryOptions = () =>
  queryOptions({
    queryKey: [...MESSENGER_KEY, 'status'],
    queryFn: ({ signal }) => apiGet<SupportStatus>(API.supportStatus, signal),
    refetchInterval: 60_000,
  });

export const staffQueryOptions = () =>
  queryOptions({
    queryKey: [...MESSENGER_KEY, 'staff'],
    queryFn: ({ signal }) => apiGet<z.infer<typeof staffListSchema>>(API.supportStaff, signal),
  });

export const userPanelQueryOptions = (conversationId: number) =>
  queryOptions({
    queryKey: [...MESSENGER_KEY, 'user-panel', conversationId],
    queryFn: async ({ signal }) => recordOf<ChatUserPanel>(await apiGet<unknown>(API.supportUserPanel(conversationId), signal)),
  });

export const chatUsersQueryOptions = (search: string, page = 1) =>
  queryOptions({
    queryKey: [...MESSENGER_KEY, 'users', search, page],
    queryFn: ({ signal }) => apiGet<ChatUserList>(`${API.supportUsers}${query({ search, page })}`, signal),
    placeholderData: keepPreviousData,
  });

export function fetchMessages(
  conversationId: number,
  cursor: { before_seq?: number; after_seq?: number } = {},
  signal?: AbortSignal,
): Promise<MessagePage> {
  return apiGet<MessagePage>(`${API.supportMessages(conversationId)}${query(cursor)}`, signal);
}

/** The answer's record: our routes answer the envelope with `data`, plain records are accepted too. */
function recordOf<T>(answer: unknown): T {
  return (typeof answer === 'object' && answer !== null && 'data' in answer ? (answer as { data: T }).data : answer) as T;
}

export async function postMessage(conversationId: number, content: string, idempotencyKey: string): Promise<Message> {
  const res = await apiRequest<Answer>(API.supportMessages(conversationId), { method: 'POST', body: { content }, idempotencyKey });
  return recordOf<Message>(res.data);
}

/** Opens (or reopens) the user's own conversation; staff pass `userId` to start one with that user. */
export async function openConversation(userId?: number): Promise<Conversation> {
  const res = await apiRequest<Answer>(API.supportConversations, { method: 'POST', body: userId === undefined ? {} : { user_id: userId } });
  return recordOf<Conversation>(res.data);
}

export async function fetchConversation(conversationId: number, signal?: AbortSignal): Promise<Conversation> {
  return recordOf<Conversation>(await apiGet<unknown>(API.supportConversation(conversationId), signal));
}

export const markRead = (conversationId: number, seq: number) =>
  apiRequest<Answer>(API.supportRead(conversationId), { method: 'POST', body: { seq } });

export const assignConversation = (conversationId: number, userId: number | null) =>
  apiRequest<Answer>(API.supportAssign(conversationId), { method: 'POST', body: { user_id: userId } });

export const resolveConversation = (conversationId: number) =>
  apiRequest<Answer>(API.supportResolve(conversationId), { method: 'POST', body: {} });

export const reopenConversation = (conversationId: number) =>
  apiRequest<Answer>(API.supportReopen(conversationId), { method: 'POST', body: {} });
