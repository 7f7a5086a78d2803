import { describe, expect, it } from 'vitest';
import type { AdSummary, ModelProfile } from '#contract/profiles.ts';
import { gapAction, listingGap } from './listing-gap.ts';

const ad = (over: Partial<AdSummary> = {}) => ({ is_listed: false, is_active: true, status: 'active', ...over }) as AdSummary;
const profile = (over: Partial<ModelProfile> = {}, adOver: Partial<AdSummary> = {}) =>
  ({ status: 'active', consent_status: 'not_required', ad: ad(adOver), ...over }) as ModelProfile;

describe('listingGap', () => {
  // The defect: an approved ad of a model whose verification was not approved only said "visitors do not see it yet".
  it('an approved ad of an unverified model is not shown because of the verification, which she can do now', () => {
    const gap = listingGap(profile({ status: 'unverified' }));
    expect(gap).toBe('unverified');
    expect(gapAction(gap)).toBe('verify');
  });

  it('names each reason in the order the listing rule checks them', () => {
    expect(listingGap(profile({}, { is_listed: true }))).toBeNull();
    expect(listingGap(profile({ status: 'unverified' }, { status: 'pending' }))).toBe('review');
    expect(listingGap(profile({}, { status: 'suspended' }))).toBe('restricted');
    expect(listingGap(profile({ status: 'pending' }))).toBe('verificationPending');
    expect(listingGap(profile({ status: 'rejected' }))).toBe('verificationRejected');
    expect(listingGap(profile({ status: 'paused' }))).toBe('profileRestricted');
    expect(listingGap(profile({}, { is_active: false }))).toBe('off');
    expect(listingGap(profile({ consent_status: 'pending' }))).toBe('consent');
    // Everything in order on her side, yet not listed (an agency's or account's restriction): no invented reason.
    expect(listingGap(profile())).toBeNull();
    expect(listingGap({ status: 'active', consent_status: 'not_required', ad: null })).toBeNull();
  });

  it('links a restriction to its statement and a pending review to nothing', () => {
    expect(gapAction('restricted')).toBe('statements');
    expect(gapAction('review')).toBeNull();
    expect(gapAction('verificationPending')).toBeNull();
  });
});
