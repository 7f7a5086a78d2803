import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/de';
import 'dayjs/locale/pt-br';
import { toLocaleTag, type Language } from '#contract/languages.ts';

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

export function formatDate(value: string | Date, lng: Language): string {
  return new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'long' }).format(dayjs(value).toDate());
}
