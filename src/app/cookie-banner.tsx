import { Anchor, Box, Button, CloseButton, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconCheck } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams } from '#src/lib/router.tsx';
import {
  closeConsentPreferences,
  consentPreferencesOpen,
  getConsent,
  setConsent,
  subscribeConsent,
  type ConsentChoice,
} from '#src/lib/consent.ts';

/**
 * Cookie consent. "Reject" has exactly the same weight as "Accept" (same size, same variant, side by side at every
 * width). Compact: one short paragraph and the buttons (at 360 px it took about 35 % of the screen with a heading and
 * stacked buttons). Opened again from "Preferencias de cookies" it says what was chosen, marks that button as pressed,
 * and closing it keeps the choice. A spacer as tall as the banner keeps the footer reachable while it is shown.
 */
export function CookieBanner() {
  const { t } = useTranslation();
  const { lng = 'es' } = useParams();
  const choice = useSyncExternalStore(subscribeConsent, getConsent, () => null);
  const reopened = useSyncExternalStore(subscribeConsent, consentPreferencesOpen, () => false);
  const { ref, height } = useElementSize();
  if (choice && !reopened) return null;
  const option = (value: ConsentChoice, label: string) => (
    <Button
      variant="default"
      size="sm"
      px={8}
      fz={13}
      aria-pressed={choice === value}
      h="auto"
      mih={36}
      py={6}
      // A long label (German, a bigger text size) wraps inside the button rather than being cut.
      styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 } }}
      leftSection={choice === value ? <IconCheck size={16} aria-hidden /> : undefined}
      onClick={() => setConsent(value)}
    >
      {label}
    </Button>
  );
  return (
    <>
      <Box h={height + 24} aria-hidden />
      <Paper
        ref={ref}
        component="section"
        role="region"
        aria-labelledby="cookie-banner-title"
        shadow="xl"
        p="sm"
        withBorder
        style={{ position: 'fixed', insetInline: 'max(8px, calc(50% - 320px))', bottom: 8, zIndex: 300 }}
        data-testid="cookie-banner"
      >
        <Group gap="xs" wrap="nowrap" align="flex-start" mb="xs">
          <Text size="xs" style={{ flex: 1 }}>
            <Text span fw={700} size="xs" id="cookie-banner-title">
              {t('cookies.title')}.
            </Text>{' '}
            {t('cookies.text')}{' '}
            <Anchor component={Link} to={`/${lng}/legal/cookies-policy`} size="xs" underline="always">
              {t('cookies.learnMore')}
            </Anchor>
            {choice ? (
              <Text span display="block" size="xs" fw={600} mt={4} data-testid="cookie-current-choice">
                {t(`cookies.current.${choice}`)}
              </Text>
            ) : null}
          </Text>
          {choice ? <CloseButton size="sm" aria-label={t('cookies.keep')} onClick={closeConsentPreferences} /> : null}
        </Group>
        <SimpleGrid cols={2} spacing="xs">
          {option('rejected', t('cookies.reject'))}
          {option('accepted', t('cookies.accept'))}
        </SimpleGrid>
      </Paper>
    </>
  );
}
