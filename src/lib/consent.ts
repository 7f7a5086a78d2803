/**
 * The visitor's cookie choice, kept in localStorage (it is itself a strictly necessary preference).
 * Nothing optional — today only first-party page-view counting — runs before an explicit "accepted".
 */
export type ConsentChoice = 'accepted' | 'rejected';
export const CONSENT_KEY = 'cookie-consent';
const EVENT = 'vitrina:consent';

export function getConsent(): ConsentChoice | null {
  try {
    const v = localStorage.getItem(CONSENT_KEY);
    return v === 'accepted' || v === 'rejected' ? v : null;
  } catch {
    return null;
  }
}

export function setConsent(choice: ConsentChoice): void {
  preferencesOpen = false;
  try {
    localStorage.setItem(CONSENT_KEY, choice);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  window.dispatchEvent(new CustomEvent(EVENT, { detail: choice }));
}

export function clearConsent(): void {
  try {
    localStorage.removeItem(CONSENT_KEY);
  } catch {
    /* ignore */
  }
  window.dispatchEvent(new CustomEvent(EVENT, { detail: null }));
}

/**
 * "Preferencias de cookies" opens the banner again without touching the choice: the earlier choice stays in force
 * until another is made, and closing the banner without choosing keeps it (it used to be forgotten on opening).
 */
let preferencesOpen = false;

export function consentPreferencesOpen(): boolean {
  return preferencesOpen;
}

export function openConsentPreferences(): void {
  preferencesOpen = true;
  window.dispatchEvent(new CustomEvent(EVENT, { detail: getConsent() }));
}

export function closeConsentPreferences(): void {
  preferencesOpen = false;
  window.dispatchEvent(new CustomEvent(EVENT, { detail: getConsent() }));
}

export function subscribeConsent(listener: () => void): () => void {
  window.addEventListener(EVENT, listener);
  window.addEventListener('storage', listener);
  return () => {
    window.removeEventListener(EVENT, listener);
    window.removeEventListener('storage', listener);
  };
}
