/**
 * "Sin conexión: mostrando los datos guardados." while the browser says it is offline: what is on screen then
 * comes from the service worker's copies (sw/runtime-cache.ts), and new searches may find nothing. A status
 * region, so screen readers hear it when the connection drops.
 */
import { Group, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

function subscribe(notify: () => void) {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
}
const isOffline = () => !navigator.onLine;

export function OfflineNotice() {
  const { t } = useTranslation();
  const offline = useSyncExternalStore(subscribe, isOffline, () => false);
  return (
    <div role="status" data-testid="offline-notice">
      {offline ? (
        <Group
          gap={8}
          justify="center"
          wrap="nowrap"
          px="md"
          py={6}
          style={{
            background: 'var(--mantine-color-yellow-light)',
            borderBottom: '1px solid var(--mantine-color-default-border)',
          }}
        >
          <IconWifiOff size={16} aria-hidden />
          <Text size="sm">{t('common.offline')}</Text>
        </Group>
      ) : null}
    </div>
  );
}
