/** Profile/Publicist index: the trader details and the models under responsibility. */
import { Button, Container, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconEdit, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, Navigate } from '#src/lib/router.tsx';
import type { PublicistProfile } from '#contract/publicists.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { publicistProfileQueryOptions } from '../api/publicist-api.ts';
import { ModelList } from '../components/model-list.tsx';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { Loading, LoadError, StatusCard } from '../components/publicist-status.tsx';
function TraderDetails({ profile: p }: { profile: PublicistProfile }) {
  const { t } = useTranslation();
  const lng = useLng();
  const rows: [string, string][] = [
    [t('publicist.profile.fields.display_name'), p.display_name],
    [t('publicist.profile.fields.legal_name'), p.legal_name ?? '—'],
    [t('publicist.profile.fields.tax_id'), p.tax_id ?? '—'],
    [t('publicist.profile.fields.address'), p.address ?? '—'],
    [t('publicist.profile.fields.phone'), p.phone ?? '—'],
    [t('publicist.profile.fields.email'), p.email ?? '—'],
  ];
  return (
    <Paper withBorder radius="lg" p="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('publicist.index.details')}
        </Title>
        <Button
          component={Link}
          to={withLng(lng, PUBLICIST_PATHS.edit)}
          variant="light"
          size="xs"
          leftSection={<IconEdit size={14} aria-hidden />}
        >
          {t('publicist.index.edit')}
        </Button>
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing={4} verticalSpacing={4} m={0}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** Profile/Publicist index (`profile/publicist`): trader details and the models under responsibility. */
export function PublicistIndexRoute() {
  const { t } = useTranslation();
  usePageTitle(t('publicist.index.title'));
  const lng = useLng();
  const profile = useQuery(publicistProfileQueryOptions());
  if (profile.isPending) {
    return (
      <Container size={860} py="lg" px="md">
        <Loading />
      </Container>
    );
  }
  if (failedWithNothingSaved(profile)) {
    return (
      <Container size={860} py="lg" px="md">
        <LoadError text={t('publicist.summary.loadError')} onRetry={() => void profile.refetch()} />
      </Container>
    );
  }
  if (!profile.data) return <Navigate to={withLng(lng, PUBLICIST_PATHS.create)} replace />;
  const p = profile.data;
  return (
    <Container size={860} py="lg" px="md">
      <Stack gap="lg">
        <Title order={1}>{t('publicist.index.title')}</Title>
        <StatusCard profile={p} />
        <TraderDetails profile={p} />
        <Stack gap="sm" component="section" aria-labelledby="publicist-models-heading">
          <Group justify="space-between">
            <Title order={2} size="h3" id="publicist-models-heading">
              {t('publicist.index.models')}
            </Title>
            <Button component={Link} to={withLng(lng, PUBLICIST_PATHS.modelCreate)} leftSection={<IconUserPlus size={16} aria-hidden />}>
              {t('publicist.index.add')}
            </Button>
          </Group>
          <ModelList />
        </Stack>
      </Stack>
    </Container>
  );
}
