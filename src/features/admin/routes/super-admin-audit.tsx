/** Super admin: the read-only audit log, filtered by who, what and when. */
import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useSearchParams } from '#src/lib/router.tsx';
import { useLng } from '#src/lib/paths.ts';
import { toLocaleTag } from '#contract/languages.ts';
import { adminListOptions, type AuditEntry } from '../api/admin-api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { ListPagination } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { auditActionLabel, auditReasonLabel, auditSubjectLabel, type Translator } from '../lib/audit-labels.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const AUDIT_FILTERS = ['actor', 'action', 'subject_type', 'subject_id', 'from', 'to'] as const;
type AuditFilter = (typeof AUDIT_FILTERS)[number];
const FILTER_LABEL: Record<AuditFilter, string> = {
  actor: 'audit.filters.actor',
  action: 'audit.filters.action',
  subject_type: 'audit.filters.subjectType',
  subject_id: 'audit.filters.subjectId',
  from: 'audit.filters.from',
  to: 'audit.filters.to',
};

function Json({ value, label }: { value: unknown; label: string }) {
  if (value === null || value === undefined) return <>—</>;
  // Scrollable when long; focusable so keyboard users can scroll it too.
  return (
    <Code
      block
      tabIndex={0}
      aria-label={label}
      style={{ whiteSpace: 'pre-wrap', fontSize: 11, maxWidth: 320, maxHeight: 120, overflow: 'auto' }}
    >
      {JSON.stringify(value, null, 1)}
    </Code>
  );
}

/** The translated action, with the raw code beside it (staff filter by the code). */
function ActionCell({ action, tr }: { action: string; tr: Translator }) {
  const label = auditActionLabel(tr, action);
  if (!label) return <Code>{action}</Code>;
  return (
    <Stack gap={2}>
      <Text size="sm">{label}</Text>
      <Code fz={11} c="dimmed" bg="transparent" p={0}>
        {action}
      </Code>
    </Stack>
  );
}

function ReasonCell({ reason, tr }: { reason: AuditEntry['reason']; tr: Translator }) {
  const codes = reason?.codes ?? [];
  if (!codes.length && !reason?.text) return <>—</>;
  return (
    <Stack gap={2}>
      {codes.length ? (
        <Text size="sm" title={codes.join(', ')}>
          {codes.map((c) => auditReasonLabel(tr, c)).join('; ')}
        </Text>
      ) : null}
      {reason?.text ? <Text size="sm">{reason.text}</Text> : null}
      {codes.length ? (
        <Code fz={11} c="dimmed" bg="transparent" p={0}>
          {codes.join(', ')}
        </Code>
      ) : null}
    </Stack>
  );
}

export function SuperAdminAuditRoute() {
  const { t, i18n } = useTranslation();
  const tr: Translator = { t: (key) => t(key), exists: (key) => i18n.exists(key) };
  const lng = useLng();
  const when = (iso: string) =>
    new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
  const [params, setParams] = useSearchParams();
  const current = Object.fromEntries(AUDIT_FILTERS.map((k) => [k, params.get(k) ?? ''])) as Record<AuditFilter, string>;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [params]); // eslint-disable-line react-hooks/exhaustive-deps
  const query = { ...current, page };
  const { data, isPending, isError } = useQuery(adminListOptions<AuditEntry>(API.superAdminAudit, query));
  const apply = (next: Record<string, string>, nextPage = 1) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v.trim()) p.set(k, v.trim());
    if (nextPage > 1) p.set('page', String(nextPage));
    setParams(p);
  };
  const columns: Column<AuditEntry>[] = [
    { key: 'when', label: t('audit.columns.when'), render: (e) => when(e.created_at) },
    {
      key: 'actor',
      label: t('audit.columns.actor'),
      render: (e) => (e.actor.email ? `${e.actor.email} (${e.actor.role})` : t('audit.system')),
    },
    { key: 'action', label: t('audit.columns.action'), render: (e) => <ActionCell action={e.action} tr={tr} /> },
    {
      key: 'subject',
      label: t('audit.columns.subject'),
      render: (e) => <span title={e.subject_type}>{`${auditSubjectLabel(tr, e.subject_type)} #${e.subject_id ?? '—'}`}</span>,
    },
    {
      key: 'before',
      label: t('audit.columns.before'),
      render: (e) => <Json value={e.before} label={`${t('audit.columns.before')} #${e.id}`} />,
    },
    {
      key: 'after',
      label: t('audit.columns.after'),
      render: (e) => <Json value={e.after} label={`${t('audit.columns.after')} #${e.id}`} />,
    },
    {
      key: 'reason',
      label: t('audit.columns.reason'),
      render: (e) => <ReasonCell reason={e.reason} tr={tr} />,
    },
  ];
  return (
    <AdminPage title={t('audit.title')} heading={t('audit.heading')} intro={t('audit.readOnly')}>
      <Group
        component="form"
        role="search"
        align="flex-end"
        gap="sm"
        wrap="wrap"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        {AUDIT_FILTERS.map((k) => (
          <TextInput
            key={k}
            label={t(FILTER_LABEL[k])}
            type={k === 'from' || k === 'to' ? 'date' : 'text'}
            inputMode={k === 'subject_id' ? 'numeric' : undefined}
            value={draft[k]}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setDraft((d) => ({ ...d, [k]: v }));
            }}
            w={{ base: '100%', xs: 180 }}
          />
        ))}
        <Button type="submit" variant="light">
          {t('audit.filters.apply')}
        </Button>
        <Button variant="subtle" onClick={() => apply({})}>
          {t('audit.filters.reset')}
        </Button>
      </Group>
      <ResponsiveTable
        caption={t('audit.heading')}
        columns={columns}
        rows={data?.data}
        rowKey={(e) => e.id}
        title={(e) => `${auditActionLabel(tr, e.action) ?? e.action} · ${when(e.created_at)}`}
        loading={isPending}
        error={failedWithNothingSaved({ data, isError })}
      />
      <ListPagination meta={data?.meta} onChange={(p) => apply(current, p)} />
    </AdminPage>
  );
}
