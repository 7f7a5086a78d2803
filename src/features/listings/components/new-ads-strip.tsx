/**
 * "3 anuncios nuevos" (issue 28): a saved search's alert opens the listing with `new=` naming the ads it announced;
 * they are shown first, above the listing, with the listing's own cards. Each ad is asked for by the public states
 * route (GET /api/favourites/states?ids=), which answers the card while the ad is available, so an ad taken down since
 * the alert is left out. Loaded only when the URL has `new=` (never on the server-rendered first screen).
 */
import { CloseButton, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { FavouriteStates } from '#contract/favourites.ts';
import { API } from '#contract/routes.ts';
import { apiGet } from '#src/lib/api-client.ts';
import type { CardView } from '../hooks/use-listing-params.ts';
import { ModelCard } from './model-card.tsx';

export function NewAdsStrip({ ids, lng, view, onDismiss }: { ids: number[]; lng: string; view: CardView; onDismiss: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const states = useQuery({
    queryKey: ['favourite-states', ids],
    queryFn: ({ signal }) => apiGet<FavouriteStates>(`${API.favouriteStates}?ids=${ids.join(',')}`, signal),
    staleTime: 60_000,
  });
  if (!states.data) return null;
  // In the alert's order (newest first), the available ones only.
  const cards = ids.flatMap((id) => {
    const s = states.data.data.find((x) => x.ad_id === id);
    return s?.state === 'available' && s.card ? [s.card] : [];
  });
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="sm" data-testid="new-ads">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4" id={titleId}>
            {cards.length ? t('savedSearches.newAds.title', { count: cards.length }) : t('savedSearches.newAds.region')}
          </Title>
          <CloseButton aria-label={t('savedSearches.newAds.dismiss')} onClick={onDismiss} />
        </Group>
        {cards.length ? (
          <SimpleGrid cols={view === 'grid' ? { base: 2, sm: 3, md: 4, lg: 5 } : { base: 1, md: 2 }} spacing="sm">
            {cards.map((c) => (
              <ModelCard key={c.id} model={c} lng={lng} view={view} eager={false} />
            ))}
          </SimpleGrid>
        ) : (
          <Text c="dimmed">{t('savedSearches.newAds.gone')}</Text>
        )}
      </Stack>
    </Paper>
  );
}
