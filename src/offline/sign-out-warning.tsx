/**
 * Signing out with changes still queued (issue 15 point 6): the user is told first that they stay on this device,
 * unsent, until they sign in again, and may look at them instead. Loaded only when the device has a queue for this
 * user (src/components/account-nav.tsx), so signing out stays as light as before for everyone else.
 */
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { loadOverlays } from '#src/lib/overlays.tsx';
import { countUnsent } from './outbox.ts';

/** Resolves true to go on signing out; false when the user chose to look at the queue (`review`) or closed it. */
export async function confirmSignOutWithQueue(
  userId: number,
  t: (key: string, params?: Record<string, unknown>) => string,
  review: () => void,
): Promise<boolean> {
  const count = await countUnsent(userId).catch(() => 0);
  if (count === 0) return true;
  await loadOverlays();
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: t('outbox.signOut.title'),
      centered: true,
      children: <Text size="sm">{t('outbox.signOut.text', { count })}</Text>,
      labels: { confirm: t('outbox.signOut.confirm'), cancel: t('outbox.signOut.review') },
      confirmProps: { color: 'red', 'data-testid': 'sign-out-anyway' } as Record<string, unknown>,
      onConfirm: () => resolve(true),
      onCancel: () => {
        review();
        resolve(false);
      },
      onClose: () => resolve(false),
    });
  });
}
