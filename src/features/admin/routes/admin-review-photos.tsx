/**
 * Staff: the photo queue (riskiest first, then the longest waiting) with the photo review requests above it. The
 * pending queue is worked by keyboard (components/review-queue.tsx); photos already reviewed are a plain grid.
 */
import { API } from '#contract/routes.ts';
import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { PHOTO_FILTERS } from '#contract/admin.ts';
import { adminListOptions, type RecentPhoto } from '../api/admin-api.ts';
import { AdminPage, DateText } from '../components/admin-page.tsx';
import { DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { PhotoMatchesButton } from '../components/photo-matches.tsx';
import { PhotoReviewRequests } from '../components/photo-review-requests.tsx';
import { PhotoThumb } from '../components/photo-thumb.tsx';
import { ReviewQueue } from '../components/review-queue.tsx';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { Empty } from '../components/review-empty.tsx';

const nameOf = (p: RecentPhoto) => `${p.ad.title} #${p.media_id}`;

/** Why the photo is where it is in the queue: open reports, matches with other accounts, the risk points. */
function RiskBadges({ photo }: { photo: RecentPhoto }) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {photo.risk ? (
        <Badge size="sm" color="red" variant="light" tt="none">
          {t('reviewQueue.risk', { risk: photo.risk })}
        </Badge>
      ) : null}
      {photo.open_reports ? (
        <Badge size="sm" color="orange" variant="light" tt="none">
          {t('reviewQueue.reports', { count: photo.open_reports })}
        </Badge>
      ) : null}
      {photo.match_count ? (
        <Badge size="sm" color="orange" variant="filled" tt="none" data-testid="match-count">
          {t('reviewQueue.matchCount', { count: photo.match_count })}
        </Badge>
      ) : null}
    </Group>
  );
}

export function AdminReviewPhotosRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', PHOTO_FILTERS);
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<RecentPhoto>(API.adminPhotos, { status: params.status, page: params.page }),
  );
  const queue = params.status === 'pending';
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
      {queue && data ? (
        <ReviewQueue
          key={params.page}
          label={t('admin.photos.heading')}
          items={data.data}
          itemOf={(p) => ({ id: p.media_id, subjectType: 'media', name: nameOf(p), rejectAction: 'remove' })}
          render={(p) => (
            <Paper withBorder p="xs" radius="md" component="article" aria-label={nameOf(p)} data-testid="photo-review-item">
              <Group align="flex-start" gap="sm">
                <PhotoThumb photo={p} alt={t('admin.photos.alt', { title: p.ad.title })} />
                <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {p.ad.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {p.profile.display_name} · <DateText value={p.created_at} />
                  </Text>
                  <RiskBadges photo={p} />
                  <PhotoMatchesButton photo={p} />
                  <DecisionButtons
                    subjectType="media"
                    subjectId={p.media_id}
                    name={nameOf(p)}
                    actions={['approve', 'remove']}
                    onDecide={setTarget}
                  />
                </Stack>
              </Group>
            </Paper>
          )}
        />
      ) : null}
      {!queue ? (
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
                  name={nameOf(p)}
                  actions={p.reviewed_at ? ['remove'] : ['approve', 'remove']}
                  onDecide={setTarget}
                />
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      ) : null}
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}
