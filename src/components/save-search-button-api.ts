/**
 * Saved searches' calls (issue 28), shared by the save dialog and the dashboard's panel: the list (persisted with the
 * query cache, so it shows offline) and the writes, which go through the outbox (send-or-queue: at once with an
 * Idempotency-Key, or queued and replayed in order, one scope per user).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { SavedSearch, SavedSearchCreate, SavedSearchList, SavedSearchUpdate } from '#contract/saved-searches.ts';
import { apiGet, apiRequest, type ApiResponse } from '#src/lib/api-client.ts';
import { sendOrQueue, type SendOrQueueResult } from '#src/offline/send-or-queue.ts';
import type { Json, OpKind } from '#src/offline/types.ts';

export const SAVED_SEARCHES_KEY = ['saved-searches'] as const;

export const savedSearchesQueryOptions = () =>
  queryOptions({
    queryKey: SAVED_SEARCHES_KEY,
    queryFn: async ({ signal }) => (await apiGet<SavedSearchList>(API.savedSearches, signal)).data,
  });

const KIND = {
  create: 'saved_search.create',
  update: 'saved_search.update',
  delete: 'saved_search.delete',
} as const satisfies Record<string, OpKind>;

type Answer = ApiResponse<{ data?: SavedSearch }>;
const scope = (userId: number) => `saved-searches:user:${userId}`;
const invalidate: Json[][] = [[...SAVED_SEARCHES_KEY]];

export function createSavedSearch(userId: number, body: SavedSearchCreate): Promise<SendOrQueueResult<Answer>> {
  return sendOrQueue(
    {
      userId,
      scope: scope(userId),
      kind: KIND.create,
      method: 'POST',
      path: API.savedSearches,
      body: body,
      label: 'savedSearches.dialog.title',
      summary: body.name,
      invalidate,
    },
    (idempotencyKey) => apiRequest<{ data?: SavedSearch }>(API.savedSearches, { method: 'POST', body, idempotencyKey }),
  );
}

export function updateSavedSearch(userId: number, s: SavedSearch, change: SavedSearchUpdate): Promise<SendOrQueueResult<Answer>> {
  const path = API.savedSearch(s.id);
  return sendOrQueue(
    {
      userId,
      scope: scope(userId),
      kind: KIND.update,
      method: 'PUT',
      path,
      body: change,
      label: 'savedSearches.panel.heading',
      summary: s.name,
      invalidate,
    },
    (idempotencyKey) => apiRequest<{ data?: SavedSearch }>(path, { method: 'PUT', body: change, idempotencyKey }),
  );
}

export function deleteSavedSearch(userId: number, s: SavedSearch): Promise<SendOrQueueResult<Answer>> {
  const path = API.savedSearch(s.id);
  return sendOrQueue(
    {
      userId,
      scope: scope(userId),
      kind: KIND.delete,
      method: 'DELETE',
      path,
      label: 'savedSearches.panel.delete',
      summary: s.name,
      invalidate,
    },
    (idempotencyKey) => apiRequest<{ data?: SavedSearch }>(path, { method: 'DELETE', idempotencyKey }),
  );
}

/** The cached list with one search changed (or removed), as the write will leave it. */
export function patchCached(client: QueryClient, id: number, change: Partial<SavedSearch> | null): void {
  client.setQueryData<SavedSearch[]>(SAVED_SEARCHES_KEY, (old) =>
    old ? (change === null ? old.filter((s) => s.id !== id) : old.map((s) => (s.id === id ? { ...s, ...change } : s))) : old,
  );
}
