/** iOS Safari's steps to add the app to the home screen (opened by the install button: Safari has no install API). */
import { Button, Group, List, Modal, Text } from '@mantine/core';
import { IconShare2 } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

export function InstallSteps({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('pwa.installTitle')} centered>
      <Text mb="sm">{t('pwa.iosIntro')}</Text>
      <List type="ordered" spacing="xs">
        <List.Item>
          {t('pwa.iosStep1')} <IconShare2 size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />
        </List.Item>
        <List.Item>{t('pwa.iosStep2')}</List.Item>
        <List.Item>{t('pwa.iosStep3')}</List.Item>
      </List>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>{t('common.close')}</Button>
      </Group>
    </Modal>
  );
}
