/**
 * Staff calls for notices (reports about ads) and contact messages, as TanStack Query options; answers typed by the
 * schemas the server's routes declare.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { z } from 'zod';
import type { dataOf, successOf } from '#contract/answers.ts';
import type { ContactList, contactMessageSchema } from '#contract/contact.ts';
import type { ReportDecisionInput, ReportList, reportSchema } from '#contract/reports.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const NOTICES_KEY = ['notices'] as const;

type ReportAnswer = z.infer<ReturnType<typeof dataOf<typeof reportSchema>>>;
type ReportDecided = z.infer<ReturnType<typeof successOf<typeof reportSchema>>>;
type MessageUpdated = z.infer<ReturnType<typeof successOf<typeof contactMessageSchema>>>;

export type Params = Record<string, string | number | undefined>;

function withParams(path: string, params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export const reportsOptions = (params: Params) =>
  queryOptions({
    queryKey: [...NOTICES_KEY, 'reports', params],
    queryFn: ({ signal }) => apiGet<ReportList>(withParams(API.adminReports, params), signal),
    placeholderData: keepPreviousData,
  });

export const reportOptions = (id: number) =>
  queryOptions({
    queryKey: [...NOTICES_KEY, 'report', id],
    queryFn: ({ signal }) => apiGet<ReportAnswer>(API.adminReport(id), signal).then((r) => r.data),
    retry: false,
  });

export const decideReport = (id: number, body: ReportDecisionInput) =>
  apiRequest<ReportDecided>(API.adminReportDecide(id), { method: 'POST', body });

export const messagesOptions = (params: Params) =>
  queryOptions({
    queryKey: [...NOTICES_KEY, 'messages', params],
    queryFn: ({ signal }) => apiGet<ContactList>(withParams(API.adminContactMessages, params), signal),
    placeholderData: keepPreviousData,
  });

export const setMessageStatus = (id: number, status: 'read' | 'archived') =>
  apiRequest<MessageUpdated>(API.adminContactMessage(id), { method: 'PATCH', body: { status } });
