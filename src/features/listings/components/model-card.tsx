import { Badge, Box, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import type { ModelCard as Card_ } from '#contract/listings.ts';
import { FavouriteButton } from '#src/components/favourite-button.tsx';
import type { ListingView } from '../hooks/use-listing-params.ts';
import classes from './model-card.module.css';

const SIZES_GRID = '(min-width: 62em) 20vw, (min-width: 35.5em) 30vw, 48vw';
const SIZES_LIST = '140px';
/** Badges wrap to a second line rather than end in an ellipsis on a narrow card. */
const WRAPPING_BADGE = { root: classes.badgeRoot, label: classes.badgeLabel };

function Cover({ model, view, eager }: { model: Card_; view: ListingView; eager: boolean }) {
  const { t } = useTranslation();
  // height: auto lets aspect-ratio win over the height attribute (which is there to reserve space early).
  const style = {
    width: '100%',
    height: 'auto',
    aspectRatio: '4 / 5',
    objectFit: 'cover' as const,
    display: 'block',
    background: 'var(--mantine-color-default-hover)',
  };
  if (!model.cover) return <Box style={style} aria-hidden />;
  return (
    <img
      src={model.cover.url}
      srcSet={model.cover.srcset}
      sizes={view === 'grid' ? SIZES_GRID : SIZES_LIST}
      width={model.cover.width}
      height={model.cover.height}
      alt={t('listings.coverAlt', { name: model.name })}
      loading={eager ? 'eager' : 'lazy'}
      // The first row holds the page's largest paint (Lighthouse's LCP element): fetched ahead of the lazy rest.
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      style={style}
    />
  );
}

function VerifiedBadge() {
  const { t } = useTranslation();
  return (
    <Badge
      size="xs"
      color="teal"
      variant="filled"
      leftSection={<IconRosetteDiscountCheck size={12} aria-hidden />}
      tt="none"
      classNames={WRAPPING_BADGE}
    >
      {t('statuses.active')}
    </Badge>
  );
}

export function ModelCard({ model, lng, view, eager }: { model: Card_; lng: string; view: ListingView; eager: boolean }) {
  const { t } = useTranslation();
  const details = (
    // In the list the heart sits at the card's top right, beside the name: the text keeps clear of it.
    <Stack gap={4} p={view === 'grid' ? 'xs' : 'sm'} pr={view === 'list' ? 56 : undefined} style={{ minWidth: 0, flex: 1 }}>
      <Group gap={6} justify="space-between" align="flex-start">
        <Text fw={700} className={classes.wrap}>
          {model.name}
          {model.age ? (
            <Text span c="dimmed" fw={400}>
              {', '}
              {/* "20 años" stays on one line when the name wraps. */}
              <span style={{ whiteSpace: 'nowrap' }}>{t('listings.age', { age: model.age })}</span>
            </Text>
          ) : null}
        </Text>
        {model.verified && view === 'list' ? <VerifiedBadge /> : null}
      </Group>
      <Text size="sm" c="dimmed" className={classes.wrap}>
        {model.city.name}
      </Text>
      <Badge size="sm" variant="dot" color={model.section.color} tt="none" style={{ alignSelf: 'flex-start' }} classNames={WRAPPING_BADGE}>
        {model.section.name}
      </Badge>
      {view === 'list' ? (
        <Text size="sm" lineClamp={2} mt={4}>
          {model.excerpt}
        </Text>
      ) : null}
    </Stack>
  );
  // The heart is the card's sibling, not inside its link (a button inside a link is invalid and unreachable apart);
  // the group names both after the model for screen readers.
  return (
    <div className={classes.item} role="group" aria-label={model.name}>
      <Card
        component={Link}
        to={`/${lng}/models/${model.id}`}
        withBorder
        padding={0}
        radius="md"
        className={classes.card}
        data-testid="model-card"
        aria-label={model.title}
      >
        {view === 'grid' ? (
          <>
            <Box pos="relative">
              <Cover model={model} view={view} eager={eager} />
              {model.verified ? (
                <Box pos="absolute" top={8} left={8}>
                  <VerifiedBadge />
                </Box>
              ) : null}
            </Box>
            {details}
          </>
        ) : (
          <Group wrap="nowrap" gap={0} align="stretch">
            <Box w={{ base: 104, sm: 140 }} style={{ flexShrink: 0 }}>
              <Cover model={model} view={view} eager={eager} />
            </Box>
            {details}
          </Group>
        )}
      </Card>
      <div className={classes.heart}>
        <FavouriteButton card={model} />
      </div>
    </div>
  );
}

export function ModelCardSkeleton({ view }: { view: ListingView }) {
  return view === 'grid' ? (
    <Card withBorder padding={0} radius="md" aria-hidden>
      <Skeleton style={{ aspectRatio: '4 / 5' }} h="auto" radius={0} />
      <Stack gap={6} p="xs">
        <Skeleton h={14} w="70%" />
        <Skeleton h={12} w="50%" />
        <Skeleton h={16} w="40%" radius="xl" />
      </Stack>
    </Card>
  ) : (
    <Card withBorder padding="sm" radius="md" aria-hidden>
      <Group wrap="nowrap">
        <Skeleton w={104} h={130} />
        <Stack gap={6} style={{ flex: 1 }}>
          <Skeleton h={14} w="60%" />
          <Skeleton h={12} w="40%" />
          <Skeleton h={12} w="90%" />
        </Stack>
      </Group>
    </Card>
  );
}
