import { queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Section } from '#contract/sections.ts';
import { apiGet } from '#src/lib/api-client.ts';

export const sectionsQueryOptions = () =>
  queryOptions({
    queryKey: ['sections'],
    queryFn: ({ signal }) => apiGet<{ data: Section[] }>(API.sections, signal).then((r) => r.data),
    staleTime: 60 * 60 * 1000,
  });
