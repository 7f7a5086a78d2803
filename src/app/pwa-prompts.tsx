/**
 * The update prompt (loaded by pwa-controls.tsx when needed; the install button is pwa-install-button.tsx).
 * - Update: a new version waits (sw-updates.ts); the visitor chooses when to switch. A page with input not sent yet
 *   warns first instead of reloading over it.
 */
import { Button, Group, Notification, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { hasUnsavedInput } from './pwa-state.ts';

export function UpdatePrompt({ update }: { update: () => void }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(false);
  const [warned, setWarned] = useState(false);
  const [updating, setUpdating] = useState(false);
  if (dismissed) return null;
  const apply = () => {
    if (!warned && hasUnsavedInput()) {
      setWarned(true);
      return;
    }
    setUpdating(true);
    update();
  };
  return (
    <div
      role="status"
      data-testid="update-prompt"
      style={{
        position: 'fixed',
        insetInline: 0,
        bottom: 16,
        zIndex: 300,
        display: 'flex',
        justifyContent: 'center',
        padding: '0 16px',
        pointerEvents: 'none',
      }}
    >
      <Notification
        icon={<IconRefresh size={18} aria-hidden />}
        title={t('pwa.updateTitle')}
        withCloseButton={false}
        withBorder
        maw={440}
        w="100%"
        style={{ pointerEvents: 'auto' }}
      >
        <Text size="sm" c={warned ? 'orange' : undefined}>
          {warned ? t('pwa.unsaved') : t('pwa.updateText')}
        </Text>
        <Group gap="xs" mt="sm" justify="flex-end">
          <Button size="xs" variant="default" onClick={() => setDismissed(true)}>
            {t('pwa.later')}
          </Button>
          <Button size="xs" onClick={apply} loading={updating}>
            {warned ? t('pwa.updateAnyway') : t('pwa.update')}
          </Button>
        </Group>
      </Notification>
    </div>
  );
}
