/**
 * The client dashboard's notifications (issue 28): the newest ones, saved-search alerts among them, with what each is
 * about linked, unread ones marked (in words too, for screen readers) and "mark all as read". The same list and query
 * as the bell (notifications-api.ts), so reading one here clears it there.
 */
import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { toLocaleTag } from '#contract/languages.ts';
import type { Notification } from '#contract/notifications.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { queryView } from '#src/lib/query-view.ts';
import { notificationsQueryOptions } from '../api/notifications-api.ts';
import { useMarkRead } from '../api/use-mark-read.ts';
import { notificationText, translatorOf } from './notification-text.ts';

/** How many the dashboard shows; the bell has the rest. */
export const DASHBOARD_NOTIFICATIONS = 6;

function Item({ n, onOpen }: { n: Notification; onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = useLng();
  const text = notificationText(n, translatorOf(i18n));
  const when = new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(n.created_at));
  return (
    <li>
      <Stack gap={2}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          {n.data.link ? (
            <Anchor
              component={Link}
              to={withLng(lng, n.data.link)}
              onClick={onOpen}
              fw={n.read ? 500 : 700}
              size="sm"
              style={{ minWidth: 0 }}
            >
              {text.message}
            </Anchor>
          ) : (
            <Text size="sm" fw={n.read ? 500 : 700} style={{ minWidth: 0 }}>
              {text.message}
            </Text>
          )}
          {n.read ? null : (
            <Badge size="sm" color="red" variant="light" tt="none" style={{ flexShrink: 0 }}>
              {t('clientDashboard.notifications.unread')}
            </Badge>
          )}
        </Group>
        {text.description ? (
          <Text size="sm" c="dimmed" lineClamp={3}>
            {text.description}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          <time dateTime={n.created_at}>{when}</time>
        </Text>
      </Stack>
    </li>
  );
}

export function NotificationsPanel() {
  const { t } = useTranslation();
  const headingId = useId();
  const { data, isError } = useQuery(notificationsQueryOptions());
  const view = queryView({ data, isError });
  const markRead = useMarkRead();
  const unread = data?.meta.unread ?? 0;
  return (
    // Its title («Tus notificaciones») differs from the bell's panel («Notificaciones»): both are regions when the bell is
    // open on the dashboard, and two landmarks of one name cannot be told apart (axe landmark-unique).
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby={headingId} data-testid="notifications-panel">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={2} size="h4" id={headingId}>
            {t('clientDashboard.notifications.title')}
            {unread > 0 ? (
              <Text component="span" size="sm" c="dimmed" fw={400} ml="xs">
                {t('clientDashboard.notifications.unreadCount', { count: unread })}
              </Text>
            ) : null}
          </Title>
          {unread > 0 ? (
            <Button variant="subtle" size="compact-sm" onClick={() => void markRead(undefined)}>
              {t('clientDashboard.notifications.markAllRead')}
            </Button>
          ) : null}
        </Group>
        {view.state === 'loading' ? (
          <Skeleton height={72} radius="md" />
        ) : view.state === 'failed' ? (
          <Text c="red">{t('clientDashboard.notifications.error')}</Text>
        ) : view.data.data.length === 0 ? (
          <Text c="dimmed">{t('clientDashboard.notifications.empty')}</Text>
        ) : (
          <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {view.data.data.slice(0, DASHBOARD_NOTIFICATIONS).map((n) => (
              <Item key={n.id} n={n} onOpen={() => (n.read ? undefined : void markRead([n.id]))} />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
