/** The signed-in user's statements of reasons and their appeal, as TanStack Query options. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Answer } from '#contract/answers.ts';
import { type Statement, type StatementList } from '#contract/statements.ts';
import { apiGet, apiRequest } from '#src/lib/api-client.ts';

export const STATEMENTS_KEY = ['statements'] as const;

export const statementsQueryOptions = (page: number, perPage = 10) =>
  queryOptions({
    queryKey: [...STATEMENTS_KEY, 'list', page, perPage],
    queryFn: ({ signal }) => apiGet<StatementList>(`${API.statements}?page=${page}&per_page=${perPage}`, signal),
    placeholderData: keepPreviousData,
  });

export const statementQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...STATEMENTS_KEY, 'one', id],
    queryFn: ({ signal }) => apiGet<{ data: Statement }>(API.statement(id), signal).then((r) => r.data),
  });

export const sendAppeal = (id: number, text: string) =>
  apiRequest<Answer & { data: Statement }>(API.statementAppeal(id), { method: 'POST', body: { text } });
