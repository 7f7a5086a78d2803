/**
 * The super admin's review numbers (issue 29 point 4): decisions per hour of the last 24 hours per queue, and per rule
 * how many decisions were appealed and overturned. Plain tables (screen readers read them cell by cell; no chart).
 */
import { Alert, Paper, ScrollArea, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { REVIEW_STAT_QUEUES, type ReviewStats } from '#contract/admin.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';
import { ADMIN_KEY } from '../api/admin-api.ts';

export function ReviewStatsPanel() {
  const { t, i18n } = useTranslation();
  const { data, isPending, isError } = useQuery({
    queryKey: [...ADMIN_KEY, 'review-stats'],
    queryFn: ({ signal }) => apiGet<{ data: ReviewStats }>(API.superAdminReviewStats, signal).then((r) => r.data),
  });
  const hourFormat = new Intl.DateTimeFormat(i18n.language.replace('_', '-'), { hour: '2-digit', minute: '2-digit' });
  // Hours with decisions only, newest first: 24 empty rows would hide the ones that say something.
  const hours = (data?.hours ?? []).filter((h) => h.total > 0).reverse();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="review-stats-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="review-stats-title">
          {t('reviewQueue.stats.title')}
        </Title>
        {isError ? <Alert color="red">{t('reviewQueue.stats.error')}</Alert> : null}
        {isPending ? <Skeleton height={120} /> : null}
        {data ? (
          <>
            <ScrollArea type="auto">
              <Table striped withTableBorder data-testid="review-stats-hours">
                <Table.Caption>{t('reviewQueue.stats.hoursCaption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('reviewQueue.stats.hour')}</Table.Th>
                    {REVIEW_STAT_QUEUES.map((q) => (
                      <Table.Th scope="col" key={q}>
                        {t(`reviewQueue.stats.queues.${q}`)}
                      </Table.Th>
                    ))}
                    <Table.Th scope="col">{t('reviewQueue.stats.total')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {hours.map((h) => (
                    <Table.Tr key={h.hour}>
                      <Table.Th scope="row">{hourFormat.format(new Date(h.hour))}</Table.Th>
                      {REVIEW_STAT_QUEUES.map((q) => (
                        <Table.Td key={q}>{h.decided[q] ?? 0}</Table.Td>
                      ))}
                      <Table.Td>{h.total}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            {hours.length === 0 ? <Text c="dimmed">{t('reviewQueue.stats.none')}</Text> : null}
            <ScrollArea type="auto">
              <Table striped withTableBorder data-testid="review-stats-rules">
                <Table.Caption>{t('reviewQueue.stats.rulesCaption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('reviewQueue.stats.rule')}</Table.Th>
                    <Table.Th scope="col">{t('reviewQueue.stats.decisions')}</Table.Th>
                    <Table.Th scope="col">{t('reviewQueue.stats.appealed')}</Table.Th>
                    <Table.Th scope="col">{t('reviewQueue.stats.overturned')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rules.map((r) => (
                    <Table.Tr key={r.code}>
                      <Table.Th scope="row">{t(`statements.grounds.${r.code}`)}</Table.Th>
                      <Table.Td>{r.decisions}</Table.Td>
                      <Table.Td>{r.appealed}</Table.Td>
                      <Table.Td>{r.overturned}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
