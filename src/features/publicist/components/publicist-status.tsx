/** The pieces the publicist's screens share: the loading and load-error states and the profile's review state. */
import { Alert, Button, Group, List, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { PublicistProfile } from '#contract/publicists.ts';

const STATUS_COLORS: Record<string, string> = {
  active: 'teal',
  pending: 'blue',
  unverified: 'gray',
  paused: 'gray',
  rejected: 'red',
  suspended: 'red',
};

export function Loading() {
  return (
    <Stack gap="md" aria-busy="true">
      <Skeleton height={72} radius="lg" />
      <Skeleton height={160} radius="lg" />
    </Stack>
  );
}

export function LoadError({ onRetry, text }: { onRetry: () => void; text: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg" radius="lg">
      <Group justify="space-between">
        <Text>{text}</Text>
        <Button variant="light" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Paper>
  );
}

/** The profile's review state with the staff's reasons when restricted. */
export function StatusCard({ profile }: { profile: PublicistProfile }) {
  const { t } = useTranslation();
  const restricted = profile.status === 'rejected' || profile.status === 'suspended';
  return (
    <Alert
      color={STATUS_COLORS[profile.status]}
      variant="light"
      icon={restricted ? <IconAlertTriangle size={18} aria-hidden /> : <IconCircleCheck size={18} aria-hidden />}
      title={t('publicist.statusTitle', { status: t(`statuses.${profile.status}`) })}
    >
      <Stack gap={4}>
        <Text size="sm">{t(`publicist.status.${profile.status}`)}</Text>
        {profile.reasons && (profile.reasons.codes.length || profile.reasons.text) ? (
          <div>
            <Text size="sm" fw={600}>
              {t('publicist.reasons')}
            </Text>
            <List size="sm">
              {profile.reasons.codes.map((c) => (
                <List.Item key={c}>{t([`statements.grounds.${c}`, `modelProfile.reasons.${c}`], { defaultValue: c })}</List.Item>
              ))}
              {profile.reasons.text ? <List.Item>{profile.reasons.text}</List.Item> : null}
            </List>
          </div>
        ) : null}
      </Stack>
    </Alert>
  );
}
