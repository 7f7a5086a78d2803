/** Accessibility (axe-core): no serious or critical violation on the home and a legal page, in both schemes. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openHome, openLegal, presetConsent } from './helpers.ts';

async function seriousViolations(page: Page) {
  // axe's default rule set (WCAG 2.x A/AA and best practices); nothing is disabled.
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => {
        // color-contrast says which colours and ratio it measured; other rules say what is wrong.
        const data = n.any[0]?.data as
          { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | undefined;
        const detail = data?.contrastRatio
          ? `${data.fgColor} on ${data.bgColor}: ${data.contrastRatio} (needs ${data.expectedContrastRatio})`
          : n.failureSummary;
        return `${n.target.join(' ')} — ${detail}`;
      }),
    }));
}

/*
 * No rule is excluded on purpose: contrast, landmarks and names must all pass.
 */
for (const scheme of ['dark', 'light'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((s) => localStorage.setItem('theme', s), scheme);
    });

    test('home (with the cookie banner)', async ({ page }) => {
      await openHome(page, 'es');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect(page.getByTestId('cookie-banner')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('legal page', async ({ page }) => {
      await page.addInitScript(() => localStorage.setItem('cookie-consent', 'rejected'));
      await openLegal(page, 'es', 'privacy-policy');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

// After a move to another page the focus is on the new page's heading, so a screen reader announces it and Tab goes on
// from there; a change of the query (the search box) leaves the focus where the visitor is typing.
test('keyboard: following a card puts the focus on the model page’s heading; searching keeps it in the box', async ({ page }) => {
  await presetConsent(page);
  await openHome(page, 'es');
  const search = page.getByRole('searchbox').or(page.locator('main input[type="search"]')).first();
  await search.focus();
  await page.keyboard.type('lucia');
  await expect(page).toHaveURL(/search=lucia/);
  await expect(search).toBeFocused();
  const card = page.getByTestId('model-card').first();
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/es\/models\/\d+/);
  const heading = page.locator('main h1');
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await page.goBack();
  await expect(page.getByTestId('model-card').first()).toBeVisible();
  await expect(page.locator('main h1')).toBeFocused();
});
