import { queryOptions } from '@tanstack/react-query';
import { API } from '#contract/routes.ts';
import type { Section } from '#contract/sections.ts';
import { apiGet } from '#src/lib/api-client.ts';
import { firstScreenAnswer } from '#src/lib/first-screen.ts';

export const sectionsQueryOptions = () =>
  queryOptions({
    queryKey: ['sections'],
    queryFn: ({ signal }) => apiGet<{ data: Section[] }>(API.sections, signal).then((r) => r.data),
    initialData: () => firstScreenAnswer<{ data: Section[] }>(API.sections)?.data,
    staleTime: 60 * 60 * 1000,
  });
