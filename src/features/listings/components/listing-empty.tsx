import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';

/** Nothing to show in the listing or on its map: why, and with filters on, a way to clear them. */
export function ListingEmpty({ filtered, icon, onClearFilters }: { filtered: boolean; icon: ReactNode; onClearFilters: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" radius="lg">
      <Stack align="center" ta="center" gap="xs">
        <ThemeIcon size={56} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={3}>{filtered ? t('listings.noResultsTitle') : t('home.emptyTitle')}</Title>
        <Text c="dimmed" maw={480}>
          {filtered ? t('listings.noResultsText') : t('home.emptyText')}
        </Text>
        {filtered ? (
          <Button variant="light" onClick={onClearFilters}>
            {t('listings.clearFilters')}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
