/**
 * "Favoritas" (issue 28): the saved ads with their state now — an ad paused, suspended or removed says "Ya no está
 * disponible" instead of vanishing, without its photo. A visitor's are kept on this device (with a note saying so), a
 * signed-in user's on the account; both show offline (the device list, or the persisted answer and the kept photos).
 */
import { Alert, Button, Container, Skeleton, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconHeart, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { OfflineState } from '#src/components/offline-state.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';
import { useLng } from '#src/lib/paths.ts';
import { useFavourites } from '../api/use-favourites.ts';
import { FavouriteItemCard } from '../components/favourite-item.tsx';

export function FavouritesRoute() {
  const { t } = useTranslation();
  const lng = useLng();
  usePageTitle(t('favourites.page.title'));
  const { items, onDevice, offlineWithoutData, remove } = useFavourites();
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <div>
          <Title order={1}>{t('favourites.page.title')}</Title>
          <Text c="dimmed" mt={4}>
            {t('favourites.page.intro')}
          </Text>
        </div>
        {onDevice ? (
          <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} data-testid="favourites-device-note">
            {t('favourites.page.deviceNote')}
          </Alert>
        ) : null}
        {offlineWithoutData ? (
          <OfflineState order={2} />
        ) : items === undefined ? (
          <Stack gap="sm" aria-busy="true">
            <VisuallyHidden role="status">{t('favourites.page.loading')}</VisuallyHidden>
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} h={138} radius="md" />
            ))}
          </Stack>
        ) : items.length === 0 ? (
          <Stack align="center" ta="center" py="xl" gap="sm" data-testid="favourites-empty">
            <ThemeIcon size={56} radius="xl" variant="light" color="red">
              <IconHeart size={30} aria-hidden />
            </ThemeIcon>
            <Title order={2} size="h3">
              {t('favourites.page.emptyTitle')}
            </Title>
            <Text c="dimmed">{t('favourites.page.emptyText')}</Text>
            <Button component={Link} to={`/${lng}`}>
              {t('favourites.page.browse')}
            </Button>
          </Stack>
        ) : (
          <section aria-labelledby="favourites-count">
            <Title order={2} size="h5" id="favourites-count" mb="xs" c="dimmed">
              {t('favourites.page.count', { count: items.length })}
            </Title>
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
              {items.map((item) => (
                <FavouriteItemCard key={item.ad_id} item={item} lng={lng} onRemove={remove} />
              ))}
            </Stack>
          </section>
        )}
      </Stack>
    </Container>
  );
}
