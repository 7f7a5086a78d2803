/**
 * Why the model's own ad is not shown to visitors, and what she can do about it (issue 24 point 12): "Los visitantes
 * no ven este anuncio todavía" alone left an approved ad of an unverified model without a reason. The order follows
 * the listing rule (server/db/migrations, `ads.is_listed`): the ad's own review first, then the profile's
 * verification, then her own switch, then a publicist's model's consent.
 */
import type { ModelProfile } from '#contract/profiles.ts';

export type ListingGap =
  | 'review'
  | 'restricted'
  | 'unverified'
  | 'verificationPending'
  | 'verificationRejected'
  | 'profileRestricted'
  | 'off'
  | 'consent'
  /** Not listed for a reason the owner's view does not know (an agency or account restriction): the plain notice. */
  | null;

export function listingGap(profile: Pick<ModelProfile, 'status' | 'consent_status' | 'ad'>): ListingGap {
  const ad = profile.ad;
  if (!ad || ad.is_listed) return null;
  if (ad.status === 'pending' || ad.status === 'unverified') return 'review';
  if (ad.status !== 'active') return 'restricted';
  if (profile.status === 'unverified') return 'unverified';
  if (profile.status === 'pending') return 'verificationPending';
  if (profile.status === 'rejected') return 'verificationRejected';
  if (profile.status !== 'active') return 'profileRestricted';
  if (!ad.is_active) return 'off';
  if (profile.consent_status === 'pending' || profile.consent_status === 'withdrawn') return 'consent';
  return null;
}

/** What the notice links to: verifying for a missing verification, the statements for a restriction of the ad. */
export function gapAction(gap: ListingGap): 'verify' | 'statements' | null {
  if (gap === 'unverified' || gap === 'verificationRejected') return 'verify';
  if (gap === 'restricted') return 'statements';
  return null;
}
