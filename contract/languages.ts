/** Languages of the interface (SPEC §9). `es` is primary, `en` the fallback. */
export const LANGUAGES = ['es', 'en', 'de', 'pt_BR'] as const;
export type Language = (typeof LANGUAGES)[number];
export const PRIMARY_LANGUAGE: Language = 'es';
export const FALLBACK_LANGUAGE: Language = 'en';
export const LANGUAGE_COOKIE = 'lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Maps what browsers and proxies send (`pt-BR`, `es-ES`, `de_AT`, `EN`) onto a supported language,
 * or undefined. Portuguese of any region maps to pt_BR, the only Portuguese we have.
 */
export function toLanguage(value: string | null | undefined): Language | undefined {
  if (!value) return undefined;
  const normalised = value.trim().replace('-', '_');
  if (isLanguage(normalised)) return normalised;
  const base = normalised.split('_')[0]?.toLowerCase();
  if (base === 'pt') return 'pt_BR';
  return isLanguage(base) ? base : undefined;
}

/** Intl/BCP 47 tag for a language (dates, numbers, `<html lang>`). */
export function toLocaleTag(lng: Language): string {
  return lng === 'pt_BR' ? 'pt-BR' : lng;
}
