/**
 * The bell in the header (signed-in users): the unread count on it, and a panel with the newest notifications, each
 * linking to what it is about (opening one marks it read), "mark as read" per notification and "mark all as read".
 * A disclosure button and a non-modal panel: Escape or a press outside closes it and the focus returns to the bell.
 */
import { PushDeviceSwitch } from '#src/components/push-settings/push-settings.tsx';
import { ActionIcon, Button, Group, Indicator, Skeleton, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBell, IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { Notification } from '#contract/notifications.ts';
import { toLocaleTag } from '#contract/languages.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { useMarkRead } from '../api/use-mark-read.ts';
import { notificationText, translatorOf } from './notification-text.ts';
import { notificationsQueryOptions } from '../api/notifications-api.ts';
import classes from './notification-bell.module.css';
import { queryView } from '#src/lib/query-view.ts';

function NotificationItem({ n, onOpen, onMarkRead }: { n: Notification; onOpen: () => void; onMarkRead: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = useLng();
  const text = notificationText(n, translatorOf(i18n));
  const when = new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(n.created_at));
  const body = (
    <>
      <Text size="sm" fw={n.read ? 400 : 600} className={classes.message}>
        {text.message}
      </Text>
      {text.description ? (
        <Text size="xs" c="dimmed" lineClamp={3}>
          {text.description}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        <time dateTime={n.created_at}>{when}</time>
        {n.read ? null : <VisuallyHidden> · {t('bell.unread')}</VisuallyHidden>}
      </Text>
    </>
  );
  return (
    <li className={classes.item} data-unread={n.read ? undefined : ''}>
      <span className={classes.dot} aria-hidden />
      {n.data.link ? (
        <Link to={withLng(lng, n.data.link)} className={classes.link} onClick={onOpen}>
          {body}
        </Link>
      ) : (
        <div className={classes.link}>{body}</div>
      )}
      {n.read ? null : (
        <ActionIcon variant="subtle" color="gray" size="md" onClick={onMarkRead} aria-label={t('bell.markRead', { message: text.message })}>
          <IconCheck size={16} aria-hidden />
        </ActionIcon>
      )}
    </li>
  );
}

export function NotificationBell() {
  const { t } = useTranslation();
  const panelId = useId();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { data, isError, refetch } = useQuery(notificationsQueryOptions());
  const view = queryView({ data, isError });
  const markRead = useMarkRead();
  const unread = data?.meta.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    // On the document, not the panel: "mark all as read" disables itself, and the focus it had goes to the body.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  // The installed app's icon shows the unread count where the Badging API exists (issue 25; the worker sets it from
  // a push while the app is closed).
  useEffect(() => {
    const nav = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    if (!nav.setAppBadge) return;
    void (unread > 0 ? nav.setAppBadge(unread) : nav.clearAppBadge?.())?.catch(() => undefined);
  }, [unread]);

  return (
    <div ref={rootRef} className={classes.root}>
      <Indicator label={unread > 99 ? '99+' : unread} size={16} offset={6} disabled={unread === 0} color="red" zIndex={1}>
        <ActionIcon
          ref={buttonRef}
          variant="subtle"
          color="gray"
          size="lg"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          aria-label={unread > 0 ? t('bell.openUnread', { count: unread }) : t('bell.open')}
          onClick={() => setOpen((was) => !was)}
        >
          <IconBell size={20} aria-hidden />
        </ActionIcon>
      </Indicator>
      {open ? (
        <section id={panelId} className={classes.panel} aria-labelledby={headingId}>
          <Group justify="space-between" px="sm" py="xs" gap={4} wrap="wrap">
            <Text component="h2" id={headingId} fw={700} size="md" m={0} style={{ whiteSpace: 'nowrap' }}>
              {t('bell.title')}
            </Text>
            <Button variant="subtle" size="compact-sm" disabled={unread === 0} onClick={() => void markRead(undefined)}>
              {t('bell.markAllRead')}
            </Button>
          </Group>
          {view.state === 'loading' ? (
            <Stack p="sm" gap="xs" aria-busy>
              <Skeleton height={40} />
              <Skeleton height={40} />
            </Stack>
          ) : view.state === 'failed' ? (
            <Stack p="sm" gap="xs" align="flex-start">
              <Text size="sm" c="red">
                {t('bell.error')}
              </Text>
              <UnstyledButton onClick={() => void refetch()}>
                <Text size="sm" c="var(--mantine-primary-color-filled)">
                  {t('common.retry')}
                </Text>
              </UnstyledButton>
            </Stack>
          ) : view.data.data.length === 0 ? (
            <Text size="sm" c="dimmed" p="sm">
              {t('bell.empty')}
            </Text>
          ) : (
            <ul className={classes.list}>
              {view.data.data.map((n) => (
                <NotificationItem
                  key={n.id}
                  n={n}
                  onOpen={() => {
                    if (!n.read) void markRead([n.id]);
                    setOpen(false);
                  }}
                  onMarkRead={() => void markRead([n.id])}
                />
              ))}
            </ul>
          )}
          {/* Issue 25: where a user turns on notifications for this device, with the list in sight. */}
          <Stack px="sm" py="xs" gap={4} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <PushDeviceSwitch compact />
          </Stack>
        </section>
      ) : null}
    </div>
  );
}
