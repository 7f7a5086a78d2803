/**
 * The client dashboard's saved searches (issue 28): each with a link that opens the listing with its filters, rename,
 * how it alerts (instantly, daily e-mail, none), pause / resume and delete (confirmed). The list is the persisted
 * query (readable offline); changes show at once and go through the outbox, so they are kept and sent later offline.
 */
import { ActionIcon, Alert, Badge, Button, Card, Group, Modal, NativeSelect, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPencil, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import {
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCH_NAME_MAX,
  savedSearchListingPath,
  type SavedSearch,
  type SavedSearchAlerts,
  type SavedSearchUpdate,
} from '#contract/saved-searches.ts';
import {
  deleteSavedSearch,
  patchCached,
  SAVED_SEARCHES_KEY,
  savedSearchesQueryOptions,
  updateSavedSearch,
} from '#src/components/save-search-button-api.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { handleRejection } from '#src/lib/response-handler.ts';
import { useCurrentUser } from '#src/lib/session.ts';

function useWrites() {
  const client = useQueryClient();
  const user = useCurrentUser();
  const ui = usePresenter();
  const settle = () => void client.invalidateQueries({ queryKey: SAVED_SEARCHES_KEY });
  return {
    async update(s: SavedSearch, change: SavedSearchUpdate) {
      if (!user.data) return;
      patchCached(client, s.id, change);
      try {
        const res = await updateSavedSearch(user.data.id, s, change);
        const saved = res.sent?.data.data;
        if (saved) patchCached(client, s.id, saved);
      } catch (err) {
        handleRejection(err, ui);
        settle();
      }
    },
    async remove(s: SavedSearch) {
      if (!user.data) return;
      patchCached(client, s.id, null);
      try {
        await deleteSavedSearch(user.data.id, s);
      } catch (err) {
        handleRejection(err, ui);
        settle();
      }
    },
  };
}

function SearchRow({ s, onDelete }: { s: SavedSearch; onDelete: (s: SavedSearch) => void }) {
  const { t } = useTranslation();
  const lng = useLng();
  const writes = useWrites();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(s.name);
  const titleId = useId();
  const where = [
    s.search ? `«${s.search}»` : null,
    s.city?.name ?? t('savedSearches.panel.anywhere'),
    s.section?.name ?? t('savedSearches.panel.allSections'),
  ]
    .filter(Boolean)
    .join(' · ');
  const rename = () => {
    const trimmed = name.trim();
    if (trimmed && trimmed !== s.name) void writes.update(s, { name: trimmed });
    setRenaming(false);
  };
  return (
    <Card component="li" withBorder radius="md" padding="sm" aria-labelledby={titleId} data-testid="saved-search">
      <Stack gap="xs">
        {renaming ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              rename();
            }}
          >
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                style={{ flex: 1, minWidth: 0 }}
                label={t('savedSearches.panel.renameLabel', { name: s.name })}
                value={name}
                maxLength={SAVED_SEARCH_NAME_MAX}
                onChange={(e) => setName(e.currentTarget.value)}
                autoFocus
              />
              <Button type="submit" size="sm">
                {t('savedSearches.panel.save')}
              </Button>
              <Button
                variant="default"
                size="sm"
                onClick={() => {
                  setName(s.name);
                  setRenaming(false);
                }}
              >
                {t('savedSearches.panel.cancel')}
              </Button>
            </Group>
          </form>
        ) : (
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={700} id={titleId} style={{ overflowWrap: 'anywhere' }}>
                {s.name}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {where}
              </Text>
            </Stack>
            {s.paused ? (
              <Badge color="gray" variant="light">
                {t('savedSearches.panel.paused')}
              </Badge>
            ) : s.pending > 0 ? (
              <Badge variant="light">{t('savedSearches.panel.pending', { count: s.pending })}</Badge>
            ) : null}
          </Group>
        )}
        <Group gap="xs" justify="space-between" wrap="wrap">
          <NativeSelect
            size="xs"
            aria-label={t('savedSearches.panel.alertsLabel', { name: s.name })}
            value={s.alerts}
            data={SAVED_SEARCH_ALERTS.map((a) => ({ value: a, label: t(`savedSearches.dialog.${a}`) }))}
            onChange={(e) => void writes.update(s, { alerts: e.currentTarget.value as SavedSearchAlerts })}
          />
          <Group gap={4} wrap="nowrap" role="group" aria-label={t('savedSearches.panel.actions', { name: s.name })}>
            <Button
              component={Link}
              to={withLng(lng, savedSearchListingPath(s))}
              size="xs"
              variant="light"
              aria-label={t('savedSearches.panel.openLabel', { name: s.name })}
            >
              {t('savedSearches.panel.open')}
            </Button>
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={t('savedSearches.panel.rename')}
              title={t('savedSearches.panel.rename')}
              onClick={() => setRenaming(true)}
            >
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={s.paused ? t('savedSearches.panel.resume') : t('savedSearches.panel.pause')}
              title={s.paused ? t('savedSearches.panel.resume') : t('savedSearches.panel.pause')}
              onClick={() => void writes.update(s, { paused: !s.paused })}
              data-testid="saved-search-pause"
            >
              {s.paused ? <IconPlayerPlay size={18} aria-hidden /> : <IconPlayerPause size={18} aria-hidden />}
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('savedSearches.panel.deleteLabel', { name: s.name })}
              title={t('savedSearches.panel.delete')}
              onClick={() => onDelete(s)}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

export function SavedSearchesPanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const list = useQuery({ ...savedSearchesQueryOptions(), enabled: !!user.data });
  const writes = useWrites();
  const [deleting, setDeleting] = useState<SavedSearch | null>(null);
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} withBorder radius="md" padding="md" data-testid="saved-searches-panel">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('savedSearches.panel.heading')}
        </Title>
        {list.data ? (
          list.data.length ? (
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
              {list.data.map((s) => (
                <SearchRow key={s.id} s={s} onDelete={setDeleting} />
              ))}
            </Stack>
          ) : (
            <Text c="dimmed">{t('savedSearches.panel.empty')}</Text>
          )
        ) : list.isError ? (
          <Alert color="red">{t('savedSearches.panel.error')}</Alert>
        ) : (
          <Stack gap="sm" aria-busy="true">
            <Text size="sm" c="dimmed">
              {t('savedSearches.panel.loading')}
            </Text>
            <Skeleton h={88} radius="md" />
            <Skeleton h={88} radius="md" />
          </Stack>
        )}
        <Modal
          opened={deleting !== null}
          onClose={() => setDeleting(null)}
          title={t('savedSearches.panel.deleteTitle')}
          centered
          closeButtonProps={{ 'aria-label': t('common.close') }}
        >
          <Stack gap="md">
            <Text>{t('savedSearches.panel.deleteText', { name: deleting?.name ?? '' })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('savedSearches.panel.cancel')}
              </Button>
              <Button
                color="red"
                onClick={() => {
                  if (deleting) void writes.remove(deleting);
                  setDeleting(null);
                }}
              >
                {t('savedSearches.panel.delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Stack>
    </Card>
  );
}
