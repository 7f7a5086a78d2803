import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { apiRequest } from '#src/lib/api-client.ts';
import { clearConsent, setConsent } from '#src/lib/consent.ts';
import { formatPhone, reportContactTap, telHref, whatsappHref } from './contact.ts';

describe('contact links', () => {
  it('formats an E.164 number for display and keeps anything unparseable as is', async () => {
    expect(await formatPhone('+34612345678')).toBe('+34 612 34 56 78');
    expect(await formatPhone('12')).toBe('12');
  });

  it('builds tel: and wa.me links from the digits', () => {
    expect(telHref('+34 612 34 56 78')).toBe('tel:+34612345678');
    expect(whatsappHref('+34612345678')).toBe('https://wa.me/34612345678');
    expect(whatsappHref('+1')).toBeUndefined();
  });
});

describe('contact taps', () => {
  const send = vi.fn(() => Promise.resolve({ status: 204, data: undefined })) as unknown as typeof apiRequest & ReturnType<typeof vi.fn>;
  beforeEach(() => {
    clearConsent();
    send.mockClear();
  });
  afterEach(() => clearConsent());

  it('are not sent before the visitor chose, nor after a rejection', async () => {
    expect(await reportContactTap(7, 'call', send)).toBe(false);
    setConsent('rejected');
    expect(await reportContactTap(7, 'message', send)).toBe(false);
    expect(send).not.toHaveBeenCalled();
  });

  it('are sent first-party with the ad, the kind and the consent after the visitor accepted, each tap', async () => {
    setConsent('accepted');
    expect(await reportContactTap(7, 'call', send)).toBe(true);
    expect(await reportContactTap(7, 'message', send)).toBe(true);
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
    expect(await reportContactTap(7, 'call', failing)).toBe(false);
  });
});
