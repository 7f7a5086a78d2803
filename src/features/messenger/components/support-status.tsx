/** Whether support is online now, else how long a reply usually takes (GET /api/support/chat/status). */
import { Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { supportStatusQueryOptions } from '../api/messenger-api.ts';

export function SupportStatus() {
  const { t } = useTranslation();
  const { data } = useQuery(supportStatusQueryOptions());
  if (!data) return null;
  const minutes = data.expected_reply_minutes;
  const text = data.online
    ? t('messenger.status.online')
    : minutes === null
      ? t('messenger.status.soon')
      : minutes >= 90
        ? t('messenger.status.replyHours', { count: Math.round(minutes / 60) })
        : t('messenger.status.replyMinutes', { count: Math.max(1, minutes) });
  return (
    <Group gap={6} wrap="nowrap" data-testid="support-status">
      <span
        aria-hidden
        style={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          flex: 'none',
          background: data.online ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-gray-6)',
        }}
      />
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Group>
  );
}
