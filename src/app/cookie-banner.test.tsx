import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearConsent, closeConsentPreferences, getConsent, openConsentPreferences, setConsent } from '#src/lib/consent.ts';
import { esMessages, renderInSpanish } from '#tests/render-es.tsx';
import { CookieBanner } from './cookie-banner.tsx';

const cookies = esMessages.cookies as Record<string, string | Record<string, string>>;
const current = cookies.current as Record<string, string>;

afterEach(() => {
  closeConsentPreferences();
  clearConsent();
});

describe('CookieBanner', () => {
  it('asks a first-time visitor, with no close button (a choice is needed)', () => {
    renderInSpanish(<CookieBanner />, '/es');
    expect(screen.getByTestId('cookie-banner')).toBeTruthy();
    expect(screen.queryByRole('button', { name: cookies.keep as string })).toBeNull();
    expect(screen.queryByTestId('cookie-current-choice')).toBeNull();
  });

  it('reopened, shows the current choice, and closing keeps it', () => {
    setConsent('accepted');
    renderInSpanish(<CookieBanner />, '/es');
    expect(screen.queryByTestId('cookie-banner')).toBeNull();
    act(() => openConsentPreferences());
    expect(screen.getByTestId('cookie-current-choice').textContent).toBe(current.accepted);
    expect(screen.getByRole('button', { name: cookies.accept as string }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: cookies.keep as string }));
    expect(screen.queryByTestId('cookie-banner')).toBeNull();
    expect(getConsent()).toBe('accepted');
  });
});
