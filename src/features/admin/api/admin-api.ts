/**
 * Staff calls (lists, queues, decisions, appeals, audit) as TanStack Query options. Answers are typed by the schemas
 * the server's routes declare; the moderation list rows below are still the PWA's own until the contract defines them.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { API } from '#contract/routes.ts';
import type {
  adminClientResponseSchema,
  adminCountsSchema,
  AppealDecisionInput,
  appealDecidedSchema,
  AuditEntryView,
  decisionResultSchema,
  DecisionInput,
} from '#contract/admin.ts';
import type { dataOf, successOf } from '#contract/answers.ts';
import type { createAdminSchema, userChangedAnswerSchema } from '#contract/auth.ts';
import type { PaginationMeta } from '#contract/listings.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const ADMIN_KEY = ['admin'] as const;

type CountsAnswer = z.infer<ReturnType<typeof dataOf<typeof adminCountsSchema>>>;
type DecisionAnswer = z.infer<ReturnType<typeof successOf<typeof decisionResultSchema>>>;
type AppealAnswer = z.infer<ReturnType<typeof successOf<typeof appealDecidedSchema>>>;

export interface Paged<T> {
  data: T[];
  meta: PaginationMeta;
}

export type Params = Record<string, string | number | undefined>;

function withParams(path: string, params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export const adminListOptions = <T>(path: string, params: Params) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, path, params],
    queryFn: ({ signal }) => apiGet<Paged<T>>(withParams(path, params), signal),
    placeholderData: keepPreviousData,
  });

export const adminCountsOptions = () =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'counts'],
    queryFn: ({ signal }) => apiGet<CountsAnswer>(API.adminCounts, signal).then((r) => r.data),
  });

/** One client record with a page of their statements of reasons (the page lives in the screen's URL). */
export const adminClientOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'client', id, page],
    queryFn: ({ signal }) =>
      apiGet<z.infer<typeof adminClientResponseSchema>>(
        withParams(API.adminClient(id), { page: page > 1 ? page : undefined }),
        signal,
      ).then((r) => r.data),
    // Paging through the statements keeps the record on screen; another client never shows the previous one's data.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
  });

export const decide = (body: DecisionInput) => apiRequest<DecisionAnswer>(API.adminDecisions, { method: 'POST', body });
export const decideAppeal = (id: number, body: AppealDecisionInput) =>
  apiRequest<AppealAnswer>(API.adminAppealDecide(id), { method: 'POST', body });
export const createAdmin = (body: z.output<typeof createAdminSchema>) =>
  apiRequest<z.infer<typeof userChangedAnswerSchema>>(API.adminCreate, { method: 'POST', body });

/** The staff lists' rows, as the server declares and sends them (contract/admin.ts). */
export type {
  AccountRef,
  AdminAd,
  AdminAppeal,
  AdminModel,
  AdminPhoto,
  AdminPublicist,
  AdminUser,
  AdminVerification,
  RecentPhoto,
  UserRef,
} from '#contract/admin.ts';

/** One audit log entry (GET API.superAdminAudit), as the contract declares it. */
export type AuditEntry = AuditEntryView;
