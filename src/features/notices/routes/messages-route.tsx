/** Staff: messages from the contact form and from signed-in users (new first), filtered by status; mark read or archive. */
import { Anchor, Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { CONTACT_STATUSES, type ContactMessage } from '#contract/contact.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { runAction } from '#src/lib/response-handler.ts';
import { messagesOptions, NOTICES_KEY, setMessageStatus } from '../api/notices-api.ts';
import { DateTime, ListPager, ListState, StaffPage, useUrlFilters } from '../components/notices-ui.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const FILTERS = ['all', ...CONTACT_STATUSES] as const;
const STATUS_COLOR: Record<ContactMessage['status'], string> = { new: 'blue', read: 'gray', archived: 'dark' };

function MessageCard({ m }: { m: ContactMessage }) {
  const { t } = useTranslation();
  const ui = usePresenter();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [busy, setBusy] = useState<null | 'read' | 'archived'>(null);
  const change = async (status: 'read' | 'archived') => {
    setBusy(status);
    const done = await runAction(() => setMessageStatus(m.id, status), ui);
    setBusy(null);
    if (done) await queryClient.invalidateQueries({ queryKey: [...NOTICES_KEY, 'messages'] });
  };
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-labelledby={headingId} data-testid="contact-message">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {m.subject}
          </Title>
          <Group gap={6}>
            <Badge color={STATUS_COLOR[m.status]} variant="light" tt="none" data-testid="message-status">
              {t(`notices.messages.statuses.${m.status}`)}
            </Badge>
            <Badge color="gray" variant="outline" tt="none">
              {t(`notices.messages.kinds.${m.kind}`)}
            </Badge>
          </Group>
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {m.name} ·{' '}
          <Anchor underline="always" href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`}>
            {m.email}
          </Anchor>{' '}
          · <DateTime value={m.created_at} />
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {m.message}
        </Text>
        <Group gap="xs">
          {m.status === 'new' ? (
            <Button
              size="xs"
              variant="light"
              loading={busy === 'read'}
              onClick={() => void change('read')}
              aria-label={`${t('notices.messages.markRead')}: ${m.subject}`}
            >
              {t('notices.messages.markRead')}
            </Button>
          ) : null}
          {m.status !== 'archived' ? (
            <Button
              size="xs"
              variant="default"
              loading={busy === 'archived'}
              onClick={() => void change('archived')}
              aria-label={`${t('notices.messages.archive')}: ${m.subject}`}
            >
              {t('notices.messages.archive')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

export function ContactMessagesRoute() {
  const { t } = useTranslation();
  const { values, page, update } = useUrlFilters({ status: 'all' });
  const status = (FILTERS as readonly string[]).includes(values.status) ? values.status : 'all';
  // The labels side by side do not fit a phone in every language: below `sm` the filter stacks them.
  const narrow = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const query = useQuery(messagesOptions({ status, page }));
  const rows = query.data?.data;
  return (
    <StaffPage title={t('notices.messages.title')} intro={t('notices.messages.intro')}>
      <SegmentedControl
        aria-label={t('notices.filters.status')}
        value={status}
        onChange={(s) => update({ status: s })}
        data={FILTERS.map((s) => ({ value: s, label: t(`notices.messages.filters.${s}`) }))}
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth
        maw={520}
      />
      <ListState
        loading={query.isPending}
        error={failedWithNothingSaved(query)}
        empty={rows?.length === 0}
        emptyText={t('notices.messages.empty')}
      />
      {rows?.length ? (
        <Stack gap="md" style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
          {rows.map((m) => (
            <MessageCard key={m.id} m={m} />
          ))}
        </Stack>
      ) : null}
      <ListPager meta={query.data?.meta} onChange={(p) => update({ page: p })} />
    </StaffPage>
  );
}
