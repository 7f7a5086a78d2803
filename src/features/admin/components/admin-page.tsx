import { Anchor, Badge, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { DASHBOARDS } from '#contract/roles.ts';
import { formatDate } from '#src/lib/format.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { WRAPPING_BADGE } from './wrapping-badge.ts';

/** The frame of every staff screen: a way back to the dashboard, the heading, an optional intro. */
export function AdminPage({ title, heading, intro, children }: { title: string; heading?: string; intro?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(title);
  const { data: user } = useCurrentUser();
  const dashboard = user?.role === 'super_admin' ? DASHBOARDS.super_admin : DASHBOARDS.admin;
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Anchor component={Link} to={`/${lng}${dashboard}`} size="sm">
          {t('admin.nav.dashboard')}
        </Anchor>
        <div>
          <Title order={1}>{heading ?? title}</Title>
          {intro ? <Text mt={4}>{intro}</Text> : null}
        </div>
        {children}
      </Stack>
    </Container>
  );
}

const STATUS_COLOR: Record<string, string> = {
  unverified: 'orange',
  pending: 'blue',
  active: 'teal',
  approved: 'teal',
  rejected: 'red',
  suspended: 'red',
  paused: 'gray',
  upheld: 'gray',
  reversed: 'teal',
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} variant="light" tt="none" classNames={WRAPPING_BADGE}>
      {label ?? t(`statuses.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function DateText({ value }: { value: string | null | undefined }) {
  const lng = useLng();
  return <>{value ? formatDate(value, lng) : '—'}</>;
}

export function Row({ children }: { children: ReactNode }) {
  return (
    <Group gap="xs" wrap="wrap">
      {children}
    </Group>
  );
}
