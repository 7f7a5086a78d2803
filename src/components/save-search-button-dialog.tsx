/**
 * The "Guardar búsqueda" dialog (issue 28), loaded on demand by save-search-button.tsx: a name prefilled from the
 * listing's filters and how to hear of new ads (instantly, a daily e-mail, or not at all), saved through the outbox.
 * A visitor is asked to sign in or register first, with a way back to the same listing (`?next=`).
 */
import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useLocation } from '#src/lib/router.tsx';
import { SAVED_SEARCH_ALERTS, SAVED_SEARCH_NAME_MAX, type SavedSearchAlerts } from '#contract/saved-searches.ts';
import type { CityOption } from '#contract/locations.ts';
import { API } from '#contract/routes.ts';
import { apiGet, ApiError } from '#src/lib/api-client.ts';
import { useLng, withLng } from '#src/lib/paths.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { DEFAULT_PLACEMENT, handleAnswer, handleRejection } from '#src/lib/response-handler.ts';
import { useCurrentUser } from '#src/lib/session.ts';
import { createSavedSearch, SAVED_SEARCHES_KEY } from './save-search-button-api.ts';

/** The listing's filters the search keeps. */
export interface SaveSearchQuery {
  search: string;
  city: number | undefined;
  section: string | undefined;
}

export function SaveSearchDialog({
  opened,
  onClose,
  query,
  sectionName,
}: {
  opened: boolean;
  onClose: () => void;
  query: SaveSearchQuery;
  /** The section's name in the language shown, when the listing has one. */
  sectionName: string | undefined;
}) {
  const { t } = useTranslation();
  const lng = useLng();
  const location = useLocation();
  const user = useCurrentUser();
  const ui = usePresenter();
  const client = useQueryClient();
  // The city's name as the filter bar's picker has it (the same query, usually cached already).
  const city = useQuery({
    queryKey: ['city', query.city],
    queryFn: ({ signal }) => apiGet<{ data: CityOption }>(API.city(query.city ?? ''), signal).then((r) => r.data),
    enabled: !!query.city,
    staleTime: Infinity,
  });
  // Prefilled from the filters ("rubia · Oviedo · Mujeres") once the city's name is known, until the user types.
  const suggested =
    [query.search, query.city ? city.data?.name : undefined, sectionName].filter(Boolean).join(' · ') ||
    t('savedSearches.dialog.everything');
  const [typed, setName] = useState<string | null>(null);
  const name = typed ?? suggested.slice(0, SAVED_SEARCH_NAME_MAX);
  const [alerts, setAlerts] = useState<SavedSearchAlerts>('instant');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const here = `${location.pathname}${location.search}`;

  const save = async () => {
    if (!user.data) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('validation.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await createSavedSearch(user.data.id, {
        name: trimmed,
        ...(query.search ? { search: query.search } : {}),
        ...(query.city ? { city: query.city } : {}),
        ...(query.section ? { section: query.section } : {}),
        alerts,
      });
      if (res.sent) handleAnswer(res.sent, ui);
      else ui.notify({ type: 'info', message: t('savedSearches.dialog.queued'), placement: DEFAULT_PLACEMENT });
      void client.invalidateQueries({ queryKey: SAVED_SEARCHES_KEY });
      onClose();
    } catch (err) {
      const fields = err instanceof ApiError ? err.data?.errors : undefined;
      if (fields) setError(Object.values(fields).flat().join(' '));
      else handleRejection(err, ui);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('savedSearches.dialog.title')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {user.data === null ? (
        <Stack gap="md" data-testid="save-search-sign-in">
          <Text>{t('savedSearches.dialog.signInText')}</Text>
          <Group justify="flex-end">
            <Button component={Link} to={withLng(lng, `/register?next=${encodeURIComponent(here)}`)} variant="default">
              {t('savedSearches.dialog.register')}
            </Button>
            <Button component={Link} to={withLng(lng, `/login?next=${encodeURIComponent(here)}`)}>
              {t('savedSearches.dialog.signIn')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack gap="md">
            <TextInput
              label={t('savedSearches.dialog.name')}
              description={t('savedSearches.dialog.nameHint')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={SAVED_SEARCH_NAME_MAX}
              required
              error={error}
              data-autofocus
            />
            <Radio.Group label={t('savedSearches.dialog.alerts')} value={alerts} onChange={(v) => setAlerts(v)}>
              <Stack gap="xs" mt="xs">
                {SAVED_SEARCH_ALERTS.map((a) => (
                  <Radio key={a} value={a} label={t(`savedSearches.dialog.${a}`)} description={t(`savedSearches.dialog.${a}Hint`)} />
                ))}
              </Stack>
            </Radio.Group>
            {user.data === undefined ? <Alert color="gray">{t('savedSearches.panel.loading')}</Alert> : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('savedSearches.dialog.cancel')}
              </Button>
              <Button type="submit" loading={busy} disabled={!user.data}>
                {t('savedSearches.dialog.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
