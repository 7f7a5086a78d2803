import { Anchor, Badge, Card, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PublicityAd } from '#contract/listings.ts';

/**
 * A promoted placement. EU DSA art. 26: it says plainly that it is advertising and who paid for it; it is the
 * same for every visitor (nothing about the visitor is used to choose it).
 */
export function PromoCard({ ad }: { ad: PublicityAd }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding={0} radius="md" data-testid="promo-card" style={{ borderStyle: 'dashed' }}>
      {ad.image_url ? (
        <img
          src={ad.image_url}
          alt=""
          loading="lazy"
          decoding="async"
          style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', display: 'block' }}
        />
      ) : null}
      <Stack gap={4} p="xs">
        <Badge size="xs" variant="default" tt="uppercase" style={{ alignSelf: 'flex-start' }}>
          {t('listings.advertising')}
        </Badge>
        <Anchor href={ad.target_url} target="_blank" rel="sponsored noopener noreferrer" fw={700} size="sm" c="var(--mantine-color-text)">
          {ad.title}
        </Anchor>
        <Text size="xs" c="dimmed" lineClamp={3}>
          {ad.body}
        </Text>
        <Text size="xs" c="dimmed">
          {t('listings.paidBy', { advertiser: ad.advertiser })}
        </Text>
      </Stack>
    </Card>
  );
}
