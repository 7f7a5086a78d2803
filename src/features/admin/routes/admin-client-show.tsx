/** Staff: one client's record (account, statements, actions). */
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams, useSearchParams } from '#src/lib/router.tsx';
import { ApiError } from '#src/lib/api-client.ts';
import { useLng } from '#src/lib/paths.ts';
import { adminClientOptions } from '../api/admin-api.ts';
import { AccountActionButton } from '../components/account-action.tsx';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { ClientStatements } from '../components/client-statements.tsx';
import { DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';

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
