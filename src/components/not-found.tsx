import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { Link, useParams } from '#src/lib/router.tsx';
import { usePageTitle } from '#src/lib/page-title.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  const { lng = 'es' } = useParams();
  usePageTitle(t('pages.notFound'));
  return (
    <Container size="sm" py={64}>
      <Stack align="center" ta="center">
        <Text fz={72} fw={900} c="gold" aria-hidden>
          404
        </Text>
        <Title order={1}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Button component={Link} to={`/${lng}`}>
          {t('common.backHome')}
        </Button>
      </Stack>
    </Container>
  );
}
