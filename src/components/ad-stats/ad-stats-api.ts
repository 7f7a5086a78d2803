/** The signed-in advertiser's numbers (GET /api/ad-stats) as a TanStack query, shared by the model's and the publicist's dashboards. */
import { queryOptions } from '@tanstack/react-query';
import { AD_STATS_WEEKS_DEFAULT, type AdStatsList } from '#contract/ad-stats.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';

export const AD_STATS_KEY = ['ad-stats'] as const;

export const adStatsQueryOptions = (weeks = AD_STATS_WEEKS_DEFAULT) =>
  queryOptions({
    queryKey: [...AD_STATS_KEY, weeks],
    queryFn: ({ signal }) => apiGet<AdStatsList>(`${API.adStats}?weeks=${weeks}`, signal),
    // Asked again each time the dashboard opens: the saved copy (persisted cache) shows at once meanwhile, and a
    // model who just shared her link expects this week's numbers to move.
    staleTime: 0,
  });
