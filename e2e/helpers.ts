/** Shared bits of the end-to-end specs: the translations and legal texts as the app ships them, and page helpers. */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page } from '@playwright/test';

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

/**
 * Waits until the app has taken over the page: the home and a model's page come rendered by the server, and a click or
 * a keystroke before the app has hydrated them may reach nothing. The app marks <html data-app="ready"> once it runs.
 */
export async function appReady(page: Page, lng: Lng) {
  await expect(page.locator('html')).toHaveAttribute('data-app', 'ready');
  await expect(page.locator('html')).toHaveAttribute('lang', lng === 'pt_BR' ? 'pt-BR' : lng);
}

/** Opens the home in `lng` and waits until it is rendered (h1 and the six section chips) and the app runs it. */
export async function openHome(page: Page, lng: Lng, query = '') {
  await page.goto(`/${lng}${query}`);
  await expect(page.getByRole('heading', { level: 1, name: tr(lng, 'home.heading') })).toBeVisible();
  await expect(sectionChips(page, lng)).toHaveText([tr(lng, 'listings.allSections'), ...SECTION_NAMES[lng]]);
  await appReady(page, lng);
}

/** Opens a legal page and waits for its title. */
export async function openLegal(page: Page, lng: Lng, slug: LegalSlug) {
  await page.goto(`/${lng}/legal/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: legalTitle(slug, lng) })).toBeVisible();
}

/** Signs in through the Spanish login form, as a person would (the caller checks where it lands). */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.goto('/es/login');
  await expect(page.getByRole('heading', { level: 1, name: tr('es', 'auth.login.heading') })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.getByLabel(tr('es', 'auth.fields.email')).fill(email);
  await page.getByRole('textbox', { name: tr('es', 'auth.fields.password'), exact: true }).fill(password);
  await page.getByRole('button', { name: tr('es', 'auth.login.submit') }).click();
}

/** axe finds nothing on the page (or inside `include`); toasts are let to time out first. */
export async function expectNoAxeViolations(page: Page, name: string, include?: string) {
  // The toast layer's close button has no accessible name (src/lib/overlays-ui.tsx, reported): let toasts time out.
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  // Colours read while something fades in (a dialog opening) are blends, which axe measured as too little contrast
  // (CI: 4.44:1 on a dialog's button). Waited for: running animations (endless ones, a spinner, excepted), and dialogs
  // to be opaque (their fade may not have started yet, so no animation shows).
  await page
    .waitForFunction(
      () =>
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity) &&
        [...document.querySelectorAll('[role="dialog"]')].every((d) => getComputedStyle(d).opacity === '1'),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  expect(results.violations, `${name}: ${JSON.stringify(results.violations.map((v) => [v.id, v.nodes.map((n) => n.target)]))}`).toEqual([]);
}

/**
 * Chromium under Playwright forgets the offline emulation for the document a reload or a navigation brings
 * (navigator.onLine is true again while requests still fail): switching it off and on again tells the new document.
 */
export async function offlineAgain(context: BrowserContext) {
  await context.setOffline(false);
  await context.setOffline(true);
}

/** The queries in the persisted query cache (src/lib/query-persist-store.ts), as saved; none when nothing is saved. */
export function savedQueries(page: Page): Promise<{ queryKey: unknown[]; state: { data?: unknown } }[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('vitrina-query-cache');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error(String(req.error)));
    });
    try {
      const text = await new Promise<unknown>((resolve, reject) => {
        if (!db.objectStoreNames.contains('kv')) return resolve(null);
        const req = db.transaction('kv').objectStore('kv').get('queries');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(new Error(String(req.error)));
      });
      if (typeof text !== 'string') return [];
      return (JSON.parse(text) as { clientState: { queries: { queryKey: unknown[]; state: { data?: unknown } }[] } }).clientState.queries;
    } finally {
      db.close();
    }
  });
}
