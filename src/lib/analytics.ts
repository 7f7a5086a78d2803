/** First-party page views (POST /api/analytics/pageview), sent only after the visitor accepted analytics. */
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
