/**
 * Install and update prompts (loaded by pwa-controls.tsx when needed).
 * - Install: the browser's own install dialog where it offers one (`beforeinstallprompt`), else on iOS Safari the
 *   steps to add the app to the home screen (Safari has no install API).
 * - Update: a new version waits (sw-updates.ts); the visitor chooses when to switch. A page with input not sent yet
 *   warns first instead of reloading over it.
 */
import { ActionIcon, Button, Group, List, Modal, Notification, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconRefresh, IconShare2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { clearInstallPrompt, hasUnsavedInput, type PwaState } from './pwa-state.ts';

export function InstallButton({ state }: { state: PwaState }) {
  const { t } = useTranslation();
  const [steps, setSteps] = useState(false);
  const install = async () => {
    const prompt = state.installPrompt;
    if (!prompt) {
      setSteps(true);
      return;
    }
    await prompt.prompt();
    // The event can be used once, whatever the answer; `appinstalled` then hides the button for good.
    await prompt.userChoice.catch(() => undefined);
    clearInstallPrompt();
  };
  return (
    <>
      <Tooltip label={t('pwa.install')}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={t('pwa.install')}
          onClick={() => void install()}
          data-testid="install-app"
        >
          <IconDownload size={20} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Modal opened={steps} onClose={() => setSteps(false)} title={t('pwa.installTitle')} centered>
        <Text mb="sm">{t('pwa.iosIntro')}</Text>
        <List type="ordered" spacing="xs">
          <List.Item>
            {t('pwa.iosStep1')} <IconShare2 size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />
          </List.Item>
          <List.Item>{t('pwa.iosStep2')}</List.Item>
          <List.Item>{t('pwa.iosStep3')}</List.Item>
        </List>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setSteps(false)}>{t('common.close')}</Button>
        </Group>
      </Modal>
    </>
  );
}

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
