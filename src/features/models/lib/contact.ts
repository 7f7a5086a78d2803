import type { ContactTapKind } from '#contract/analytics.ts';
import { API } from '#contract/routes.ts';
import { apiRequest } from '#src/lib/api-client.ts';
import { getConsent } from '#src/lib/consent.ts';

/**
 * "+34 612 34 56 78" for display; the raw value when it is not a valid number (it still works in tel:).
 * libphonenumber's metadata is ~35 kB gzipped, so it loads on demand, after the page has rendered.
 */
export async function formatPhone(phone: string): Promise<string> {
  const { parsePhoneNumberFromString } = await import('libphonenumber-js');
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}

/** `tel:` wants the E.164 form without spaces. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** wa.me takes the full international number as digits only (no +, no spaces, no leading zeros). */
export function whatsappHref(phone: string): string | undefined {
  const digits = phone.replace(/\D/g, '').replace(/^0+/, '');
  return digits.length >= 6 ? `https://wa.me/${digits}` : undefined;
}

/**
 * Reports a tap on an ad's call (`call`) or WhatsApp (`message`) button for the advertiser's weekly numbers
 * (POST /api/analytics/contact-tap, first-party), only once the visitor accepted analytics cookies; returns whether it
 * was sent. The server also refuses a tap that does not carry the consent, and counts one per visitor, ad and kind an
 * hour. Here rather than in src/lib/analytics.ts: only the model page needs it, and the home's bundle stays as it is.
 */
export async function reportContactTap(adId: number, kind: ContactTapKind, send: typeof apiRequest = apiRequest): Promise<boolean> {
  if (getConsent() !== 'accepted') return false;
  try {
    await send(API.adContactTap, { method: 'POST', body: { ad_id: adId, kind, consent: 'accepted' } });
    return true;
  } catch {
    // Counting must never disturb the visitor (offline, the ad gone meanwhile): the tap is simply not counted.
    return false;
  }
}
