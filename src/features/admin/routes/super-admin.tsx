/** Super admin: administrators (list + create) and the read-only audit log viewer. */
import { Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { PasswordField } from '#src/components/password-field.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { createAdminSchema } from '#contract/auth.ts';
import { useApiForm } from '#src/lib/forms.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { useLng } from '#src/lib/paths.ts';
import { toLocaleTag } from '#contract/languages.ts';
import { ADMIN_KEY, adminListOptions, createAdmin, type AdminUser, type AuditEntry } from '../api/admin-api.ts';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { auditActionLabel, auditReasonLabel, auditSubjectLabel, type Translator } from '../lib/audit-labels.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const ADMIN_FIELDS = ['name', 'email', 'password', 'password_confirmation'] as const;
type AdminField = (typeof ADMIN_FIELDS)[number];

function CreateAdminForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const empty = { name: '', email: '', password: '', password_confirmation: '' };
  const [values, setValues] = useState<Record<AdminField, string>>(empty);
  const { formRef, errors, pending, validate, run, clearError, ui } = useApiForm(ADMIN_FIELDS);
  const field = (name: AdminField) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const v = e.currentTarget.value;
      setValues((prev) => ({ ...prev, [name]: v }));
      clearError(name);
    },
  });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = validate(createAdminSchema, values);
    if (!parsed) return;
    const res = await run(() => createAdmin(parsed));
    if (!res) return;
    handleAnswer(res, ui);
    setValues(empty);
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="create-admin">
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm" maw={480}>
          <Title order={2} size="h4" id="create-admin">
            {t('admin.admins.create')}
          </Title>
          <TextInput label={t('admin.admins.name')} autoComplete="off" required maxLength={120} {...field('name')} />
          <TextInput label={t('admin.admins.email')} type="email" autoComplete="off" required maxLength={254} {...field('email')} />
          <PasswordField label={t('admin.admins.password')} autoComplete="new-password" required {...field('password')} />
          <PasswordField
            label={t('admin.admins.passwordConfirmation')}
            autoComplete="new-password"
            required
            {...field('password_confirmation')}
          />
          {errors._ ? (
            <Text c="red" size="sm" data-form-error tabIndex={-1}>
              {errors._}
            </Text>
          ) : null}
          <Group>
            <Button type="submit" loading={pending}>
              {t('admin.admins.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export function SuperAdminAdminsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams();
  const { data, isPending, isError } = useQuery(
    adminListOptions<AdminUser>(API.superAdminAdmins, { search: params.search, page: params.page }),
  );
  const columns: Column<AdminUser>[] = [
    { key: 'name', label: t('admin.columns.name'), render: (u) => u.name },
    { key: 'email', label: t('admin.columns.email'), render: (u) => u.email },
    { key: 'role', label: t('admin.columns.role'), render: (u) => t(`account.roles.${u.role}`) },
    { key: 'status', label: t('admin.columns.status'), render: (u) => <StatusBadge status={u.status} /> },
    { key: 'created', label: t('admin.columns.created'), render: (u) => <DateText value={u.created_at} /> },
  ];
  return (
    <AdminPage title={t('admin.admins.title')} heading={t('admin.admins.heading')}>
      <CreateAdminForm />
      <ListFilters params={params} update={update} />
      <ResponsiveTable
        caption={t('admin.admins.heading')}
        columns={columns}
        rows={data?.data}
        rowKey={(u) => u.id}
        title={(u) => u.name}
        loading={isPending}
        error={failedWithNothingSaved({ data, isError })}
      />
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
    </AdminPage>
  );
}

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
