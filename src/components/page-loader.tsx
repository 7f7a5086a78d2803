import { Center, Loader } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader color="gold" aria-label={t('common.loading')} />
    </Center>
  );
}
