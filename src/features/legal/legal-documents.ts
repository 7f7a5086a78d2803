import type { Language } from '#contract/languages.ts';

export const LEGAL_SLUGS = ['cookies-policy', 'privacy-policy', 'terms-and-conditions', 'terms-and-conditions-to-post'] as const;
export type LegalSlug = (typeof LEGAL_SLUGS)[number];

export const LEGAL_TITLE_KEYS: Record<LegalSlug, string> = {
  'cookies-policy': 'pages.cookiesPolicy',
  'privacy-policy': 'pages.privacyPolicy',
  'terms-and-conditions': 'pages.termsAndConditions',
  'terms-and-conditions-to-post': 'pages.termsAndConditionsToPost',
};

export interface LegalDocument {
  title: string;
  updated: string;
  intro: string;
  sections: { heading: string; paragraphs: string[]; items?: string[] }[];
}

// Each document/language pair is its own small chunk, loaded only when read (and precached for offline).
const documents = import.meta.glob<LegalDocument>('./content/*.json', { import: 'default' });

export function isLegalSlug(value: string | undefined): value is LegalSlug {
  return (LEGAL_SLUGS as readonly string[]).includes(value ?? '');
}

export async function loadLegalDocument(slug: LegalSlug, lng: Language): Promise<LegalDocument> {
  const load = documents[`./content/${slug}.${lng}.json`] ?? documents[`./content/${slug}.en.json`];
  if (!load) throw new Error(`No legal document ${slug}`);
  return load();
}
