/** What a review queue shows instead of its items: the load error, the skeleton, or "nothing here"; one wording for all queues. */
import { Alert, Skeleton, Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';

export function Empty({ loading, error, empty }: { loading: boolean; error: boolean; empty: boolean }) {
  const { t } = useTranslation();
  if (error) return <Alert color="red">{t('admin.list.error')}</Alert>;
  if (loading) return <Skeleton height={200} radius="md" />;
  if (empty) return <Text c="dimmed">{t('admin.list.empty')}</Text>;
  return null;
}
