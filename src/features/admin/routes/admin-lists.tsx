/** Staff listings: models, models under responsibility, publicists (and their review queue), clients, users without profile. */
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { STATUSES } from '#contract/statuses.ts';
import { ApiError } from '#src/lib/api-client.ts';
import { useLng } from '#src/lib/paths.ts';
import { adminClientOptions, adminListOptions, type AdminModel, type AdminPublicist, type AdminUser } from '../api/admin-api.ts';
import { AccountActionButton, AccountSuspendedBadge } from '../components/account-action.tsx';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { ClientStatements } from '../components/client-statements.tsx';
import { actionsFrom, DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

export function statusOptions(t: (k: string) => string): [string, string][] {
  return [['all', t('admin.filters.all')], ...STATUSES.map((s): [string, string] => [s, t(`statuses.${s}`)])];
}

function ModelsList({ underResponsibility }: { underResponsibility: boolean }) {
  const { t } = useTranslation();
  const lng = useLng();
  const [params, update] = useListParams();
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const path = underResponsibility ? API.adminModelsUnderResponsibility : API.adminModels;
  const { data, isPending, isError } = useQuery(adminListOptions<AdminModel>(path, params));
  const columns: Column<AdminModel>[] = [
    { key: 'name', label: t('admin.columns.name'), render: (m) => m.display_name },
    { key: 'status', label: t('admin.columns.status'), render: (m) => <StatusBadge status={m.status} /> },
    {
      key: 'ads',
      label: t('admin.columns.ads'),
      render: (m) =>
        m.ads ? (
          // The model's ads in the ads screen (every status), found by the model's name.
          <Anchor
            component={Link}
            to={`/${lng}${ADMIN_PATHS.reviewAds}?status=all&search=${encodeURIComponent(m.display_name)}`}
            aria-label={`${m.ads} ${t('admin.columns.ads')}: ${m.display_name}`}
          >
            {m.ads}
          </Anchor>
        ) : (
          0
        ),
    },
    underResponsibility
      ? { key: 'publicist', label: t('admin.columns.publicist'), render: (m) => m.publicist?.display_name ?? '—' }
      : {
          key: 'account',
          label: t('admin.columns.account'),
          render: (m) =>
            m.user ? (
              <Group gap={6}>
                <span style={{ overflowWrap: 'anywhere' }}>{m.user.email}</span>
                <AccountSuspendedBadge status={m.user.status} />
              </Group>
            ) : (
              (m.publicist?.display_name ?? '—')
            ),
        },
    {
      key: 'consent',
      label: t('admin.columns.consent'),
      render: (m) => t(`admin.consent.${m.consent_status}`, { defaultValue: m.consent_status }),
    },
    { key: 'created', label: t('admin.columns.created'), render: (m) => <DateText value={m.created_at} /> },
    {
      key: 'actions',
      label: t('admin.columns.actions'),
      render: (m) => (
        <Group gap="xs">
          <DecisionButtons
            subjectType="model_profile"
            subjectId={m.id}
            name={m.display_name}
            actions={actionsFrom('model_profile', m.status)}
            onDecide={setTarget}
          />
          {/* The model's own account (a publicist's model has none: its agency's account is in the publicists list). */}
          {m.user ? <AccountActionButton userId={m.user.id} name={m.display_name} status={m.user.status} onDecide={setTarget} /> : null}
        </Group>
      ),
    },
  ];
  const title = underResponsibility ? t('admin.modelsUnder.title') : t('admin.models.title');
  return (
    <AdminPage title={title} heading={underResponsibility ? t('admin.modelsUnder.heading') : t('admin.models.heading')}>
      <ListFilters params={params} update={update} statuses={statusOptions(t)} />
      <ResponsiveTable
        caption={title}
        columns={columns}
        rows={data?.data}
        rowKey={(m) => m.id}
        title={(m) => m.display_name}
        loading={isPending}
        error={failedWithNothingSaved({ data, isError })}
      />
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

export const AdminModelsRoute = () => <ModelsList underResponsibility={false} />;
export const AdminModelsUnderRoute = () => <ModelsList underResponsibility />;

function PublicistsList({ queue }: { queue: boolean }) {
  const { t } = useTranslation();
  const [params, update] = useListParams(queue ? 'pending' : 'all');
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(adminListOptions<AdminPublicist>(API.adminPublicists, params));
  const columns: Column<AdminPublicist>[] = [
    { key: 'name', label: t('admin.columns.name'), render: (p) => p.display_name },
    { key: 'status', label: t('admin.columns.status'), render: (p) => <StatusBadge status={p.status} /> },
    { key: 'legal', label: t('admin.columns.legalName'), render: (p) => p.legal_name ?? '—' },
    { key: 'tax', label: t('admin.columns.taxId'), render: (p) => p.tax_id ?? '—' },
    { key: 'address', label: t('admin.columns.address'), render: (p) => p.address ?? '—' },
    {
      key: 'contact',
      label: t('admin.columns.contact'),
      render: (p) => (
        <Group gap={6}>
          <span>{[p.phone, p.email ?? p.user.email].filter(Boolean).join(' · ')}</span>
          <AccountSuspendedBadge status={p.user.status} />
        </Group>
      ),
    },
    { key: 'models', label: t('admin.columns.models'), render: (p) => p.models },
    {
      key: 'actions',
      label: t('admin.columns.actions'),
      render: (p) => (
        <Group gap="xs">
          <DecisionButtons
            subjectType="publicist_profile"
            subjectId={p.id}
            name={p.display_name}
            actions={actionsFrom('publicist_profile', p.status)}
            onDecide={setTarget}
          />
          <AccountActionButton userId={p.user.id} name={p.display_name} status={p.user.status} onDecide={setTarget} />
        </Group>
      ),
    },
  ];
  const title = queue ? t('admin.nav.reviewPublicists') : t('admin.publicists.title');
  return (
    <AdminPage title={title} heading={queue ? t('admin.publicists.queueHeading') : t('admin.publicists.heading')}>
      <ListFilters params={params} update={update} statuses={statusOptions(t)} />
      <ResponsiveTable
        caption={title}
        columns={columns}
        rows={data?.data}
        rowKey={(p) => p.id}
        title={(p) => p.display_name}
        loading={isPending}
        error={failedWithNothingSaved({ data, isError })}
      />
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

export const AdminPublicistsRoute = () => <PublicistsList queue={false} />;
export const AdminReviewPublicistsRoute = () => <PublicistsList queue />;

function UsersList({ kind }: { kind: 'clients' | 'withoutProfile' }) {
  const { t } = useTranslation();
  const lng = useLng();
  const [params, update] = useListParams();
  const path = kind === 'clients' ? API.adminClients : API.adminUsersWithoutProfile;
  const { data, isPending, isError } = useQuery(adminListOptions<AdminUser>(path, params));
  const columns: Column<AdminUser>[] = [
    {
      key: 'name',
      label: t('admin.columns.name'),
      render: (u) =>
        kind === 'clients' ? (
          <Anchor component={Link} to={`/${lng}${ADMIN_PATHS.client(u.id)}`}>
            {u.name}
          </Anchor>
        ) : (
          u.name
        ),
    },
    { key: 'email', label: t('admin.columns.email'), render: (u) => u.email },
    ...(kind === 'withoutProfile'
      ? [{ key: 'role', label: t('admin.columns.role'), render: (u: AdminUser) => t(`account.roles.${u.role}`) }]
      : []),
    { key: 'status', label: t('admin.columns.status'), render: (u) => <StatusBadge status={u.status} /> },
    { key: 'verified', label: t('admin.columns.verified'), render: (u) => (u.email_verified_at ? t('common.yes') : t('common.no')) },
    { key: 'created', label: t('admin.columns.created'), render: (u) => <DateText value={u.created_at} /> },
  ];
  const title = kind === 'clients' ? t('admin.clients.title') : t('admin.withoutProfile.title');
  return (
    <AdminPage
      title={title}
      heading={kind === 'clients' ? t('admin.clients.heading') : t('admin.withoutProfile.heading')}
      intro={kind === 'withoutProfile' ? t('admin.withoutProfile.intro') : undefined}
    >
      <ListFilters params={params} update={update} statuses={kind === 'clients' ? statusOptions(t) : undefined} />
      <ResponsiveTable
        caption={title}
        columns={columns}
        rows={data?.data}
        rowKey={(u) => u.id}
        title={(u) =>
          kind === 'clients' ? (
            <Anchor component={Link} to={`/${lng}${ADMIN_PATHS.client(u.id)}`}>
              {u.name}
            </Anchor>
          ) : (
            u.name
          )
        }
        loading={isPending}
        error={failedWithNothingSaved({ data, isError })}
      />
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
    </AdminPage>
  );
}

export const AdminClientsRoute = () => <UsersList kind="clients" />;
export const AdminUsersWithoutProfileRoute = () => <UsersList kind="withoutProfile" />;

export function AdminClientShowRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  // The page of the client's statements lives in the URL (reloadable, back-button friendly).
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.min(1000, Number(params.get('page')) || 1));
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useQuery({
    ...adminClientOptions(id, page),
    enabled: valid,
  });
  const notFound = !valid || (error instanceof ApiError && error.status === 404);
  const setPage = (next: number) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next > 1) p.set('page', String(next));
      else p.delete('page');
      return p;
    });
  return (
    <AdminPage title={data?.name ?? t('admin.client.title')}>
      <Anchor component={Link} to={`/${lng}${ADMIN_PATHS.clients}`}>
        {t('admin.client.back')}
      </Anchor>
      {notFound ? (
        <Alert color="red">{t('admin.client.notFound')}</Alert>
      ) : isError && !data ? (
        <Alert color="red" title={t('admin.client.error')}>
          <Button variant="light" color="red" size="xs" onClick={() => void refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : isPending || !data ? (
        <Skeleton height={160} radius="md" />
      ) : (
        <>
          <Paper withBorder p="lg" radius="lg">
            <Title order={2} size="h4" mb="xs" style={{ overflowWrap: 'anywhere' }}>
              {data.email}
            </Title>
            {/* Only dt/dd pairs (in divs) inside the list: a heading there breaks it for screen readers. */}
            <Stack gap="xs" component="dl" m={0}>
              {(
                [
                  ['status', <StatusBadge key="s" status={data.status} />],
                  ['verified', data.email_verified_at ? <DateText key="v" value={data.email_verified_at} /> : t('common.no')],
                  ['language', t(`languages.${data.locale}`, { defaultValue: data.locale })],
                  ['created', <DateText key="c" value={data.created_at} />],
                  ['statements', data.statements],
                ] as const
              ).map(([k, v]) => (
                <div key={k}>
                  <Text component="dt" size="sm" c="dimmed" fw={600}>
                    {t(`admin.columns.${k}`)}
                  </Text>
                  <Text component="dd" m={0}>
                    {v}
                  </Text>
                </div>
              ))}
            </Stack>
            <Group mt="md">
              <AccountActionButton userId={data.id} name={data.name} status={data.status} onDecide={setTarget} />
            </Group>
          </Paper>
          <DecisionDialog target={target} onClose={() => setTarget(null)} />
          <ClientStatements list={data.statement_list} loading={isFetching && isPlaceholderData} onPage={setPage} />
        </>
      )}
    </AdminPage>
  );
}
