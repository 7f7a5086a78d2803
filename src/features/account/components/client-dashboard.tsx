import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

/**
 * The client's dashboard body (issue 28): what brings a visitor back first — her favourites and saved searches —,
 * then what happened (notifications, saved-search alerts among them) and where she was (recently viewed), then the
 * decisions about her account. One column on a phone, in that order; two from md, the lists on the left. The panels
 * come from their features, composed in src/app/router.tsx (features do not import each other); each brings its own
 * heading, loading and empty states.
 */
export function ClientDashboard({
  favourites,
  savedSearches,
  notifications,
  recentViews,
  more,
}: {
  favourites: ReactNode;
  savedSearches: ReactNode;
  notifications: ReactNode;
  recentViews: ReactNode;
  /** What every role's dashboard has below (the statements of reasons). */
  more?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="client-dashboard">
      <Text c="dimmed">{t('clientDashboard.intro')}</Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="lg" style={{ alignItems: 'start' }}>
        <Stack gap="lg" style={{ minWidth: 0 }}>
          {favourites}
          {savedSearches}
        </Stack>
        <Stack gap="lg" style={{ minWidth: 0 }}>
          {notifications}
          {recentViews}
        </Stack>
      </SimpleGrid>
      {more}
    </Stack>
  );
}
