/**
 * A client's statements of reasons (DSA art. 17) on their staff record: what was restricted, when, the measure, the
 * reasons and facts, and where the appeal stands. A table on wide screens, cards on phones (ResponsiveTable).
 */
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { AdminClient } from '#contract/admin.ts';
import type { Statement } from '#contract/statements.ts';
import { formatDate } from '#src/lib/format.ts';
import { useLng } from '#src/lib/paths.ts';
import { DateText, StatusBadge } from './admin-page.tsx';
import { ListPagination } from './list-controls.tsx';
import { ResponsiveTable, type Column } from './responsive-table.tsx';
import { WRAPPING_BADGE } from './wrapping-badge.ts';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** "Anuncio «Título»", or only the kind of thing when it no longer exists. */
export function statementName(t: Translate, s: Statement): string {
  const subject = t(`statements.subjects.${s.subject_type}`, { defaultValue: s.subject_type });
  return s.subject_label ? `${subject} «${s.subject_label}»` : subject;
}

function AppealState({ statement: s }: { statement: Statement }) {
  const { t } = useTranslation();
  const lng = useLng();
  if (s.appeal) {
    return (
      <Stack gap={4} align="flex-start">
        <StatusBadge status={s.appeal.status} label={t(`statements.appeal.statuses.${s.appeal.status}`)} />
        <Text size="xs" c="dimmed">
          {t('admin.client.appealFiled', { date: formatDate(s.appeal.created_at, lng) })}
        </Text>
      </Stack>
    );
  }
  const date = formatDate(s.appeal_until, lng);
  return (
    <Text size="sm" c="dimmed">
      {s.can_appeal ? t('admin.client.noAppealOpen', { date }) : t('admin.client.noAppealClosed', { date })}
    </Text>
  );
}

export function ClientStatements({
  list,
  loading,
  onPage,
}: {
  list: AdminClient['statement_list'];
  /** Another page is on its way (the current one stays on screen meanwhile). */
  loading?: boolean;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const columns: Column<Statement>[] = [
    { key: 'what', label: t('admin.client.columns.what'), render: (s) => statementName(t, s) },
    { key: 'date', label: t('admin.client.columns.date'), render: (s) => <DateText value={s.created_at} /> },
    {
      key: 'decision',
      label: t('admin.client.columns.decision'),
      render: (s) => (
        <Group gap={4} wrap="wrap">
          <Badge color="red" variant="light" tt="none" classNames={WRAPPING_BADGE}>
            {t(`statements.decisions.${s.decision}`, { defaultValue: s.decision })}
          </Badge>
          {s.automated ? (
            <Badge color="gray" variant="outline" tt="none" classNames={WRAPPING_BADGE}>
              {t('admin.client.automated')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      key: 'reasons',
      label: t('admin.client.columns.reasons'),
      render: (s) => (
        <Stack gap={2} component="span">
          {s.reason_codes.map((code) => (
            <Text key={code} size="sm" component="span">
              {t(`statements.grounds.${code}`, { defaultValue: code })}
            </Text>
          ))}
        </Stack>
      ),
    },
    {
      key: 'facts',
      label: t('admin.client.columns.facts'),
      render: (s) => (
        <Text size="sm" component="span" maw={360} style={{ display: 'block', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {s.facts || '—'}
        </Text>
      ),
    },
    { key: 'appeal', label: t('admin.client.columns.appeal'), render: (s) => <AppealState statement={s} /> },
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} aria-busy={loading || undefined}>
      <div>
        <Title order={2} size="h3" id={headingId}>
          {t('admin.client.statementsHeading')}
        </Title>
        <Text size="sm" c="dimmed" mt={4}>
          {t('admin.client.statementsIntro')}
        </Text>
      </div>
      {list.data.length === 0 && list.meta.total > 0 ? (
        // A page past the end (an old link): say so rather than "no statements".
        <Group gap="sm">
          <Text c="dimmed">{t('admin.client.pageEmpty')}</Text>
          <Button variant="light" size="xs" onClick={() => onPage(1)}>
            {t('admin.list.page.first')}
          </Button>
        </Group>
      ) : (
        <ResponsiveTable
          caption={t('admin.client.statementsHeading')}
          columns={columns}
          rows={list.data}
          rowKey={(s) => s.id}
          title={(s) => statementName(t, s)}
          empty={t('admin.client.statementsEmpty')}
        />
      )}
      {list.meta.total > 0 ? <ListPagination meta={list.meta} onChange={onPage} /> : null}
    </Stack>
  );
}
