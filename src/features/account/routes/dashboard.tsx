import { Container, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '#src/lib/page-title.ts';

/** Placeholder: the role dashboards arrive with the accounts issue. */
export function DashboardRoute() {
  const { t } = useTranslation();
  usePageTitle(t('pages.dashboard'));
  return (
    <Container size="xl" py="lg">
      <Title order={1} mb="md">
        {t('dashboard.heading')}
      </Title>
      <Paper withBorder p="lg">
        <Text c="dimmed">{t('dashboard.placeholder')}</Text>
      </Paper>
    </Container>
  );
}
