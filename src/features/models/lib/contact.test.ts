import { describe, expect, it } from 'vitest';
import { formatPhone, telHref, whatsappHref } from './contact.ts';

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
