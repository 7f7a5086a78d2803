/** Staff: the clients, and the accounts that never made a profile. */
import { Anchor } from '@mantine/core';
import { API } from '#contract/routes.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { useLng } from '#src/lib/paths.ts';
import { adminListOptions, type AdminUser } from '../api/admin-api.ts';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ResponsiveTable, type Column } from '../components/responsive-table.tsx';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { statusOptions } from '../lib/status-options.ts';

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
