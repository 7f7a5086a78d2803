/** Staff: the publicists, and their review queue (the same list, pending first). */
import { Group } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { adminListOptions, type AdminPublicist } from '../api/admin-api.ts';
import { AccountActionButton, AccountSuspendedBadge } from '../components/account-action.tsx';
import { AdminPage, StatusBadge } from '../components/admin-page.tsx';
import { actionsFrom, DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { statusOptions } from '../lib/status-options.ts';

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
