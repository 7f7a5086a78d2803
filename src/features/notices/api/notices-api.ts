/** Staff calls for notices (reports about ads) and contact messages, as TanStack Query options. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Answer } from '#contract/answers.ts';
import type { ContactList, ContactMessage } from '#contract/contact.ts';
import type { Report, ReportDecisionInput, ReportList } from '#contract/reports.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const NOTICES_KEY = ['notices'] as const;

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
    queryFn: ({ signal }) => apiGet<{ data: Report }>(API.adminReport(id), signal).then((r) => r.data),
    retry: false,
  });

export const decideReport = (id: number, body: ReportDecisionInput) =>
  apiRequest<Answer & { data: Report }>(API.adminReportDecide(id), { method: 'POST', body });

export const messagesOptions = (params: Params) =>
  queryOptions({
    queryKey: [...NOTICES_KEY, 'messages', params],
    queryFn: ({ signal }) => apiGet<ContactList>(withParams(API.adminContactMessages, params), signal),
    placeholderData: keepPreviousData,
  });

export const setMessageStatus = (id: number, status: 'read' | 'archived') =>
  apiRequest<Answer & { data: ContactMessage }>(API.adminContactMessage(id), { method: 'PATCH', body: { status } });
