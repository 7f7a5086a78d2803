/**
 * Settings for Mantine date pickers (@mantine/dates): the interface language and a week that starts on Monday
 * (SPEC §9). Wrap a screen's date inputs in it. Not mounted by the app shell: it brings dayjs and its locales,
 * which pages without dates (the home above all) should not load.
 */
import { DatesProvider } from '@mantine/dates';
import type { ReactNode } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { isLanguage } from '#contract/languages.ts';
import { dayjsLocale, FIRST_DAY_OF_WEEK } from '#src/lib/format.ts';

export function LocalisedDatesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  return <DatesProvider settings={{ locale: dayjsLocale(lng), firstDayOfWeek: FIRST_DAY_OF_WEEK }}>{children}</DatesProvider>;
}
