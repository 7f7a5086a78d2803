/**
 * Staff: the verification requests, the selfie next to the profile's photos so they can be compared, and its matches
 * with other accounts' photos and selfies (issue 29). The pending queue is worked by keyboard (components/review-queue.tsx).
 */
import { API } from '#contract/routes.ts';
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { VERIFICATION_FILTERS } from '#contract/admin.ts';
import { adminListOptions, type AdminVerification } from '../api/admin-api.ts';
import { AdminPage, DateText, StatusBadge } from '../components/admin-page.tsx';
import { DecisionButtons, DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { PrivateImage } from '../components/private-image.tsx';
import { PhotoThumb } from '../components/photo-thumb.tsx';
import { WRAPPING_BADGE } from '../components/wrapping-badge.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { Empty } from '../components/review-empty.tsx';
import { SelfieMatchesButton } from '../components/photo-matches.tsx';
import { ReviewQueue } from '../components/review-queue.tsx';

export function AdminReviewVerificationsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending', VERIFICATION_FILTERS);
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(
    adminListOptions<AdminVerification>(API.adminVerifications, { status: params.status, page: params.page }),
  );
  const queue = params.status === 'pending';
  return (
    <AdminPage title={t('admin.verifications.title')} heading={t('admin.verifications.heading')}>
      <ListFilters
        params={params}
        update={update}
        searchable={false}
        statuses={VERIFICATION_FILTERS.map((s): [string, string] => [s, t(`admin.verificationFilters.${s}`)])}
      />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      {queue && data ? (
        <ReviewQueue
          key={params.page}
          label={t('admin.verifications.heading')}
          items={data.data}
          itemOf={(v) => ({ id: v.id, subjectType: 'verification', name: v.profile.display_name, rejectAction: 'reject' })}
          render={(v) => <VerificationCard v={v} onDecide={setTarget} />}
        />
      ) : (
        <Stack gap="md">
          {data?.data.map((v) => (
            <VerificationCard key={v.id} v={v} onDecide={setTarget} />
          ))}
        </Stack>
      )}
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}

function VerificationCard({ v, onDecide }: { v: AdminVerification; onDecide: (target: DecisionTarget) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-label={v.profile.display_name} data-testid="verification-item">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            {v.profile.display_name}
          </Title>
          <Group gap={6}>
            <StatusBadge status={v.status} label={t(`statuses.${v.status === 'approved' ? 'active' : v.status}`)} />
            <Badge variant="outline" color="gray" tt="none" classNames={WRAPPING_BADGE}>
              {t('admin.verifications.code', { code: v.code })}
            </Badge>
            {v.match_count ? (
              <Badge size="sm" color="orange" variant="filled" tt="none" data-testid="match-count">
                {t('reviewQueue.matchCount', { count: v.match_count })}
              </Badge>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('admin.verifications.submitted')}: <DateText value={v.submitted_at} />
        </Text>
        <Group align="flex-start" gap="lg">
          {v.selfie_url ? (
            <PrivateImage
              url={v.selfie_url}
              alt={t('admin.verifications.selfie', { name: v.profile.display_name })}
              unavailable={t('admin.verifications.noSelfie')}
              w={220}
              h={275}
              fit="cover"
            />
          ) : (
            <Text c="dimmed">{t('admin.verifications.noSelfie')}</Text>
          )}
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('admin.verifications.profilePhotos')}
            </Text>
            <Group gap="sm">
              {v.photos.length ? (
                v.photos.map((p) => (
                  <PhotoThumb key={p.media_id} photo={p} alt={t('admin.photos.alt', { title: v.profile.display_name })} />
                ))
              ) : (
                <Text size="sm" c="dimmed">
                  {t('admin.ads.noPhotos')}
                </Text>
              )}
            </Group>
          </Stack>
        </Group>
        <SelfieMatchesButton verification={v} />
        <DecisionButtons
          subjectType="verification"
          subjectId={v.id}
          name={v.profile.display_name}
          actions={v.status === 'pending' ? ['approve', 'reject'] : []}
          onDecide={onDecide}
        />
      </Stack>
    </Paper>
  );
}
