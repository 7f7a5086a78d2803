/** Accessibility (axe-core): no serious or critical violation on the home and a legal page, in both schemes. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openHome, openLegal } from './helpers.ts';

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
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | undefined;
        const detail = data?.contrastRatio ? `${data.fgColor} on ${data.bgColor}: ${data.contrastRatio} (needs ${data.expectedContrastRatio})` : n.failureSummary;
        return `${n.target.join(' ')} — ${detail}`;
      }),
    }));
}

/*
 * FIXME(app bug): all four fail on axe's color-contrast rule (serious), WCAG 1.4.3 — see the report:
 * - Mantine's "dimmed" text (c="dimmed": header "Panel" link, home intro and empty-state text, legal "updated"
 *   line, every footer link, "Preferencias de cookies", the copyright line): #828282 on #242424 = 4.03:1 in
 *   dark, #868e96 on #ffffff = 3.32:1 in light; 4.5:1 needed.
 * - Section chips (src/features/listings/routes/home.tsx, Badge variant="light" with the seed hex colours):
 *   dark 2.57–4.36:1 (gays #7048e8 2.57, women 3.09, men 3.33, couples 3.88, trans 4.36); light 2.28–4.01:1
 *   (webcam #f08c00 2.28, trans 2.79, couples 3.16, men 3.7, women 4.01).
 * - Light scheme only: gold shade 8 (#ca8500) text on white = 3.05:1 — the "Vitrina" brand in the header and
 *   the banner's "Más información" link.
 * Remove the fixme once the colours pass; no rule is excluded here on purpose.
 */
for (const scheme of ['dark', 'light'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((s) => localStorage.setItem('theme', s), scheme);
    });

    test.fixme('home (with the cookie banner)', async ({ page }) => {
      await openHome(page, 'es');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect(page.getByTestId('cookie-banner')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test.fixme('legal page', async ({ page }) => {
      await page.addInitScript(() => localStorage.setItem('cookie-consent', 'rejected'));
      await openLegal(page, 'es', 'privacy-policy');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
