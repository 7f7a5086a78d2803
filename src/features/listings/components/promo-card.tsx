import { Anchor, Badge, Box, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { PublicityAd } from '#contract/listings.ts';
import type { ListingView } from '../hooks/use-listing-params.ts';

/**
 * A promoted placement. EU DSA art. 26: it says plainly that it is advertising and who paid for it; it is the
 * same for every visitor (nothing about the visitor is used to choose it). In the list view it takes the shape of
 * a model card there (a small picture beside the text), so it neither towers over the list nor stretches the card
 * beside it in a two-column row.
 */
export function PromoCard({ ad, view = 'grid' }: { ad: PublicityAd; view?: ListingView }) {
  const { t } = useTranslation();
  const list = view === 'list';
  const text = (
    <Stack gap={4} p={list ? 'sm' : 'xs'} style={{ minWidth: 0, flex: 1 }}>
      <Badge size="xs" variant="default" tt="uppercase" style={{ alignSelf: 'flex-start' }}>
        {t('listings.advertising')}
      </Badge>
      <Anchor
        href={ad.target_url}
        target="_blank"
        rel="sponsored noopener noreferrer"
        fw={700}
        size="sm"
        c="var(--mantine-color-text)"
        lineClamp={list ? 2 : undefined}
        style={{ overflowWrap: 'break-word' }}
      >
        {ad.title}
      </Anchor>
      <Text size="xs" c="dimmed" lineClamp={list ? 2 : 3}>
        {ad.body}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
        {t('listings.paidBy', { advertiser: ad.advertiser })}
      </Text>
    </Stack>
  );
  const image = ad.image_url ? (
    <img
      src={ad.image_url}
      alt=""
      loading="lazy"
      decoding="async"
      // The list's model covers are 4:5 at 104/140 px wide: the same box keeps the rows even.
      style={{ width: '100%', aspectRatio: list ? '4 / 5' : '16 / 9', objectFit: 'cover', display: 'block' }}
    />
  ) : null;
  return (
    <Card withBorder padding={0} radius="md" data-testid="promo-card" style={{ borderStyle: 'dashed' }}>
      {list ? (
        <Group wrap="nowrap" gap={0} align="stretch">
          {image ? (
            <Box w={{ base: 104, sm: 140 }} style={{ flexShrink: 0 }}>
              {image}
            </Box>
          ) : null}
          {text}
        </Group>
      ) : (
        <>
          {image}
          {text}
        </>
      )}
    </Card>
  );
}
