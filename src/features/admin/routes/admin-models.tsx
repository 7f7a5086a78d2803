/** Staff: the models, and the models under a publicist's responsibility (one list, two filters). */
import { Anchor, Group } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { useLng } from '#src/lib/paths.ts';
import { adminListOptions, type AdminModel } from '../api/admin-api.ts';
import { AccountActionButton, AccountSuspendedBadge } from '../components/account-action.tsx';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { actionsFrom, DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { statusOptions } from '../lib/status-options.ts';

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
