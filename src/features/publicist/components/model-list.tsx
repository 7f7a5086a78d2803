import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Pagination,
  Paper,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconEdit, IconExternalLink, IconMailForward, IconPhoto, IconSearch, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useSearchParams } from '#src/lib/router.tsx';
import type { ModelSort, PublicistModel } from '#contract/publicists.ts';
import type { Answer } from '#contract/answers.ts';
import type { ApiResponse } from '#src/lib/api-client.ts';
import { PushInvitation } from '#src/components/push-settings/push-invitation.tsx';
import { useApiForm } from '#src/lib/forms.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { handleAnswer } from '#src/lib/response-handler.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { reportQueueableWrite } from '#src/offline/report-write.ts';
import { NEEDS_ATTENTION, useOutboxOps } from '#src/offline/use-outbox.ts';
import {
  deleteModel,
  deleteModelAd,
  PUBLICIST_KEY,
  publicistModelsQueryOptions,
  resendConsent,
  type ModelsQuery,
} from '../api/publicist-api.ts';
import { MANAGED_MODEL_AD, queueableAdSwitch } from '#src/components/model-ad-form/model-ad-writes.ts';
import { PUBLICIST_PATHS } from '../lib/publicist-paths.ts';
import { failedWithNothingSaved } from '#src/lib/query-view.ts';

const SORT_OPTIONS = ['created_desc', 'created_asc', 'name_asc', 'name_desc', 'status_asc'] as const;
type SortOption = (typeof SORT_OPTIONS)[number];

/** search / sort / page live in the URL, so a list can be shared, reloaded and navigated back to. */
function useListQuery(): [ModelsQuery, (patch: Partial<{ search: string; sort: SortOption; page: number }>) => void] {
  const [params, setParams] = useSearchParams();
  const sortParam = params.get('sort') ?? 'created_desc';
  const option = (SORT_OPTIONS as readonly string[]).includes(sortParam) ? (sortParam as SortOption) : 'created_desc';
  const [sort, direction] = option.split('_') as [ModelSort, 'asc' | 'desc'];
  const page = Math.max(1, Math.min(10_000, Number(params.get('page')) || 1));
  const query: ModelsQuery = { search: (params.get('search') ?? '').slice(0, 60), sort, direction, page };
  const update = (patch: Partial<{ search: string; sort: SortOption; page: number }>) => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          const defaults: Record<string, string> = { search: '', sort: 'created_desc', page: '1' };
          if (String(v) === defaults[k]) next.delete(k);
          else next.set(k, String(v));
        }
        return next;
      },
      { replace: true },
    );
  };
  return [query, update];
}

const AD_COLORS: Record<string, string> = {
  active: 'teal',
  pending: 'blue',
  unverified: 'gray',
  paused: 'gray',
  rejected: 'red',
  suspended: 'red',
};
const CONSENT_COLORS: Record<string, string> = { given: 'teal', pending: 'yellow', withdrawn: 'red', not_required: 'gray' };
const PROFILE_COLORS: Record<string, string> = { ...AD_COLORS, unverified: 'orange' };
/** Restrictions come with a statement of reasons the publicist can read and appeal (statements feature, by URL). */
const RESTRICTED = new Set(['rejected', 'suspended', 'paused']);
const STATEMENTS_PATH = '/statements';

function RowSkeleton() {
  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap="xs">
        <Skeleton height={20} width="40%" />
        <Skeleton height={14} width="70%" />
        <Skeleton height={28} width="90%" />
      </Stack>
    </Paper>
  );
}

function ModelRow({ model, onChanged }: { model: PublicistModel; onChanged: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const lng = useLng();
  const form = useApiForm([] as const);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'model' | 'ad' | null>(null);
  const ad = model.ad;

  const user = useCurrentUser().data;
  const queued = useOutboxOps(user?.id);
  const pendingOps = (queued ?? []).filter(
    (o) => o.scope === MANAGED_MODEL_AD.editScope(model.id) || o.scope === MANAGED_MODEL_AD.switchScope(model.id),
  );
  // The switch shows the position the user chose while it waits to be sent.
  const queuedSwitch = pendingOps.filter((o) => o.kind === 'publicist.model.activate').at(-1);
  const shownActive = queuedSwitch ? queuedSwitch.meta?.on === true : ad?.is_active;

  const toggle = async (on: boolean) => {
    if (!user) return;
    setBusy('toggle');
    const queued = await reportQueueableWrite(
      () => queueableAdSwitch(MANAGED_MODEL_AD, user.id, { id: model.id, summary: model.display_name }, on, PUBLICIST_KEY),
      form.ui,
      t,
    ).finally(() => setBusy(null));
    if (!queued) await onChanged();
  };

  const act = async (name: string, call: () => Promise<ApiResponse<Answer>>) => {
    setBusy(name);
    const res = await form.run(call);
    setBusy(null);
    setConfirm(null);
    if (res) handleAnswer({ status: res.status, data: res.data }, form.ui);
    await onChanged();
  };

  const contact = [model.contact_email, model.phone].filter(Boolean).join(' · ');
  return (
    <Paper withBorder radius="lg" p="md" component="li" data-testid="publicist-model-row" aria-labelledby={`model-row-${model.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div style={{ minWidth: 0 }}>
            <Title order={3} size="h4" id={`model-row-${model.id}`}>
              {model.display_name}
            </Title>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {ad ? `${ad.title} · ${ad.city}` : t('publicist.list.noAd')}
            </Text>
          </div>
          <Group gap={6}>
            <Badge variant="light" color={PROFILE_COLORS[model.status]} tt="none" data-testid="profile-status-badge">
              {t(`publicist.profileStatus.${model.status}`)}
            </Badge>
            <Badge variant="light" color={CONSENT_COLORS[model.consent_status]} tt="none" data-testid="consent-badge">
              {t(`publicist.consentStatus.${model.consent_status}`)}
            </Badge>
            {ad ? (
              <Badge variant="light" color={AD_COLORS[ad.status]} tt="none">
                {t(`publicist.adStatus.${ad.status}`)}
              </Badge>
            ) : null}
          </Group>
        </Group>
        {pendingOps.length ? (
          <Group gap={6} data-testid="model-pending">
            <Badge variant="outline" color={pendingOps.some((o) => NEEDS_ATTENTION.includes(o.status)) ? 'orange' : 'blue'} tt="none">
              {t('outbox.pendingChanges')}
            </Badge>
            <Anchor component={Link} to={withLng(lng, '/sync')} size="xs">
              {t('outbox.page.title')}
            </Anchor>
          </Group>
        ) : null}
        {model.reasons && (model.reasons.codes.length || model.reasons.text) ? (
          <Text size="sm" c="red" data-testid="model-reasons">
            {t('publicist.reasons')}:{' '}
            {[
              ...model.reasons.codes.map((c) => t([`statements.grounds.${c}`, `modelProfile.reasons.${c}`], { defaultValue: c })),
              model.reasons.text,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        ) : null}
        {RESTRICTED.has(model.status) || (ad && RESTRICTED.has(ad.status)) ? (
          <Anchor component={Link} to={withLng(lng, STATEMENTS_PATH)} size="sm" data-testid="model-statement-link">
            {t('publicist.list.statement')}
          </Anchor>
        ) : null}
        {contact ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('publicist.list.contact', { contact })}
          </Text>
        ) : null}
        {model.consent_status === 'pending' && !model.contact_email && model.phone ? (
          <Text size="xs" c="dimmed">
            {t('publicist.list.phoneOnly')}
          </Text>
        ) : null}
        {ad ? (
          <Switch
            checked={shownActive}
            disabled={busy !== null}
            onChange={(e) => void toggle(e.currentTarget.checked)}
            label={t('publicist.list.active')}
            aria-label={`${t('publicist.list.active')}: ${model.display_name}`}
          />
        ) : null}
        <Group gap="xs" role="group" aria-label={t('publicist.list.actions', { name: model.display_name })}>
          <Button
            component={Link}
            to={withLng(lng, PUBLICIST_PATHS.modelEdit(model.id))}
            size="xs"
            variant="light"
            leftSection={<IconEdit size={14} aria-hidden />}
          >
            {t('publicist.list.edit')}
          </Button>
          {ad ? (
            <Button
              component={Link}
              to={withLng(lng, PUBLICIST_PATHS.photos(ad.id))}
              size="xs"
              variant="light"
              leftSection={<IconPhoto size={14} aria-hidden />}
            >
              {t('publicist.list.photos', { count: ad.photos })}
            </Button>
          ) : null}
          {model.consent_status !== 'given' ? (
            <Button
              size="xs"
              variant="light"
              color="yellow"
              loading={busy === 'resend'}
              leftSection={<IconMailForward size={14} aria-hidden />}
              onClick={() => void act('resend', () => resendConsent(model.id))}
            >
              {t('publicist.list.resend')}
            </Button>
          ) : null}
          {ad?.is_listed ? (
            <Anchor component={Link} to={withLng(lng, `/models/${ad.id}`)} size="sm">
              <Group gap={4} component="span">
                {t('publicist.list.view')}
                <IconExternalLink size={14} aria-hidden />
              </Group>
            </Anchor>
          ) : null}
          {ad ? (
            <Button size="xs" variant="subtle" color="red" onClick={() => setConfirm('ad')}>
              {t('publicist.list.deleteAd')}
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => setConfirm('model')}
          >
            {t('publicist.list.delete')}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        centered
        title={
          confirm === 'ad'
            ? t('publicist.list.deleteAdTitle', { name: model.display_name })
            : t('publicist.list.deleteTitle', { name: model.display_name })
        }
      >
        <Stack>
          <Text size="sm">{confirm === 'ad' ? t('publicist.list.deleteAdText') : t('publicist.list.deleteText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('publicist.list.cancel')}
            </Button>
            <Button
              color="red"
              loading={busy === 'delete'}
              onClick={() => void act('delete', () => (confirm === 'ad' ? deleteModelAd(model.id) : deleteModel(model.id)))}
            >
              {t('publicist.list.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** The models under the publicist's responsibility: search, sort, pages, status and consent badges, actions. */
export function ModelList() {
  const { t } = useTranslation();
  const lng = useLng();
  const queryClient = useQueryClient();
  const [query, update] = useListQuery();
  const [search, setSearch] = useState(query.search);
  const list = useQuery(publicistModelsQueryOptions(query));

  // Typing updates the URL after a pause; the URL changing elsewhere (back button) updates the box.
  useEffect(() => setSearch(query.search), [query.search]);
  useEffect(() => {
    if (search.trim() === query.search) return;
    const id = setTimeout(() => update({ search: search.trim(), page: 1 }), 350);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: PUBLICIST_KEY });
  const sortValue = `${query.sort}_${query.direction}` as SortOption;
  const data = list.data;

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          type="search"
          label={t('publicist.list.searchLabel')}
          placeholder={t('publicist.list.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maxLength={60}
          style={{ flex: '1 1 14rem' }}
        />
        <Select
          label={t('publicist.list.sortLabel')}
          data={SORT_OPTIONS.map((o) => ({ value: o, label: t(`publicist.list.sort.${o}`) }))}
          value={sortValue}
          onChange={(v) => v && update({ sort: v, page: 1 })}
          allowDeselect={false}
          style={{ flex: '1 1 10rem' }}
        />
      </Group>
      {/* A model's consent or an ad waiting: the moment a push about the answer is worth asking for (issue 25). */}
      <PushInvitation show={!!data?.data.some((m) => m.consent_status === 'pending' || m.ad?.status === 'pending')} reason="review" />
      {list.isPending ? (
        <Stack gap="sm" aria-busy="true">
          <RowSkeleton />
          <RowSkeleton />
          <RowSkeleton />
        </Stack>
      ) : failedWithNothingSaved(list) ? (
        <Paper withBorder p="lg" radius="lg">
          <Group justify="space-between">
            <Text>{t('publicist.list.loadError')}</Text>
            <Button variant="light" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          </Group>
        </Paper>
      ) : data && data.data.length === 0 ? (
        <Paper withBorder p="lg" radius="lg">
          {query.search ? (
            <Text>{t('publicist.list.emptySearch', { search: query.search })}</Text>
          ) : (
            <Stack gap="xs" align="flex-start">
              <Title order={3} size="h4">
                {t('publicist.list.emptyTitle')}
              </Title>
              <Text size="sm">{t('publicist.list.emptyText')}</Text>
              <Button component={Link} to={withLng(lng, PUBLICIST_PATHS.modelCreate)} leftSection={<IconUserPlus size={16} aria-hidden />}>
                {t('publicist.index.add')}
              </Button>
            </Stack>
          )}
        </Paper>
      ) : data ? (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('publicist.list.total', { count: data.meta.total })}
          </Text>
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none', opacity: list.isPlaceholderData ? 0.6 : 1 }}>
            {data.data.map((m) => (
              <ModelRow key={m.id} model={m} onChanged={refresh} />
            ))}
          </Stack>
          {data.meta.last_page > 1 ? (
            <nav aria-label={t('publicist.list.pagination')}>
              <Pagination
                total={data.meta.last_page}
                value={data.meta.current_page}
                onChange={(page) => update({ page })}
                siblings={1}
                boundaries={1}
                size="sm"
                getControlProps={(control) => ({ 'aria-label': t(`publicist.list.page.${control}`) })}
                getItemProps={(page) => ({ 'aria-label': t('publicist.list.page.number', { page }) })}
              />
            </nav>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
