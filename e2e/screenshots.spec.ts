/** Screenshots for review (test-results/screenshots/) and the "no sideways scrolling at 360 px" rule. */
import { expect, test, type Page } from '@playwright/test';
import { openHome, openLegal } from './helpers.ts';

const dir = 'test-results/screenshots';

async function expectNoHorizontalOverflow(page: Page, width: number) {
  const overflow = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    // The elements that stick out, to make a failure readable.
    culprits: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')}`),
  }));
  expect(overflow.scrollWidth, `wider than ${width} px: ${overflow.culprits.join(', ')}`).toBeLessThanOrEqual(width);
}

test('home at 360×740 (first visit, with the cookie banner)', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openHome(page, 'es');
  await expect(page.getByTestId('cookie-banner')).toBeVisible();
  await expectNoHorizontalOverflow(page, 360);
  await page.screenshot({ path: `${dir}/home-360.png`, fullPage: true });
});

test('home at 360×740 after the cookie choice', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.addInitScript(() => localStorage.setItem('cookie-consent', 'rejected'));
  await openHome(page, 'es');
  await expectNoHorizontalOverflow(page, 360);
  await page.screenshot({ path: `${dir}/home-360-no-banner.png`, fullPage: true });
});

test('home at 1280×800', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openHome(page, 'es');
  await expectNoHorizontalOverflow(page, 1280);
  await page.screenshot({ path: `${dir}/home-1280.png`, fullPage: true });
});

test('legal page at 360×740', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.addInitScript(() => localStorage.setItem('cookie-consent', 'rejected'));
  await openLegal(page, 'es', 'terms-and-conditions-to-post');
  await expectNoHorizontalOverflow(page, 360);
  await page.screenshot({ path: `${dir}/legal-360.png`, fullPage: true });
});

test('German home at 360×740 (longest words)', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openHome(page, 'de');
  await expectNoHorizontalOverflow(page, 360);
  await page.screenshot({ path: `${dir}/home-de-360.png`, fullPage: true });
});
