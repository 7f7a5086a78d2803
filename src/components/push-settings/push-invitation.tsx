import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useThisDevicePush, type DeviceState, type PushSupport } from '#src/lib/push/push-client.ts';

const ASKED = 'vitrina.push-invitation';

/** Whether this device was already invited (asked once per device, whatever the answer). */
export const pushInvitationSeen = () => {
  try {
    return localStorage.getItem(ASKED) !== null;
  } catch {
    return true;
  }
};

/** The rules of the invitation: after the moment, once per device, only where turning it on can work and is not done. */
export const invitationVisible = (o: { show: boolean; seen: boolean; support: PushSupport; state?: DeviceState }) =>
  o.show && !o.seen && o.support === 'supported' && !!o.state && !o.state.on && o.state.permission !== 'denied';

/**
 * The one invitation to turn notifications on (issue 25), shown after a moment that makes the value clear — the
 * user's first support message, an ad or profile waiting for review — never on a first visit, never again once answered, never when this device cannot
 * have them, has them on, or the user blocked them.
 */
export function PushInvitation({ show, reason = 'support' }: { show: boolean; reason?: 'support' | 'review' }) {
  const { t } = useTranslation();
  const { support, state, busy, toggle } = useThisDevicePush();
  const [seen, setSeen] = useState(pushInvitationSeen);
  if (!invitationVisible({ show, seen, support, state })) return null;
  const done = () => {
    try {
      localStorage.setItem(ASKED, new Date().toISOString());
    } catch {
      // Private mode: asked again next time, no harm.
    }
    setSeen(true);
  };
  return (
    <Paper withBorder radius="md" p="sm" role="region" aria-label={t('push.invite.label')} data-testid="push-invitation">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconBellRinging size={20} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm">{t(reason === 'review' ? 'push.invite.review' : 'push.invite.text')}</Text>
        </Group>
        <Group gap="xs">
          <Button size="xs" loading={busy} onClick={() => void toggle(true).finally(done)}>
            {t('push.invite.accept')}
          </Button>
          <Button size="xs" variant="subtle" onClick={done}>
            {t('push.invite.later')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
