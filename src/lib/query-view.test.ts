import { describe, expect, it } from 'vitest';
import { failedWithNothingSaved, queryView } from './query-view.ts';

describe('queryView', () => {
  it('shows a saved answer whose refresh failed (offline) instead of the error', () => {
    const saved = { data: { name: 'Agencia' }, isError: true, error: new Error('offline') };
    expect(queryView(saved)).toEqual({ state: 'ready', data: { name: 'Agencia' } });
    expect(failedWithNothingSaved(saved)).toBe(false);
  });

  it('keeps a saved "none" (null) answer: no profile yet is an answer, not a failure', () => {
    expect(queryView({ data: null, isError: true })).toEqual({ state: 'ready', data: null });
  });

  it('shows the error only when nothing is saved', () => {
    const error = new Error('offline');
    expect(queryView({ data: undefined, isError: true, error })).toEqual({ state: 'failed', error });
    expect(failedWithNothingSaved({ data: undefined, isError: true })).toBe(true);
  });

  it('is loading while there is no answer and no failure', () => {
    expect(queryView({ data: undefined, isError: false })).toEqual({ state: 'loading' });
    expect(failedWithNothingSaved({ data: undefined, isError: false })).toBe(false);
  });
});
