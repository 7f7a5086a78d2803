/** Staff: the queue of new and edited ads, riskiest first then the longest waiting; the pending queue is worked by keyboard. */
import { API } from '#contract/routes.ts';
import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { adminListOptions, type AdminAd } from '../api/admin-api.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { DecisionDialog, type DecisionTarget } from '../components/decision-dialog.tsx';
import { ListFilters, ListPagination, useListParams } from '../components/list-controls.tsx';
import { ReviewQueue } from '../components/review-queue.tsx';
import { statusOptions } from '../lib/status-options.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';
import { AdCard } from '../components/ad-card.tsx';
import { Empty } from '../components/review-empty.tsx';

export function AdminReviewAdsRoute() {
  const { t } = useTranslation();
  const [params, update] = useListParams('pending');
  const [target, setTarget] = useState<DecisionTarget | null>(null);
  const { data, isPending, isError } = useQuery(adminListOptions<AdminAd>(API.adminAds, params));
  const queue = params.status === 'pending' && !params.search;
  return (
    <AdminPage title={t('admin.ads.title')} heading={t('admin.ads.heading')}>
      <ListFilters params={params} update={update} statuses={statusOptions(t)} />
      <Empty loading={isPending} error={failedWithNothingSaved({ data, isError })} empty={data?.data.length === 0} />
      {queue && data ? (
        <ReviewQueue
          key={params.page}
          label={t('admin.ads.heading')}
          items={data.data}
          itemOf={(ad) => ({ id: ad.id, subjectType: 'ad', name: ad.title, rejectAction: 'reject' })}
          render={(ad) => <AdCard ad={ad} onDecide={setTarget} />}
        />
      ) : (
        <Stack gap="md">
          {data?.data.map((ad) => (
            <AdCard key={ad.id} ad={ad} onDecide={setTarget} />
          ))}
        </Stack>
      )}
      <ListPagination meta={data?.meta} onChange={(page) => update({ page })} />
      <DecisionDialog target={target} onClose={() => setTarget(null)} />
    </AdminPage>
  );
}
