/** Pieces shared by the staff screens of notices and contact messages: the frame, badges, pagination, URL params. */
import { Alert, Anchor, Badge, Container, Group, Pagination, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useSearchParams } from '#src/lib/router.tsx';
import type { PaginationMeta } from '#contract/listings.ts';
import { URGENT_REPORT_REASONS, type Report, type ReportReason } from '#contract/reports.ts';
import { DASHBOARDS } from '#contract/roles.ts';
import { toLocaleTag } from '#contract/languages.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { useCurrentUser } from '#src/lib/session.ts';

/** The frame of a staff screen: the way back, the heading, an optional intro. */
export function StaffPage({
  title,
  back,
  intro,
  children,
}: {
  title: string;
  back?: { to: string; label: string };
  intro?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(title);
  const { data: user } = useCurrentUser();
  const dashboard = user?.role === 'super_admin' ? DASHBOARDS.super_admin : DASHBOARDS.admin;
  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <Anchor component={Link} to={back?.to ?? `/${lng}${dashboard}`} size="sm">
          {back?.label ?? t('notices.nav.dashboard')}
        </Anchor>
        <div>
          <Title order={1}>{title}</Title>
          {intro ? <Text mt={4}>{intro}</Text> : null}
        </div>
        {children}
      </Stack>
    </Container>
  );
}

export const isUrgent = (reason: ReportReason) => URGENT_REPORT_REASONS.includes(reason);

/** The reason, red when it is a suspected minor or trafficking, plus the escalation flag. */
export function ReasonBadges({ report }: { report: Pick<Report, 'reason' | 'escalate'> }) {
  const { t } = useTranslation();
  const urgent = isUrgent(report.reason);
  return (
    <Group gap={6} wrap="wrap">
      <Badge color={urgent ? 'red' : 'gray'} variant="light" tt="none" data-testid="report-reason">
        {t(`reports.reasons.${report.reason}`)}
      </Badge>
      {report.escalate ? (
        <Badge
          color="red.9"
          variant="filled"
          tt="none"
          leftSection={<IconAlertTriangle size={12} aria-hidden />}
          data-testid="escalate-flag"
        >
          {t('notices.escalate')}
        </Badge>
      ) : null}
    </Group>
  );
}

const OUTCOME_COLOR: Record<Report['status'], string> = { open: 'blue', actioned: 'teal', dismissed: 'gray' };

export function OutcomeBadge({ status }: { status: Report['status'] }) {
  const { t } = useTranslation();
  return (
    // Never cut to "Pendien…" in a narrow table column: the badge sizes to its word.
    <Badge
      color={OUTCOME_COLOR[status]}
      variant="light"
      tt="none"
      data-testid="report-status"
      style={{ flexShrink: 0, overflow: 'visible' }}
      miw="max-content"
    >
      {t(`reports.outcomes.${status}`)}
    </Badge>
  );
}

export function DateTime({ value }: { value: string | null | undefined }) {
  const lng = useLng();
  if (!value) return <>—</>;
  const text = new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
  return <time dateTime={value}>{text}</time>;
}

/** Loading, error and empty states of a list. Returns null when there is something to show. */
export function ListState({ loading, error, empty, emptyText }: { loading: boolean; error: boolean; empty: boolean; emptyText: string }) {
  const { t } = useTranslation();
  if (error) return <Alert color="red">{t('notices.list.error')}</Alert>;
  if (loading)
    return (
      <Stack gap="sm" aria-busy="true">
        <VisuallyHidden role="status">{t('common.loading')}</VisuallyHidden>
        <Skeleton height={72} radius="md" />
        <Skeleton height={72} radius="md" />
        <Skeleton height={72} radius="md" />
      </Stack>
    );
  if (empty)
    return (
      <Alert color="gray" variant="light" data-testid="empty-state">
        {emptyText}
      </Alert>
    );
  return null;
}

export function ListPager({ meta, onChange }: { meta: PaginationMeta | undefined; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  if (!meta) return null;
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {t('notices.list.results', { count: meta.total })}
      </Text>
      {meta.last_page > 1 ? (
        <nav aria-label={t('notices.list.pagination')}>
          <Pagination
            total={meta.last_page}
            value={meta.current_page}
            onChange={onChange}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`notices.list.page.${control}`) })}
            getItemProps={(page) => ({ 'aria-label': t('notices.list.page.number', { page }) })}
          />
        </nav>
      ) : null}
    </Group>
  );
}

/**
 * Filters kept in the URL (shareable, reloadable, back-button friendly). A value equal to its default is left out;
 * changing a filter starts again at page 1.
 */
export function useUrlFilters<K extends string>(defaults: Record<K, string>) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(Object.entries(defaults).map(([k, d]) => [k, params.get(k) ?? d])) as Record<K, string>;
  const page = Math.max(1, Math.min(1000, Number(params.get('page')) || 1));
  const update = (patch: Partial<Record<K | 'page', string | number>>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (!('page' in patch)) next.delete('page');
      for (const [k, v] of Object.entries(patch) as [string, string | number][]) {
        const d = k === 'page' ? '1' : (defaults as Record<string, string>)[k];
        if (String(v) === d) next.delete(k);
        else next.set(k, String(v));
      }
      return next;
    });
  return { values, page, update };
}
