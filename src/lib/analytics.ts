/**
 * First-party analytics, sent only after the visitor accepted analytics cookies: page views
 * (POST /api/analytics/pageview) and taps on a model page's contact buttons (POST /api/analytics/contact-tap), which
 * the advertiser sees as calls and messages in her weekly numbers.
 */
import type { ContactTapKind } from '#contract/analytics.ts';
import { API } from '#contract/routes.ts';
import { apiRequest } from './api-client.ts';
import { getConsent } from './consent.ts';

let lastPath: string | undefined;

/** Records one view of `path` (no query string: searches stay private). Returns whether it was sent. */
export async function trackPageView(path: string, send: typeof apiRequest = apiRequest): Promise<boolean> {
  if (getConsent() !== 'accepted') return false;
  if (path === lastPath) return false;
  lastPath = path;
  const referrer = document.referrer && !document.referrer.startsWith(location.origin) ? document.referrer.slice(0, 512) : undefined;
  try {
    await send(API.pageView, { method: 'POST', body: { path: path.slice(0, 512), ...(referrer ? { referrer } : {}) } });
    return true;
  } catch {
    // Analytics must never disturb the visitor.
    return false;
  }
}

export function resetPageViewMemory() {
  lastPath = undefined;
}

/**
 * Reports a tap on an ad's call (`call`) or WhatsApp (`message`) button. Returns whether it was sent. The server also
 * refuses a tap that does not carry the consent, and counts one per visitor, ad and kind an hour.
 */
export async function trackContactTap(adId: number, kind: ContactTapKind, send: typeof apiRequest = apiRequest): Promise<boolean> {
  if (getConsent() !== 'accepted') return false;
  try {
    await send(API.adContactTap, { method: 'POST', body: { ad_id: adId, kind, consent: 'accepted' } });
    return true;
  } catch {
    // Analytics must never disturb the visitor (offline, the ad gone meanwhile): the tap is simply not counted.
    return false;
  }
}
