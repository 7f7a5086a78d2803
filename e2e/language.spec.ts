/** The language switcher keeps the page (path and query), changes the texts and remembers the choice in the `lang` cookie. */
import { expect, test, type Page } from '@playwright/test';
import {
  HTML_LANG,
  LANGUAGE_NAMES,
  legalTitle,
  openHome,
  openLegal,
  presetConsent,
  SECTION_NAMES,
  sectionChips,
  titleOf,
  tr,
  type Lng,
} from './helpers.ts';

async function switchLanguage(page: Page, from: Lng, to: Lng) {
  await page.getByRole('button', { name: tr(from, 'nav.language') }).click();
  await page.getByRole('menuitem', { name: LANGUAGE_NAMES[to] }).click();
}

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

test('on a legal page, Deutsch opens the same page in German', async ({ page, context }) => {
  await openLegal(page, 'es', 'privacy-policy');
  await expect(page).toHaveTitle(titleOf(tr('es', 'pages.privacyPolicy')));

  await switchLanguage(page, 'es', 'de');
  await expect(page).toHaveURL(/\/de\/legal\/privacy-policy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(legalTitle('privacy-policy', 'de'));
  await expect(page).toHaveTitle(/ · Vitrina$/);
  await expect(page).toHaveTitle(titleOf(tr('de', 'pages.privacyPolicy')));
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // The header and footer follow too.
  await expect(page.getByRole('button', { name: tr('de', 'nav.language') })).toBeVisible();
  await expect(page.locator('footer').getByRole('link', { name: tr('de', 'pages.cookiesPolicy') })).toBeVisible();

  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('de');
});

test('from the home, the switch keeps the query string and changes the section names', async ({ page, context }) => {
  await openHome(page, 'es', '?q=madrid&page=2');
  await switchLanguage(page, 'es', 'pt_BR');
  await expect(page).toHaveURL(/\/pt_BR\?q=madrid&page=2$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('pt_BR', 'home.heading'));
  await expect(page).toHaveTitle(titleOf(tr('pt_BR', 'pages.home')));
  await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG.pt_BR);
  await expect(sectionChips(page, 'pt_BR')).toHaveText([tr('pt_BR', 'listings.allSections'), ...SECTION_NAMES.pt_BR]);
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('pt_BR');

  await switchLanguage(page, 'pt_BR', 'en');
  await expect(page).toHaveURL(/\/en\?q=madrid&page=2$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('en', 'home.heading'));
});

test('the chosen language is remembered: / goes back to it', async ({ page, context }) => {
  await openHome(page, 'es');
  await switchLanguage(page, 'es', 'de');
  await expect(page).toHaveURL(/\/de$/);
  // Stored by the click itself, before the URL changed: no waiting. (It used to be stored only once the German
  // page had rendered, so a "/" typed right away could still find Spanish in the cookie.)
  expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('de');
  await page.goto('/');
  await expect(page).toHaveURL(/\/de$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('de', 'home.heading'));
});
