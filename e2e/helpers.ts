/** Shared bits of the end-to-end specs: the translations and legal texts as the app ships them, and page helpers. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const LANGUAGES = ['es', 'en', 'de', 'pt_BR'] as const;
export type Lng = (typeof LANGUAGES)[number];

export const HTML_LANG: Record<Lng, string> = { es: 'es', en: 'en', de: 'de', pt_BR: 'pt-BR' };

export const LANGUAGE_NAMES: Record<Lng, string> = { es: 'Español', en: 'English', de: 'Deutsch', pt_BR: 'Português (Brasil)' };

const root = path.resolve(import.meta.dirname, '..');

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;
}

type Dict = { [key: string]: string | Dict };

/** The translation of `key` ("nav.language") in `lng`, read from locales/{lng}.json. */
export function tr(lng: Lng, key: string): string {
  let node: string | Dict | undefined = readJson<Dict>(`locales/${lng}.json`);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`No translation ${lng}:${key}`);
  return node;
}

export type LegalSlug = 'cookies-policy' | 'privacy-policy' | 'terms-and-conditions' | 'terms-and-conditions-to-post';

export function legalTitle(slug: LegalSlug, lng: Lng): string {
  return readJson<{ title: string }>(`src/features/legal/content/${slug}.${lng}.json`).title;
}

/** The six sections of the seed, in display order. */
export const SECTION_NAMES: Record<Lng, string[]> = {
  es: ['Mujeres', 'Hombres', 'Gays', 'Trans y travestis', 'Videollamadas y Webcam', 'Parejas'],
  en: ['Women', 'Men', 'Gays', 'Trans and transvestites', 'Video calls and webcam', 'Couples'],
  de: ['Frauen', 'Männer', 'Gays', 'Trans und Transvestiten', 'Videoanrufe und Webcam', 'Paare'],
  pt_BR: ['Mulheres', 'Homens', 'Gays', 'Trans e travestis', 'Videochamadas e webcam', 'Casais'],
};

export const titleOf = (pageName: string) => `${pageName} · Vitrina`;

/** Marks the cookie choice as made before the app starts, so the banner stays out of a test's way. */
export async function presetConsent(page: Page, choice: 'accepted' | 'rejected' = 'rejected') {
  await page.addInitScript((c) => {
    if (!localStorage.getItem('cookie-consent')) localStorage.setItem('cookie-consent', c);
  }, choice);
}

/** The section chips of the home's filter bar ("all" first, then the six sections), by their labels. */
export function sectionChips(page: Page, lng: Lng) {
  return page.getByRole('radiogroup', { name: tr(lng, 'home.sections') }).locator('label');
}

/** Opens the home in `lng` and waits until it is rendered (h1 and the six section chips). */
export async function openHome(page: Page, lng: Lng, query = '') {
  await page.goto(`/${lng}${query}`);
  await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'home.heading') })).toBeVisible();
  await expect(sectionChips(page, lng)).toHaveText([tr(lng, 'listings.allSections'), ...SECTION_NAMES[lng]]);
}

/** Opens a legal page and waits for its title. */
export async function openLegal(page: Page, lng: Lng, slug: LegalSlug) {
  await page.goto(`/${lng}/legal/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: legalTitle(slug, lng) })).toBeVisible();
}
