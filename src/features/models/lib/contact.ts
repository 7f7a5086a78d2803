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
