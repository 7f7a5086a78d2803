import { expect, test, type Page } from '@playwright/test';
import { appReady, presetConsent, tr } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

const cards = (page: Page) => page.getByTestId('model-card');
const settled = (page: Page) => expect(page.locator('section[aria-labelledby="results-title"]')).toHaveAttribute('aria-busy', 'false');

test('a misspelt search shows the corrected results, says so, and offers the words as typed', async ({ page }) => {
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  await appReady(page, 'es');
  const box = page.getByRole('searchbox', { name: tr('es', 'listings.search') });
  await box.fill('luica');
  await box.press('Enter');
  await expect(page).toHaveURL(/search=luica/);
  await settled(page);

  const note = page.getByTestId('search-correction');
  await expect(note).toContainText('Resultados para «lucía».');
  await expect(cards(page).first()).toBeVisible();
  await expect.poll(async () => (await cards(page).allInnerTexts()).every((t) => t.includes('Lucía'))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('corrected.png') });

  await page.getByRole('button', { name: 'Buscar «luica» en su lugar' }).click();
  await expect(page).toHaveURL(/search=luica&literal=1/);
  await settled(page);
  await expect(page.getByRole('heading', { name: tr('es', 'listings.noResultsTitle') })).toBeVisible();
  await expect(note).toHaveCount(0);

  // Back returns to the corrected results.
  await page.goBack();
  await expect(page).not.toHaveURL(/literal/);
  await expect(note).toBeVisible();
});

test('in English too', async ({ page }) => {
  await page.goto('/en?search=gihon');
  await expect(page.getByTestId('search-correction')).toContainText('Showing results for “gijón”.');
  await expect(page.getByRole('button', { name: 'Search for “gihon” instead' })).toBeVisible();
});
