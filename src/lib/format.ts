import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/es';
import 'dayjs/locale/de';
import 'dayjs/locale/pt-br';
import type { Language } from '#contract/languages.ts';

dayjs.extend(localizedFormat);

/** SPEC §9: the week starts on Monday, whatever the interface language (the Spanish convention). */
export const FIRST_DAY_OF_WEEK = 1;

export function dayjsLocale(lng: Language): string {
  return lng === 'pt_BR' ? 'pt-br' : lng;
}

/** Shortens text to `max` characters on a word boundary when possible, adding an ellipsis (SPEC §9). */
export function truncate(text: string, max = 140): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A long date ("29 de noviembre de 2026"): dayjs's `LL` from its locale files, the same words as Intl's `dateStyle:
 * 'long'` in the four languages (format.test.ts compares them over a year). Not Intl.DateTimeFormat: the first one a
 * page builds loads the language's ICU data on the main thread, ~15 ms here and ~60 ms on a phone, in the model page's
 * first render.
 */
export function formatDate(value: string | Date, lng: Language): string {
  return dayjs(value).locale(dayjsLocale(lng)).format('LL');
}
