import { Button, Group, Pagination, Select, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useSearchParams } from '#src/lib/router.tsx';
import type { PaginationMeta } from '#contract/listings.ts';
import { STATUSES } from '#contract/statuses.ts';

export type ListParams = {
  status: string;
  search: string;
  page: number;
};

/** The staff lists' `status` filter values (the contract's `adminListQuerySchema`: every status, or `all`). */
export const LIST_STATUSES: readonly string[] = [...STATUSES, 'all'];

/**
 * The URL's `status` if the list knows it, else the default: a hand-edited or stale link (`?status=bogus`) shows the
 * list unfiltered instead of sending a value the API refuses with 400.
 */
export function pickStatus(raw: string | null, allowed: readonly string[], defaultStatus: string): string {
  return raw !== null && allowed.includes(raw) ? raw : defaultStatus;
}

/** `status`, `search` and `page` live in the listing's URL (shareable, reloadable, back-button friendly). */
export function useListParams(
  defaultStatus = 'all',
  allowed: readonly string[] = LIST_STATUSES,
): [ListParams, (patch: Partial<ListParams>) => void] {
  const [params, setParams] = useSearchParams();
  const value: ListParams = {
    status: pickStatus(params.get('status'), allowed, defaultStatus),
    search: (params.get('search') ?? '').slice(0, 100),
    page: Math.max(1, Math.min(1000, Number(params.get('page')) || 1)),
  };
  const update = (patch: Partial<ListParams>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        // A new filter starts again at page 1.
        if (!('page' in patch)) next.delete('page');
        for (const [k, v] of Object.entries(patch)) {
          const defaults: Record<string, string> = { status: defaultStatus, search: '', page: '1' };
          if (String(v) === defaults[k]) next.delete(k);
          else next.set(k, String(v));
        }
        return next;
      },
      { replace: false },
    );
  return [value, update];
}

/** Status filter + search box; `statuses` are [value, label] pairs. */
export function ListFilters({
  params,
  update,
  statuses,
  searchable = true,
}: {
  params: ListParams;
  update: (patch: Partial<ListParams>) => void;
  statuses?: [string, string][];
  searchable?: boolean;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(params.search);
  useEffect(() => setSearch(params.search), [params.search]);
  return (
    <Group
      component="form"
      role="search"
      align="flex-end"
      gap="sm"
      wrap="wrap"
      onSubmit={(e) => {
        e.preventDefault();
        update({ search: search.trim() });
      }}
    >
      {statuses ? (
        <Select
          label={t('admin.filters.status')}
          data={statuses.map(([value, label]) => ({ value, label }))}
          value={params.status}
          onChange={(v) => update({ status: v ?? 'all' })}
          allowDeselect={false}
          w={{ base: '100%', xs: 200 }}
        />
      ) : null}
      {searchable ? (
        <>
          <TextInput
            label={t('admin.filters.search')}
            placeholder={t('admin.filters.searchPlaceholder')}
            value={search}
            maxLength={100}
            onChange={(e) => setSearch(e.currentTarget.value)}
            leftSection={<IconSearch size={16} aria-hidden />}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" variant="light">
            {t('admin.filters.apply')}
          </Button>
          {params.search ? (
            <Button variant="subtle" onClick={() => update({ search: '' })}>
              {t('admin.filters.clear')}
            </Button>
          ) : null}
        </>
      ) : null}
    </Group>
  );
}

export function ListPagination({ meta, onChange }: { meta: PaginationMeta | undefined; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  if (!meta) return null;
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {t('admin.list.results', { count: meta.total })}
      </Text>
      {meta.last_page > 1 ? (
        <nav aria-label={t('admin.list.pagination')}>
          <Pagination
            total={meta.last_page}
            value={meta.current_page}
            onChange={onChange}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`admin.list.page.${control}`) })}
            getItemProps={(page) => ({ 'aria-label': t('admin.list.page.number', { page }) })}
          />
        </nav>
      ) : null}
    </Group>
  );
}
