import { Anchor, Paper, SimpleGrid, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { AdminCounts } from '#contract/admin.ts';
import { useLng } from '#src/lib/paths.ts';
import { adminCountsOptions } from '../api/admin-api.ts';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { ReviewStatsPanel } from './review-stats-panel.tsx';

const COUNT_LINKS: [keyof AdminCounts, string][] = [
  ['pending_ads', ADMIN_PATHS.reviewAds],
  ['pending_verifications', ADMIN_PATHS.reviewVerifications],
  ['pending_publicists', ADMIN_PATHS.reviewPublicists],
  ['open_reports', ADMIN_PATHS.reports],
  ['open_appeals', ADMIN_PATHS.appeals],
  ['new_messages', ADMIN_PATHS.messages],
  ['pending_photos', ADMIN_PATHS.reviewPhotos],
  // A publicist's models wait for staff before their ads are listed: each count opens the list filtered by its status.
  ['agency_models_unverified', `${ADMIN_PATHS.modelsUnder}?status=unverified`],
  ['agency_models_pending', `${ADMIN_PATHS.modelsUnder}?status=pending`],
];

const LISTS: [string, string][] = [
  ['models', ADMIN_PATHS.models],
  ['modelsUnderResponsibility', ADMIN_PATHS.modelsUnder],
  ['publicists', ADMIN_PATHS.publicists],
  ['clients', ADMIN_PATHS.clients],
  ['usersWithoutProfile', ADMIN_PATHS.usersWithoutProfile],
  ['reports', ADMIN_PATHS.reports],
  ['messages', ADMIN_PATHS.messages],
];

function Links({ title, links }: { title: string; links: [string, string][] }) {
  const { t } = useTranslation();
  const lng = useLng();
  return (
    <Paper withBorder p="lg" radius="lg" component="nav" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {links.map(([key, path]) => (
          <li key={key}>
            <Anchor component={Link} to={`/${lng}${path}`}>
              {t(`admin.nav.${key}`)}
            </Anchor>
          </li>
        ))}
      </Stack>
    </Paper>
  );
}

/** The staff part of the admin and super-admin dashboards: queue counts (each a link to its queue) and the lists. */
export function AdminDashboardPanel({ superAdmin = false }: { superAdmin?: boolean }) {
  const { t } = useTranslation();
  const lng = useLng();
  const { data, isError } = useQuery(adminCountsOptions());
  return (
    <Stack gap="lg">
      <section aria-labelledby="admin-queues">
        <Title order={2} size="h3" id="admin-queues" mb="sm">
          {t('admin.nav.queues')}
        </Title>
        {failedWithNothingSaved({ data, isError }) ? <Text c="red">{t('admin.list.error')}</Text> : null}
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {COUNT_LINKS.map(([key, path]) => (
            <li key={key}>
              <UnstyledButton component={Link} to={`/${lng}${path}`} w="100%" h="100%" data-count={key}>
                <Paper withBorder p="md" radius="md" h="100%">
                  {data ? (
                    <Text fz={28} fw={700} lh={1.1}>
                      {data[key]}
                    </Text>
                  ) : (
                    <Skeleton height={30} width={40} />
                  )}
                  <Text size="sm">{t(`admin.counts.${key}`)}</Text>
                </Paper>
              </UnstyledButton>
            </li>
          ))}
        </SimpleGrid>
      </section>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Links
          title={t('admin.nav.queues')}
          links={[
            ['reviewAds', ADMIN_PATHS.reviewAds],
            ['reviewPhotos', ADMIN_PATHS.reviewPhotos],
            ['reviewVerifications', ADMIN_PATHS.reviewVerifications],
            ['reviewPublicists', ADMIN_PATHS.reviewPublicists],
            ['appeals', ADMIN_PATHS.appeals],
          ]}
        />
        <Links title={t('admin.nav.lists')} links={LISTS} />
        {superAdmin ? (
          <Links
            title={t('admin.nav.superAdmin')}
            links={[
              ['admins', ADMIN_PATHS.admins],
              ['audit', ADMIN_PATHS.audit],
            ]}
          />
        ) : null}
      </SimpleGrid>
      {superAdmin ? <ReviewStatsPanel /> : null}
    </Stack>
  );
}
