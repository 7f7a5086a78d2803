import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { appReady, presetConsent, tr } from './helpers.ts';

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

const cards = (page: Page) => page.getByTestId('model-card');

async function serious(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('filter by city and section, then search, all reflected in the URL', async ({ page }) => {
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  // The cards are the server's: typing before the app has taken over the page may be lost.
  await appReady(page, 'es');

  const city = page.getByRole('textbox', { name: tr('es', 'listings.city') });
  await city.fill('Gij');
  await page.getByRole('option', { name: /Gijón/ }).click();
  await expect(page).toHaveURL(/city=\d+/);
  await page.locator('label', { hasText: 'Mujeres' }).click();
  await expect(page).toHaveURL(/section=women/);
  // The previous results stay on screen (dimmed) while the filtered ones load: wait until the list settles.
  await expect(page.locator('section[aria-labelledby="results-title"]')).toHaveAttribute('aria-busy', 'false');
  await expect(cards(page).first()).toBeVisible();
  await expect.poll(async () => (await cards(page).allInnerTexts()).every((t) => t.includes('Gijón') && t.includes('Mujeres'))).toBe(true);

  await page.goto('/es');
  // The last query is remembered locally and restored on a bare home.
  await expect(page).toHaveURL(/section=women/);
  await page.getByRole('button', { name: tr('es', 'listings.clearCity') }).click();
  await page.locator('label', { hasText: tr('es', 'listings.allSections') }).click();
  await page.getByRole('searchbox', { name: tr('es', 'listings.search') }).fill('ovideo');
  await page.getByRole('searchbox', { name: tr('es', 'listings.search') }).press('Enter');
  await expect(page).toHaveURL(/search=ovideo/);
  await expect(cards(page).first()).toContainText('Oviedo');
});

test('paginate, open a model, go back to the same page and filters', async ({ page }) => {
  await page.goto('/es?section=women');
  await expect(cards(page).first()).toBeVisible();
  const onPageOne = (await cards(page).first().getAttribute('aria-label'))!;
  await page.getByRole('button', { name: tr('es', 'listings.page.number').replace('{{page}}', '2') }).click();
  await expect(page).toHaveURL(/section=women.*page=2|page=2.*section=women/);
  // Page 1 stays on screen (dimmed) until page 2 arrives.
  await expect(cards(page).first()).not.toHaveAttribute('aria-label', onPageOne);
  const first = cards(page).first();
  await expect(first).toBeVisible();
  const label = (await first.getAttribute('aria-label'))!;
  await first.click();
  await expect(page).toHaveURL(/\/es\/models\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator('section[aria-busy="true"]')).toHaveCount(0);
  await expect(page).toHaveURL(/section=women/);
  await expect(cards(page).first()).toHaveAttribute('aria-label', label);
});

test('grid is the default, list view is remembered, and promoted placements say who paid', async ({ page }) => {
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  const promo = page.getByTestId('promo-card').first();
  await expect(promo).toContainText(tr('es', 'listings.advertising'));
  await expect(promo).toContainText(/Pagado por .+/);
  // The app has taken over the server-rendered page: a click on a label before that is not seen by anything.
  await appReady(page, 'es');
  await page.getByText(tr('es', 'listings.viewList')).click({ force: true });
  await page.reload();
  expect(await page.evaluate(() => localStorage.getItem('view'))).toBe('list');
});

test('an empty result offers a way out', async ({ page }) => {
  await page.goto('/es?search=zzzqqqxxyy');
  await expect(page.getByRole('heading', { name: tr('es', 'listings.noResultsTitle') })).toBeVisible();
  await page.getByRole('button', { name: tr('es', 'listings.clearFilters') }).click();
  await expect(cards(page).first()).toBeVisible();
});

test('no serious accessibility violation on the home listing and a model page', async ({ page }) => {
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  expect(await serious(page)).toEqual([]);
  await cards(page).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await serious(page)).toEqual([]);
});

test('the listing fits a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: 'test-results/screenshots/listing-360.png' });
});
