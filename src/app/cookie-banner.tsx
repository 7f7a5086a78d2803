import { Anchor, Box, Button, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { getConsent, setConsent, subscribeConsent } from '#src/lib/consent.ts';

/**
 * Cookie consent. "Reject" has exactly the same weight as "Accept" (same size, same variant, side by side
 * from 568 px, stacked below). A spacer as tall as the banner keeps the footer reachable while it is shown.
 */
export function CookieBanner() {
  const { t } = useTranslation();
  const { lng = 'es' } = useParams();
  const choice = useSyncExternalStore(subscribeConsent, getConsent, () => null);
  const { ref, height } = useElementSize();
  if (choice) return null;
  return (
    <>
      <Box h={height + 24} aria-hidden />
      <Paper
        ref={ref}
        component="section"
        role="region"
        aria-labelledby="cookie-banner-title"
        shadow="xl"
        p="md"
        withBorder
        style={{ position: 'fixed', insetInline: 'max(8px, calc(50% - 320px))', bottom: 8, zIndex: 300 }}
        data-testid="cookie-banner"
      >
        <Title order={2} size="h5" id="cookie-banner-title" mb={4}>
          {t('cookies.title')}
        </Title>
        <Text size="sm" mb="sm">
          {t('cookies.text')}{' '}
          <Anchor component={Link} to={`/${lng}/legal/cookies-policy`} size="sm" underline="always">
            {t('cookies.learnMore')}
          </Anchor>
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Button variant="default" onClick={() => setConsent('rejected')}>
            {t('cookies.reject')}
          </Button>
          <Button variant="default" onClick={() => setConsent('accepted')}>
            {t('cookies.accept')}
          </Button>
        </SimpleGrid>
      </Paper>
    </>
  );
}
