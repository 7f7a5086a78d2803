/** The reported ad as the notice saw it (a snapshot: the ad may have changed or gone since). */
import { Text } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { type Report } from '#contract/reports.ts';

/** What the notice says about the ad (a snapshot taken when it was filed). */
export function adOf(r: Report) {
  const a = r.ad ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return { title: str(a.title), model: str(a.model_name), city: str(a.city) };
}

export function AdSummary({ report }: { report: Report }) {
  const { t } = useTranslation();
  const ad = adOf(report);
  return (
    <>
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {ad.title ?? t('notices.report.adGone')}
      </Text>
      <Text size="sm" c="dimmed">
        {[ad.model, ad.city, report.ad_id ? `#${report.ad_id}` : null].filter(Boolean).join(' · ')}
      </Text>
    </>
  );
}
