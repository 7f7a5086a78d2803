/**
 * What a screen shows for a query whose answer may be a saved copy (the persisted query cache, src/lib/query-persist.ts):
 * the answer whenever there is one — offline, a refresh that failed leaves the query in error *with* its saved answer,
 * and that answer is what the user came back for — and the load error only when there is nothing to show. Every
 * screen with saved data goes through here, so none of them trades a saved copy for "could not load".
 */

/** The parts of a TanStack query result this looks at (a `useQuery` result, or its destructured fields). */
export interface QueryLike<T> {
  data: T | undefined;
  isError: boolean;
}

export type QueryView<T> =
  /** No answer yet, none saved: the screen's skeleton. */
  | { state: 'loading' }
  /** Asking failed and nothing is saved: the screen's error with its retry. */
  | { state: 'failed'; error?: unknown }
  /** An answer: fresh, or the saved one while its refresh failed or waits for the network. */
  | { state: 'ready'; data: T };

export function queryView<T>(query: QueryLike<T> & { error?: unknown }): QueryView<T> {
  if (query.data !== undefined) return { state: 'ready', data: query.data };
  if (query.isError) return { state: 'failed', error: query.error };
  return { state: 'loading' };
}

/** The load error is for a query that failed with nothing saved, never for a saved answer whose refresh failed. */
export function failedWithNothingSaved(query: QueryLike<unknown>): boolean {
  return query.isError && query.data === undefined;
}
