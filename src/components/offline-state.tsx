/**
 * A page whose answer was never saved, asked for without a network: a friendly offline state with a retry, instead
 * of an error. Used by the listing, a model's page and every route's error page (src/app/routes/error-page.tsx).
 */
import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link } from '#src/lib/router.tsx';
import { isLanguage } from '#contract/languages.ts';
import { OfflineError } from '#src/lib/api-client.ts';

/** The error means the request never reached the server (or the browser knows it is offline). */
export function isOfflineFailure(error: unknown): boolean {
  return error instanceof OfflineError || (typeof navigator !== 'undefined' && !navigator.onLine);
}

/** A query with nothing to show for want of network: failed offline, or waiting for the network to ask again. */
export function isOfflineWithoutData(query: { data: unknown; isError: boolean; error: unknown; fetchStatus: string }): boolean {
  return query.data === undefined && ((query.isError && isOfflineFailure(query.error)) || query.fetchStatus === 'paused');
}

export function OfflineState({ onRetry, retrying, order = 2 }: { onRetry?: () => void; retrying?: boolean; order?: 1 | 2 | 3 }) {
  const { t, i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  return (
    <Stack align="center" ta="center" py="xl" gap="sm" data-testid="offline-state">
      <ThemeIcon size={56} radius="xl" variant="light" color="yellow">
        <IconWifiOff size={30} aria-hidden />
      </ThemeIcon>
      <Title order={order}>{t('pwa.offlineTitle')}</Title>
      <Text c="dimmed" maw={480}>
        {t('pwa.offlineText')}
      </Text>
      <Group>
        {onRetry ? (
          <Button onClick={onRetry} loading={retrying}>
            {t('common.retry')}
          </Button>
        ) : null}
        <Button variant="default" component={Link} to={`/${lng}`}>
          {t('common.backHome')}
        </Button>
      </Group>
    </Stack>
  );
}
