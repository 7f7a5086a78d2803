/** Staff: the photo queue (riskiest first) with the photo review requests above it. */
import { API } from '#contract/routes.ts';
import { Badge, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PHOTO_FILTERS } from '#contract/admin.ts';
import { adminListOptions, type RecentPhoto } from '../api/admin-api.ts';
import { AdminPage, DateText } from '../components/admin-page.tsx';
import { DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { PhotoReviewRequests } from '../components/photo-review-requests.tsx';
import { PhotoThumb } from '../components/photo-thumb.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { Empty } from '../components/review-empty.tsx';

export function AdminReviewPhotosRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', PHOTO_FILTERS);
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<RecentPhoto>(API.adminPhotos, { status: params.status, page: params.page }),
  );
  return (
    <AdminPage title={t('admin.photos.title')} heading={t('admin.photos.heading')}>
      <Text size="sm" c="dimmed">
        {t('admin.photos.intro')}
      </Text>
      <PhotoReviewRequests />
      <ListFilters
        params={params}
        update={update}
        searchable={false}
        statuses={PHOTO_FILTERS.map((s): [string, string] => [s, t(`admin.photoFilters.${s}`)])}
      />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data?.data.map((p) => (
          <Paper key={p.media_id} withBorder p="xs" radius="md" component="li" data-testid="photo-review-item">
            <Stack gap={6}>
              <PhotoThumb photo={p} alt={t('admin.photos.alt', { title: p.ad.title })} />
              <Text size="xs" lineClamp={2}>
                {p.ad.title}
              </Text>
              <Text size="xs" c="dimmed">
                <DateText value={p.created_at} />
              </Text>
              {p.reviewed_at ? (
                <Badge color="teal" variant="light" size="sm">
                  {t('admin.photos.reviewed')}
                </Badge>
              ) : null}
              <DecisionButtons
                subjectType="media"
                subjectId={p.media_id}
                name={`${p.ad.title} #${p.media_id}`}
                actions={p.reviewed_at ? ['remove'] : ['approve', 'remove']}
                onDecide={setTarget}
              />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}
