import { Alert, Badge, Button, Container, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPhotoSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '#contract/languages.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { sectionsQueryOptions } from '../api/get-sections.ts';

/** Home: the listing arrives with the browse issue; for now the sections and an honest empty state. */
export function HomeRoute() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('pages.home'));
  const sections = useQuery(sectionsQueryOptions());
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';

  return (
    <Container size="xl" py="lg">
      <Stack gap="lg">
        <div>
          <Title order={1}>{t('home.heading')}</Title>
          <Text c="dimmed" mt={4}>
            {t('home.intro')}
          </Text>
        </div>

        <section aria-labelledby="sections-title">
          <Title order={2} size="h4" id="sections-title" mb="xs">
            {t('home.sections')}
          </Title>
          {sections.isPending ? (
            <Group gap="xs" aria-busy="true">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} h={28} w={110} radius="xl" />
              ))}
            </Group>
          ) : sections.isError ? (
            <Alert color="red" title={t('home.sectionsError')}>
              <Button size="xs" variant="light" onClick={() => void sections.refetch()}>
                {t('common.retry')}
              </Button>
            </Alert>
          ) : (
            <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {sections.data.map((s) => (
                <li key={s.slug}>
                  <Badge size="lg" variant="dot" color={s.color} data-section={s.slug} tt="none">
                    {s.names[lng]}
                  </Badge>
                </li>
              ))}
            </Group>
          )}
        </section>

        <Paper withBorder p="xl" radius="lg">
          <Stack align="center" ta="center" gap="xs">
            <ThemeIcon size={56} radius="xl" variant="light">
              <IconPhotoSearch size={30} aria-hidden />
            </ThemeIcon>
            <Title order={2} size="h3">
              {t('home.emptyTitle')}
            </Title>
            <Text c="dimmed" maw={480}>
              {t('home.emptyText')}
            </Text>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
