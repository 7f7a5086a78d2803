import { describe, expect, it } from 'vitest';
import { countryFor } from '#src/components/model-ad-form/model-ad-values.ts';
import { formatPhone } from './phone.ts';

describe('the model dashboard', () => {
  it('shows the phone grouped as people write it', () => {
    expect(formatPhone('+34612345678')).toBe('+34 612 34 56 78');
    expect(formatPhone('not a phone')).toBe('not a phone');
  });
});

describe('the location step', () => {
  const countries = [
    { id: 1, iso2: 'DE' },
    { id: 2, iso2: 'ES' },
    { id: 3, iso2: 'PT' },
  ];
  it("starts in the phone's country, else Spain", () => {
    expect(countryFor(countries, 'PT')).toBe(3);
    expect(countryFor(countries, 'es')).toBe(2);
    expect(countryFor(countries, 'FR')).toBe(2);
    expect(countryFor([], 'ES')).toBeNull();
  });
});
