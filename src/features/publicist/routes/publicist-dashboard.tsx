/** The dashboard's publicist part (composed into the account dashboard by the app shell). */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { useLng, withLng } from '#src/lib/paths.ts';
import { publicistProfileQueryOptions } from '../api/publicist-api.ts';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { Loading, LoadError, StatusCard } from '../components/publicist-status.tsx';
/** The dashboard's publicist part: status, how many models, and the way to them. Nothing without a profile. */
export function PublicistSummary() {
  const { t } = useTranslation();
  const lng = useLng();
  const profile = useQuery(publicistProfileQueryOptions());
  if (profile.isPending) return <Loading />;
  if (failedWithNothingSaved(profile)) return <LoadError text={t('publicist.summary.loadError')} onRetry={() => void profile.refetch()} />;
  const p = profile.data;
  // The account dashboard already shows the "create your profile" call.
  if (!p) return null;
  return (
    <Stack gap="md">
      <StatusCard profile={p} />
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            {t('publicist.summary.title')}: {p.display_name}
          </Title>
          <Text>{t('publicist.summary.models', { count: p.models })}</Text>
          <Group gap="xs">
            <Button component={Link} to={withLng(lng, PUBLICIST_PATHS.index)} leftSection={<IconUsers size={16} aria-hidden />}>
              {t('publicist.summary.manage')}
            </Button>
            <Button
              component={Link}
              to={withLng(lng, PUBLICIST_PATHS.modelCreate)}
              variant="light"
              leftSection={<IconUserPlus size={16} aria-hidden />}
            >
              {t('publicist.summary.add')}
            </Button>
            <Button
              component={Link}
              to={withLng(lng, PUBLICIST_PATHS.edit)}
              variant="subtle"
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('publicist.summary.editProfile')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
