import { Anchor, Badge, Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { Language } from '#contract/languages.ts';
import { keptPhotoUrl } from '#src/lib/favourites-photos.ts';
import { formatDate } from '#src/lib/format.ts';
import type { FavouriteItem } from '../api/use-favourites.ts';
import classes from './favourite-item.module.css';

/**
 * One favourite: while available, the ad's photo (the copy kept offline), name, city and section, linking to its page;
 * otherwise "Ya no está disponible" with what became of it and no photo at all (not even a cached one). Both can be
 * removed.
 */
export function FavouriteItemCard({
  item,
  lng,
  onRemove,
  compact = false,
}: {
  item: FavouriteItem;
  lng: Language;
  onRemove: (adId: number) => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const available = item.state === 'available' && item.card;
  const name = item.card?.name ?? item.name ?? t('favourites.unnamed', { id: item.ad_id });
  const photo = available ? keptPhotoUrl(item.card?.cover) : null;
  const size = compact ? { w: 64, h: 80 } : { w: 96, h: 120 };
  return (
    <Card withBorder padding="xs" radius="md" component="li" data-testid="favourite-item" data-state={item.state}>
      <Group wrap="nowrap" align="stretch" gap="sm">
        {photo ? (
          <img src={photo} alt="" width={size.w} height={size.h} className={classes.photo} loading="lazy" decoding="async" />
        ) : (
          <Box w={size.w} h={size.h} className={classes.photo} aria-hidden />
        )}
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          {available ? (
            <Anchor component={Link} to={`/${lng}/models/${item.ad_id}`} fw={700} className={classes.wrap}>
              {name}
              {item.card?.age ? (
                <Text span c="dimmed" fw={400}>
                  {', '}
                  {t('listings.age', { age: item.card.age })}
                </Text>
              ) : null}
            </Anchor>
          ) : (
            <Text fw={700} className={classes.wrap}>
              {name}
            </Text>
          )}
          {available && item.card ? (
            <>
              <Text size="sm" c="dimmed" className={classes.wrap}>
                {item.card.city.name}
              </Text>
              {compact ? null : (
                <Badge size="sm" variant="dot" color={item.card.section.color} tt="none" style={{ alignSelf: 'flex-start' }}>
                  {item.card.section.name}
                </Badge>
              )}
            </>
          ) : (
            <>
              <Text size="sm" fw={700} className={classes.unavailable} data-testid="favourite-unavailable">
                {t('favourites.state.unavailable')}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`favourites.state.${item.state === 'available' ? 'paused' : item.state}`)}
              </Text>
            </>
          )}
          {compact ? null : (
            <Text size="xs" c="dimmed">
              {t('favourites.page.savedOn', { date: formatDate(item.saved_at, lng) })}
            </Text>
          )}
        </Stack>
        <Button
          variant="subtle"
          color="gray"
          size="sm"
          h={44}
          px="xs"
          style={{ alignSelf: 'center' }}
          leftSection={<IconTrash size={18} aria-hidden />}
          aria-label={t('favourites.page.removeNamed', { name })}
          onClick={() => onRemove(item.ad_id)}
        >
          {compact ? null : t('favourites.page.remove')}
        </Button>
      </Group>
    </Card>
  );
}
