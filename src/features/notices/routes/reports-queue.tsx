/** Staff: the queue of notices about ads (DSA art. 16), urgent ones first and flagged (art. 18). */
import { Anchor, Box, Group, Paper, Select, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { REPORT_REASONS, REPORT_STATUSES, type Report } from '#contract/reports.ts';
import { useLng } from '#src/lib/paths.ts';
import { reportsOptions } from '../api/notices-api.ts';
import {
  DateTime,
  isUrgent,
  ListPager,
  ListState,
  OutcomeBadge,
  ReasonBadges,
  StaffPage,
  useUrlFilters,
} from '../components/notices-ui.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { AdSummary } from '../components/ad-summary.tsx';

const STATUS_FILTERS = ['open', ...REPORT_STATUSES.filter((s) => s !== 'open'), 'all'] as const;
const pick = <T extends string>(value: string, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
export function ReportsQueueRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  const { values, page, update } = useUrlFilters({ status: 'open', reason: 'all', escalate: 'all' });
  const status = pick(values.status, STATUS_FILTERS, 'open');
  const reason = pick(values.reason, ['all', ...REPORT_REASONS], 'all');
  const escalate = pick(values.escalate, ['all', '1', '0'], 'all');
  const query = useQuery(
    reportsOptions({ status, reason: reason === 'all' ? undefined : reason, escalate: escalate === 'all' ? undefined : escalate, page }),
  );
  const rows = query.data?.data;
  const link = (r: Report) => `/${lng}/admin/reports/${r.id}`;
  const open = (r: Report) => (
    <Anchor component={Link} to={link(r)} fw={600} data-testid="report-open">
      {t('notices.queue.open', { id: r.id })}
    </Anchor>
  );
  const urgentStyle = (r: Report) =>
    isUrgent(r.reason) && r.status === 'open' ? { borderInlineStart: '4px solid var(--mantine-color-red-8)' } : undefined;
  return (
    <StaffPage title={t('notices.queue.title')} intro={t('notices.queue.intro')}>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm" maw={760} role="group" aria-label={t('notices.filters.label')}>
        <Select
          label={t('notices.filters.status')}
          data={STATUS_FILTERS.map((s) => ({ value: s, label: t(`notices.filters.statuses.${s}`) }))}
          value={status}
          onChange={(v) => update({ status: v ?? 'open' })}
          allowDeselect={false}
        />
        <Select
          label={t('notices.filters.reason')}
          data={[
            { value: 'all', label: t('notices.filters.allReasons') },
            ...REPORT_REASONS.map((r) => ({ value: r, label: t(`reports.reasons.${r}`) })),
          ]}
          value={reason}
          onChange={(v) => update({ reason: v ?? 'all' })}
          allowDeselect={false}
        />
        <Select
          label={t('notices.filters.escalate')}
          data={(['all', '1', '0'] as const).map((v) => ({ value: v, label: t(`notices.filters.escalateOptions.${v}`) }))}
          value={escalate}
          onChange={(v) => update({ escalate: v ?? 'all' })}
          allowDeselect={false}
        />
      </SimpleGrid>
      <ListState
        loading={query.isPending}
        error={failedWithNothingSaved(query)}
        empty={rows?.length === 0}
        emptyText={t('notices.queue.empty')}
      />
      {rows?.length ? (
        <Box aria-busy={query.isPlaceholderData} style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
          <Box visibleFrom="sm">
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Caption style={{ captionSide: 'top', textAlign: 'start' }}>
                  <VisuallyHidden>{t('notices.queue.title')}</VisuallyHidden>
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('notices.columns.reason')}</Table.Th>
                    <Table.Th scope="col">{t('notices.columns.ad')}</Table.Th>
                    <Table.Th scope="col">{t('notices.columns.received')}</Table.Th>
                    <Table.Th scope="col">{t('notices.columns.status')}</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>{t('notices.columns.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.id} data-testid="report-row" style={urgentStyle(r)}>
                      <Table.Td>
                        <ReasonBadges report={r} />
                      </Table.Td>
                      <Table.Td maw={360}>
                        <AdSummary report={r} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          <DateTime value={r.created_at} />
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <OutcomeBadge status={r.status} />
                      </Table.Td>
                      <Table.Td>{open(r)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Box>
          <Stack
            gap="sm"
            hiddenFrom="sm"
            component="ul"
            aria-label={t('notices.queue.title')}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {rows.map((r) => (
              <Paper key={r.id} withBorder p="md" radius="md" component="li" data-testid="report-row" style={urgentStyle(r)}>
                <Stack gap={6}>
                  <Group justify="space-between" gap="xs" align="flex-start">
                    <ReasonBadges report={r} />
                    <OutcomeBadge status={r.status} />
                  </Group>
                  <AdSummary report={r} />
                  <Text size="sm" c="dimmed">
                    <DateTime value={r.created_at} />
                  </Text>
                  {open(r)}
                </Stack>
              </Paper>
            ))}
          </Stack>
        </Box>
      ) : null}
      <ListPager meta={query.data?.meta} onChange={(p) => update({ page: p })} />
    </StaffPage>
  );
}
