import { afterEach, describe, expect, it } from 'vitest';
import {
  clearConsent,
  closeConsentPreferences,
  consentPreferencesOpen,
  getConsent,
  openConsentPreferences,
  setConsent,
} from './consent.ts';

afterEach(() => {
  closeConsentPreferences();
  clearConsent();
});

describe('cookie preferences', () => {
  it('opening them keeps the earlier choice in force (it used to be forgotten)', () => {
    setConsent('accepted');
    openConsentPreferences();
    expect(consentPreferencesOpen()).toBe(true);
    expect(getConsent()).toBe('accepted');
  });

  it('closing them without choosing keeps the choice', () => {
    setConsent('rejected');
    openConsentPreferences();
    closeConsentPreferences();
    expect(consentPreferencesOpen()).toBe(false);
    expect(getConsent()).toBe('rejected');
  });

  it('a new choice replaces the old one and closes them', () => {
    setConsent('accepted');
    openConsentPreferences();
    setConsent('rejected');
    expect(consentPreferencesOpen()).toBe(false);
    expect(getConsent()).toBe('rejected');
  });
});
