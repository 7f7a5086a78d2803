import { describe, expect, it } from 'vitest';
import { APPEAL_FILTERS, VERIFICATION_FILTERS } from '#contract/admin.ts';
import { LIST_STATUSES, pickStatus } from './list-controls.tsx';

describe('pickStatus', () => {
  it("keeps a status the list's API accepts", () => {
    expect(pickStatus('pending', LIST_STATUSES, 'all')).toBe('pending');
    expect(pickStatus('all', LIST_STATUSES, 'pending')).toBe('all');
    expect(pickStatus('reversed', APPEAL_FILTERS, 'pending')).toBe('reversed');
  });

  it('drops an unknown or missing value for the default, so the list loads instead of a 400', () => {
    expect(pickStatus('bogus', LIST_STATUSES, 'all')).toBe('all');
    expect(pickStatus(null, LIST_STATUSES, 'pending')).toBe('pending');
    expect(pickStatus('', LIST_STATUSES, 'all')).toBe('all');
    // A value of another list is not this list's.
    expect(pickStatus('approved', LIST_STATUSES, 'all')).toBe('all');
    expect(pickStatus('unverified', VERIFICATION_FILTERS, 'pending')).toBe('pending');
  });
});
