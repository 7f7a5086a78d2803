/** The Mantine implementation of the response handler's Presenter (notifications, modals, navigation). */
import { Button, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { ModalSpec, Notice, Presenter } from './response-handler.ts';
import { NOTIFICATION_DURATION_MS } from './response-handler.ts';

const COLORS = { success: 'teal', error: 'red', info: 'blue', warning: 'orange' } as const;

export function showNotice(notice: Notice) {
  // One at a time (limit 1 on <Notifications>): a new notice replaces the visible one.
  notifications.clean();
  notifications.show({
    color: COLORS[notice.type],
    title: notice.description ? notice.message : undefined,
    message: notice.description ?? notice.message,
    autoClose: NOTIFICATION_DURATION_MS,
    position: notice.placement,
  });
}

export function showModal(spec: ModalSpec) {
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

export function usePresenter(): Presenter {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lng } = useParams();
  return useMemo(
    () => ({
      t: (key: string) => t(key),
      notify: showNotice,
      openModal: showModal,
      // Server routes are language-neutral ("/login"); the PWA prefixes the current language.
      navigate: (to: string) => navigate(to.startsWith('/') && lng && !to.startsWith(`/${lng}/`) ? `/${lng}${to}` : to),
    }),
    [t, navigate, lng],
  );
}
