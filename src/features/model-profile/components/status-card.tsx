import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockHour4, IconPlayerPause, IconShieldQuestion, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { ModelProfile } from '#contract/profiles.ts';
import type { Status } from '#contract/statuses.ts';

const LOOK: Record<Status, { color: string; icon: ReactNode }> = {
  unverified: { color: 'orange', icon: <IconShieldQuestion size={20} aria-hidden /> },
  pending: { color: 'blue', icon: <IconClockHour4 size={20} aria-hidden /> },
  active: { color: 'teal', icon: <IconCircleCheck size={20} aria-hidden /> },
  rejected: { color: 'red', icon: <IconX size={20} aria-hidden /> },
  suspended: { color: 'red', icon: <IconAlertTriangle size={20} aria-hidden /> },
  paused: { color: 'gray', icon: <IconPlayerPause size={20} aria-hidden /> },
};

/**
 * The profile's status card of SPEC §4: unverified asks for a photo with "Verificar Ahora", active thanks the
 * user, suspended lists the reasons, pending and rejected say what happens next, paused has no description.
 */
export function StatusCard({ profile, verifyTo }: { profile: Pick<ModelProfile, 'status' | 'reasons'>; verifyTo: string }) {
  const { t } = useTranslation();
  const { status, reasons } = profile;
  const look = LOOK[status];
  const reasonList = [
    ...(reasons?.codes ?? []).map((c) => t([`statements.grounds.${c}`, `modelProfile.reasons.${c}`], { defaultValue: c })),
    ...(reasons?.text ? [reasons.text] : []),
  ];
  return (
    <Alert
      color={look.color}
      variant="light"
      icon={look.icon}
      title={t('modelProfile.status.title', { status: t(`statuses.${status}`) })}
      data-status={status}
    >
      <Stack gap="xs" align="flex-start">
        {status === 'paused' ? null : <Text size="sm">{t(`modelProfile.status.${status}`)}</Text>}
        {(status === 'suspended' || status === 'rejected') && reasonList.length ? (
          <List size="sm" aria-label={t('modelProfile.status.reasons')}>
            {reasonList.map((r) => (
              <List.Item key={r}>{r}</List.Item>
            ))}
          </List>
        ) : null}
        {status === 'unverified' || status === 'rejected' ? (
          <Button component={Link} to={verifyTo} size="sm" color={look.color}>
            {t('modelProfile.status.verifyNow')}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}
