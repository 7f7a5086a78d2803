/**
 * The listing's page links (Mantine Pagination with translated labels). Loaded lazily by the home: it sits
 * below the results, out of the first screen, and its code need not hold up the first paint.
 */
import { Pagination } from '@mantine/core';
import { useTranslation } from '#src/lib/i18n-react.tsx';

export function ListingPagination({ total, value, onChange }: { total: number; value: number; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <Pagination
      total={total}
      value={value}
      onChange={onChange}
      siblings={1}
      boundaries={1}
      size="sm"
      getControlProps={(control) => ({ 'aria-label': t(`listings.page.${control}`) })}
      getItemProps={(page) => ({ 'aria-label': t('listings.page.number', { page }) })}
    />
  );
}
