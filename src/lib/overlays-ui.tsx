/**
 * The notification and modal layer (Mantine notifications + modals) and the functions that show things in it.
 * Loaded on first use by overlays.tsx, so the home route does not pay for Modal, Notification, focus trapping,
 * scroll locking and their transitions before anything is shown.
 */
import '@mantine/notifications/styles.css';
import { Button, Stack, Text } from '@mantine/core';
import { modals, ModalsProvider } from '@mantine/modals';
import { notifications, Notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import classes from './overlays-ui.module.css';
import type { ModalSpec, Notice } from './response-handler.ts';
import { DEFAULT_PLACEMENT, NOTIFICATION_DURATION_MS, NOTIFICATION_LIMIT } from './response-handler.ts';

const COLORS = { success: 'teal', error: 'red', info: 'blue', warning: 'orange' } as const;

// The close button's accessible name, in the current language (kept by <Overlays>, which re-renders on a language change).
let closeLabel = 'Cerrar';

export function showNoticeNow(notice: Notice) {
  // One at a time (limit 1 on <Notifications>): a new notice replaces the visible one.
  notifications.clean();
  notifications.show({
    color: COLORS[notice.type],
    title: notice.description ? notice.message : undefined,
    message: notice.description ?? notice.message,
    autoClose: NOTIFICATION_DURATION_MS,
    position: notice.placement,
    closeButtonProps: { 'aria-label': closeLabel },
  });
}

export function showModalNow(spec: ModalSpec) {
  const id = modals.open({
    title: spec.title,
    centered: true,
    children: (
      <Stack>
        {spec.content ? <Text>{spec.content}</Text> : null}
        <Button color={spec.type === 'error' ? 'red' : undefined} onClick={() => modals.close(id)} data-autofocus>
          {spec.okText}
        </Button>
      </Stack>
    ),
  });
}

/** Runs `onReady` once the providers listen: their listeners attach in layout effects, before this effect. */
function Ready({ onReady }: { onReady: () => void }) {
  useEffect(onReady, [onReady]);
  return null;
}

export function Overlays({ onReady }: { onReady: () => void }) {
  const { t } = useTranslation();
  closeLabel = t('common.close');
  return (
    <ModalsProvider labels={{ confirm: t('common.close'), cancel: t('common.close') }}>
      <Notifications
        position={DEFAULT_PLACEMENT}
        limit={NOTIFICATION_LIMIT}
        autoClose={NOTIFICATION_DURATION_MS}
        zIndex={199}
        classNames={{ root: classes.root }}
      />
      <Ready onReady={onReady} />
    </ModalsProvider>
  );
}
