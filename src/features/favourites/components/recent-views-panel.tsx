/** The client dashboard's panel of the models recently viewed on this device (issue 28), with its "Borrar". */
import { Card } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { RecentViewsList } from '#src/components/recent-views-row.tsx';

export function RecentViewsPanel() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" data-testid="recent-views-panel">
      <RecentViewsList whenEmpty={t('recentViews.empty')} />
    </Card>
  );
}
