import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetPageViewMemory, trackPageView } from './analytics.ts';
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
