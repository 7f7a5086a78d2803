import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInSpanish } from '#tests/render-es.tsx';

const toggle = vi.fn(async () => undefined);
let device: { support: string; state?: { permission: NotificationPermission; on: boolean } };
vi.mock('#src/lib/push/push-client.ts', () => ({
  useThisDevicePush: () => ({ ...device, busy: false, error: false, loading: false, toggle }),
}));
const { PushInvitation, invitationVisible, pushInvitationSeen } = await import('./push-invitation.tsx');

const off = { permission: 'default', on: false } as const;

describe('invitationVisible', () => {
  it('shows after the moment, on a device that can turn notifications on and has not', () => {
    expect(invitationVisible({ show: true, seen: false, support: 'supported', state: off })).toBe(true);
  });

  it.each([
    ['before the moment', { show: false }],
    ['once this device was asked', { seen: true }],
    ['where Web Push is unsupported', { support: 'unsupported' as const }],
    ['in iOS Safari outside the installed app', { support: 'needs-install' as const }],
    ['while the state is unknown', { state: undefined }],
    ['when this device is already on', { state: { permission: 'granted' as const, on: true } }],
    ['when the user blocked notifications', { state: { permission: 'denied' as const, on: false } }],
  ])('never %s', (_, change) => {
    expect(invitationVisible({ show: true, seen: false, support: 'supported', state: off, ...change })).toBe(false);
  });
});

describe('PushInvitation', () => {
  beforeEach(() => {
    localStorage.clear();
    toggle.mockClear();
    device = { support: 'supported', state: off };
  });

  it('is asked once per device: «Ahora no» hides it and it does not come back', () => {
    const first = renderInSpanish(<PushInvitation show />);
    expect(screen.getByText('¿Te avisamos cuando Soporte responda, aunque la app esté cerrada?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ahora no' }));
    expect(screen.queryByTestId('push-invitation')).toBeNull();
    expect(toggle).not.toHaveBeenCalled();
    expect(pushInvitationSeen()).toBe(true);
    first.unmount();
    renderInSpanish(<PushInvitation show />);
    expect(screen.queryByTestId('push-invitation')).toBeNull();
  });

  it('«Activar avisos» turns this device on and is not asked again', async () => {
    renderInSpanish(<PushInvitation show />);
    fireEvent.click(screen.getByRole('button', { name: 'Activar avisos' }));
    expect(toggle).toHaveBeenCalledWith(true);
    await vi.waitFor(() => expect(pushInvitationSeen()).toBe(true));
  });

  it('is not shown when notifications are blocked on this device', () => {
    device = { support: 'supported', state: { permission: 'denied', on: false } };
    renderInSpanish(<PushInvitation show />);
    expect(screen.queryByTestId('push-invitation')).toBeNull();
  });
});

describe('PushInvitation after a submission for review', () => {
  it('says what it will tell about', () => {
    localStorage.clear();
    device = { support: 'supported', state: off };
    renderInSpanish(<PushInvitation show reason="review" />);
    expect(screen.getByText('¿Te avisamos cuando revisen tu anuncio, aunque la app esté cerrada?')).toBeTruthy();
  });
});
