/** The client dashboard's panel of the favourites (issue 28): the five newest, with a link to the whole list. */
import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { useLng } from '#src/lib/paths.ts';
import { useFavourites } from '../api/use-favourites.ts';
import { FavouriteItemCard } from './favourite-item.tsx';

const SHOWN = 5;

export function FavouritesPanel() {
  const { t } = useTranslation();
  const lng = useLng();
  const { items, remove } = useFavourites();
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="favourites-panel-title" data-testid="favourites-panel">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h4" id="favourites-panel-title">
          {t('favourites.panel.title')}
        </Title>
        {items?.length ? (
          <Anchor component={Link} to={`/${lng}/favourites`} size="sm">
            {t('favourites.panel.viewAll')} ({items.length})
          </Anchor>
        ) : null}
      </Group>
      {items === undefined ? (
        <Skeleton h={96} />
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('favourites.panel.empty')}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.slice(0, SHOWN).map((item) => (
            <FavouriteItemCard key={item.ad_id} item={item} lng={lng} onRemove={remove} compact />
          ))}
        </Stack>
      )}
    </Card>
  );
}
