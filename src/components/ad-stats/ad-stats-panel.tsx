import { Button, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { AdStats, AdWeekStats } from '#contract/ad-stats.ts';
import { toLocaleTag, type Language } from '#contract/languages.ts';
import { useLng } from '#src/lib/paths.ts';
import { queryView } from '#src/lib/query-view.ts';
import { adStatsQueryOptions } from './ad-stats-api.ts';

export const AD_STAT_METRICS = [
  'impressions',
  'opens',
  'favourites',
  'calls',
  'messages',
] as const satisfies readonly (keyof AdWeekStats)[];

/** "23 nov" for the Monday `week` (YYYY-MM-DD), in the page's language; the date is a calendar day, read in UTC. */
export function weekLabel(week: string, lng: Language): string {
  return new Intl.DateTimeFormat(toLocaleTag(lng), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${week}T00:00:00Z`),
  );
}

const numberFormat = (lng: Language) => new Intl.NumberFormat(toLocaleTag(lng));

/** This week beside the last, metric by metric: a small table that reads at 360 px. */
function ThisWeek({ ad }: { ad: AdStats }) {
  const { t } = useTranslation();
  const lng = useLng();
  const nf = numberFormat(lng);
  const [now, before] = ad.weeks;
  return (
    <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing="xs" fz="sm">
      <caption style={{ captionSide: 'top', textAlign: 'start', padding: 0 }}>
        <Text component="span" size="xs" c="dimmed">
          {t('adStats.compareCaption')}
        </Text>
      </caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('adStats.metricHeader')}</Table.Th>
          <Table.Th scope="col" ta="end">
            {t('adStats.thisWeek')}
          </Table.Th>
          <Table.Th scope="col" ta="end">
            {t('adStats.lastWeek')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {AD_STAT_METRICS.map((m) => (
          <Table.Tr key={m}>
            <Table.Th scope="row" fw={500}>
              {t(`adStats.metric.${m}`)}
            </Table.Th>
            <Table.Td ta="end" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`ad-stats-now-${m}`}>
              {nf.format(now?.[m] ?? 0)}
            </Table.Td>
            <Table.Td ta="end" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {nf.format(before?.[m] ?? 0)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Every week of the range and its totals; wider than a phone, so it scrolls sideways in a focusable region. */
function Weekly({ ad, id }: { ad: AdStats; id: string }) {
  const { t } = useTranslation();
  const lng = useLng();
  const nf = numberFormat(lng);
  return (
    <div
      id={id}
      role="region"
      aria-label={t('adStats.weeklyCaption', { count: ad.weeks.length })}
      tabIndex={0}
      style={{ overflowX: 'auto' }}
    >
      <Table miw={480} striped verticalSpacing={4} horizontalSpacing="xs" fz="sm">
        <caption style={{ captionSide: 'top', textAlign: 'start', padding: 0 }}>
          <Text component="span" size="xs" c="dimmed">
            {t('adStats.weeklyCaption', { count: ad.weeks.length })}
          </Text>
        </caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('adStats.weekHeader')}</Table.Th>
            {AD_STAT_METRICS.map((m) => (
              <Table.Th scope="col" ta="end" key={m}>
                {t(`adStats.metric.${m}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ad.weeks.map((w) => (
            <Table.Tr key={w.week}>
              <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={w.week}>{weekLabel(w.week, lng)}</time>
              </Table.Th>
              {AD_STAT_METRICS.map((m) => (
                <Table.Td ta="end" key={m} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {nf.format(w[m])}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row">{t('adStats.total')}</Table.Th>
            {AD_STAT_METRICS.map((m) => (
              <Table.Td ta="end" fw={700} key={m} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {nf.format(ad.totals[m])}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </div>
  );
}

function AdStatsCard({ ad }: { ad: AdStats }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const weeklyId = useId();
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="article" aria-labelledby={titleId} data-testid="ad-stats-card">
      <Stack gap="xs">
        <div>
          <Title order={3} size="h5" id={titleId}>
            {ad.title}
          </Title>
          <Text size="sm" c="dimmed">
            {ad.model_name}
          </Text>
        </div>
        <ThisWeek ad={ad} />
        <Text size="sm">{t('adStats.favouritesTotal', { count: ad.favourites_total })}</Text>
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          aria-expanded={open}
          aria-controls={open ? weeklyId : undefined}
          rightSection={open ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? t('adStats.hideWeeks') : t('adStats.showWeeks', { count: ad.weeks.length })}
        </Button>
        {open ? <Weekly ad={ad} id={weeklyId} /> : null}
      </Stack>
    </Paper>
  );
}

/**
 * The advertiser's numbers in her dashboard (the model's ads, or the agency's models' ads): a card per ad with this
 * week against the last and, on demand, every week of the last eight with totals. Counts only: never who.
 */
export function AdStatsPanel() {
  const { t } = useTranslation();
  const headingId = useId();
  const { data, isError } = useQuery(adStatsQueryOptions());
  const view = queryView({ data, isError });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby={headingId} data-testid="ad-stats-panel">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('adStats.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('adStats.intro')}
        </Text>
        {view.state === 'loading' ? (
          <Skeleton height={160} radius="md" />
        ) : view.state === 'failed' ? (
          <Text c="red">{t('adStats.error')}</Text>
        ) : view.data.data.length === 0 ? (
          <Text c="dimmed">{t('adStats.empty')}</Text>
        ) : (
          view.data.data.map((ad) => <AdStatsCard key={ad.ad_id} ad={ad} />)
        )}
      </Stack>
    </Paper>
  );
}
