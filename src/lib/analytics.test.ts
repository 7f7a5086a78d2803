import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetPageViewMemory, trackContactTap, trackPageView } from './analytics.ts';
import type { apiRequest } from './api-client.ts';
import { clearConsent, setConsent } from './consent.ts';

const send = vi.fn(() => Promise.resolve({ status: 204, data: undefined })) as unknown as typeof apiRequest & ReturnType<typeof vi.fn>;

beforeEach(() => {
  resetPageViewMemory();
  clearConsent();
  send.mockClear();
});
afterEach(() => clearConsent());

describe('page views', () => {
  it('are not sent before the visitor chose', async () => {
    expect(await trackPageView('/es', send)).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });
  it('are not sent after the visitor rejected', async () => {
    setConsent('rejected');
    expect(await trackPageView('/es', send)).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });
  it('are sent to the first-party endpoint after the visitor accepted, once per path change', async () => {
    setConsent('accepted');
    expect(await trackPageView('/es', send)).toBe(true);
    expect(await trackPageView('/es', send)).toBe(false);
    expect(await trackPageView('/es/legal/privacy-policy', send)).toBe(true);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenCalledWith('/api/analytics/pageview', { method: 'POST', body: { path: '/es' } });
  });
});

describe('contact taps', () => {
  it('are not sent before the visitor chose, nor after a rejection', async () => {
    expect(await trackContactTap(7, 'call', send)).toBe(false);
    setConsent('rejected');
    expect(await trackContactTap(7, 'message', send)).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });
  it('are sent first-party with the ad, the kind and the consent after the visitor accepted, each tap', async () => {
    setConsent('accepted');
    expect(await trackContactTap(7, 'call', send)).toBe(true);
    expect(await trackContactTap(7, 'message', send)).toBe(true);
    expect(send).toHaveBeenNthCalledWith(1, '/api/analytics/contact-tap', {
      method: 'POST',
      body: { ad_id: 7, kind: 'call', consent: 'accepted' },
    });
    expect(send).toHaveBeenNthCalledWith(2, '/api/analytics/contact-tap', {
      method: 'POST',
      body: { ad_id: 7, kind: 'message', consent: 'accepted' },
    });
  });
  it('a failed send is swallowed (false), never thrown at the visitor', async () => {
    setConsent('accepted');
    const failing = vi.fn(() => Promise.reject(new Error('offline'))) as unknown as typeof apiRequest;
    expect(await trackContactTap(7, 'call', failing)).toBe(false);
  });
});
