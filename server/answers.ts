/**
 * The success answers every route sends, built in one place (the error answers are built by plugins/errors.ts from
 * server/errors.ts). The shapes are contract/answers.ts's `successSchema`, `successOf` and `pageOf`.
 */
import type { PaginationMeta } from '#contract/answers.ts';

/** What `ok` needs of a request: its translator (a FastifyRequest, or a job's fixed-language `t`). */
export interface Translates {
  t: (key: string, params?: Record<string, unknown>) => string;
}

/** A success toast with the translated message; `data` and the rest (e.g. `redirect`) are added when given. */
export function ok(req: Translates, messageKey: string): { channel: 'notification'; type: 'success'; message: string };
export function ok<T>(
  req: Translates,
  messageKey: string,
  data: T,
  extra?: { redirect?: string; messageParams?: Record<string, unknown> },
): { channel: 'notification'; type: 'success'; message: string; data: T; redirect?: string };
export function ok<T>(
  req: Translates,
  messageKey: string,
  data?: T,
  extra: { redirect?: string; messageParams?: Record<string, unknown> } = {},
) {
  const { messageParams, redirect } = extra;
  return {
    channel: 'notification' as const,
    type: 'success' as const,
    message: req.t(messageKey, messageParams ?? {}),
    ...(data !== undefined ? { data } : {}),
    ...(redirect !== undefined ? { redirect } : {}),
  };
}

/** Laravel's page metadata from the page asked for, its size, the total and how many rows this page holds. */
export function pageMeta(page: number, perPage: number, total: number, rows: number): PaginationMeta {
  const from = rows ? (page - 1) * perPage + 1 : null;
  return {
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
    from,
    to: from === null ? null : from + rows - 1,
  };
}

/** A page answer: the rows and their metadata. */
export const page = <T>(rows: T[], p: { page: number; perPage: number; total: number }) => ({
  data: rows,
  meta: pageMeta(p.page, p.perPage, p.total, rows.length),
});
