import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { isOfflineFailure, OfflineState } from '#src/components/offline-state.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';

/** What every route's error boundary (route-error-boundary.tsx) shows: a friendly error page. */
export function ErrorPage({ error }: { error: unknown }) {
  const { t, i18n } = useTranslation();
  usePageTitle(t('pages.error'));
  if (import.meta.env.DEV) console.error(error);
  // Offline, a screen whose code or answer was never saved: say so, not "something went wrong".
  if (isOfflineFailure(error)) {
    return (
      <Container size="sm" py={64}>
        <OfflineState order={1} onRetry={() => window.location.reload()} />
      </Container>
    );
  }
  return (
    <Container size="sm" py={64}>
      <Stack align="center" ta="center" role="alert">
        <Title order={1}>{t('errorPage.title')}</Title>
        <Text c="dimmed">{t('errorPage.text')}</Text>
        <Group>
          <Button onClick={() => window.location.reload()}>{t('errorPage.reload')}</Button>
          <Button variant="default" component="a" href={`/${i18n.resolvedLanguage ?? 'es'}`}>
            {t('common.backHome')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
