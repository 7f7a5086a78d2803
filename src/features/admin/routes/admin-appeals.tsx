/** Staff: the appeals against moderation decisions, with their statement, to uphold or reverse. */
import { API } from '#contract/routes.ts';
import { Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { APPEAL_FILTERS } from '#contract/admin.ts';
import { adminListOptions, type AdminAppeal } from '../api/admin-api.ts';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { ListPagination, useListParams } from '../components/list-controls.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { AppealDialog } from '../components/appeal-dialog.tsx';
import { Empty } from '../components/review-empty.tsx';

export function AdminAppealsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', APPEAL_FILTERS);
  // Four labels side by side need ~400 px: below `sm` the filter stacks them (full width) so nothing is cut off at 360 px.
  const narrow = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [target, setTarget] = useState<{ id: number; outcome: 'upheld' | 'reversed' } | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<AdminAppeal>(API.adminAppeals, { status: params.status, page: params.page }),
  );
  return (
    <AdminPage title={t('admin.appeals.title')} heading={t('admin.appeals.heading')}>
      <SegmentedControl
        aria-label={t('admin.filters.status')}
        value={params.status}
        onChange={(status) => update({ status })}
        data={APPEAL_FILTERS.map((s) => ({ value: s, label: t(`admin.appealFilters.${s}`) }))}
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth
        maw={520}
      />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      <Stack gap="md">
        {data?.data.map((a) => {
          const s = a.statement;
          const name = `${t(`statements.subjects.${s.subject_type}`)}${s.subject_label ? ` «${s.subject_label}»` : ''}`;
          return (
            <Paper key={a.id} withBorder p="md" radius="md" component="article" aria-label={name}>
              <Stack gap="xs">
                <Group justify="space-between" gap="xs">
                  <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                    {name}
                  </Title>
                  <StatusBadge status={a.status} label={t(`statements.appeal.statuses.${a.status}`)} />
                </Group>
                {a.user ? (
                  <Text size="sm" c="dimmed">
                    {t('admin.appeals.by', { name: a.user.name, email: a.user.email })} · <DateText value={a.created_at} />
                  </Text>
                ) : null}
                <Text size="sm">
                  <strong>{t('admin.appeals.statement')}:</strong> {t(`statements.decisions.${s.decision}`)} —{' '}
                  {t(`statements.grounds.${s.ground}`)}. {s.facts}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  <strong>{t('admin.appeals.text')}:</strong> {a.text}
                </Text>
                {a.decision_text ? (
                  <Text size="sm">
                    <strong>{t('admin.appeals.decided')}:</strong> {a.decision_text}
                  </Text>
                ) : null}
                {a.status === 'pending' ? (
                  <Group gap="xs">
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setTarget({ id: a.id, outcome: 'upheld' })}
                      aria-label={`${t('admin.appeals.uphold')}: ${name}`}
                    >
                      {t('admin.appeals.uphold')}
                    </Button>
                    <Button
                      size="xs"
                      color="teal"
                      onClick={() => setTarget({ id: a.id, outcome: 'reversed' })}
                      aria-label={`${t('admin.appeals.reverse')}: ${name}`}
                    >
                      {t('admin.appeals.reverse')}
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <AppealDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}
