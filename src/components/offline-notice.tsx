/**
 * "Sin conexión: mostrando los datos guardados." while the browser says it is offline: what is on screen then
 * comes from the service worker's copies (sw/runtime-cache.ts), and new searches may find nothing. A status
 * region, so screen readers hear it when the connection drops. The notice sits at the top of the page and scrolls
 * with it (never covering the page); the header's icon (OfflineIndicator) keeps the state in sight further down.
 */
import { Group, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

function subscribe(notify: () => void) {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
}
const isOffline = () => !navigator.onLine;
const useOffline = () => useSyncExternalStore(subscribe, isOffline, () => false);

/** The header's reminder: an icon named like the notice (which screen readers already heard). */
export function OfflineIndicator() {
  const { t } = useTranslation();
  if (!useOffline()) return null;
  return (
    // A title rather than Mantine's Tooltip: the header is in every page's first load, floating-ui is not.
    <span
      role="img"
      aria-label={t('common.offline')}
      title={t('common.offline')}
      data-testid="offline-indicator"
      style={{ display: 'inline-flex', color: 'var(--mantine-color-yellow-filled)' }}
    >
      <IconWifiOff size={20} aria-hidden />
    </span>
  );
}

export function OfflineNotice() {
  const { t } = useTranslation();
  const offline = useOffline();
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
