/**
 * Advertisers' numbers (issue 28, point 5): a visitor sees a model's card in the listing, opens it, accepts analytics
 * cookies and taps "call"; the model's dashboard then shows that impression, open and call for this week. The server
 * writes its counts every AD_STATS_FLUSH_MS (500 ms for these specs: playwright.config.ts).
 *
 * A demo model no other spec touches (demo-model-23): in a parallel run other specs may show her card in their
 * listings, so impressions and opens are checked to have grown by at least one; the call, which nobody else taps, by
 * exactly one. That a page is counted once and not again when the browser hydrates it is proven in
 * server/modules/ad-stats/ad-stats.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import type { AdStats } from '#contract/ad-stats.ts';
import { API } from '#contract/routes.ts';
import { appReady, expectNoAxeViolations, submitLogin, tr } from './helpers.ts';

const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const MODEL_EMAIL = 'demo-model-23@vitrina.test';

async function numbersOf(page: Page): Promise<AdStats> {
  const res = await page.request.get(`${API.adStats}?weeks=2`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  expect(res.status()).toBe(200);
  const [ad] = ((await res.json()) as { data: AdStats[] }).data;
  expect(ad, 'the demo model has an ad').toBeDefined();
  return ad!;
}

test("a visitor's listing, open and consented call show in the model's dashboard this week", async ({ browser }) => {
  test.setTimeout(90_000);
  const modelContext = await browser.newContext();
  const model = await modelContext.newPage();
  await submitLogin(model, MODEL_EMAIL, DEMO_PASSWORD);
  await expect(model).toHaveURL(/\/es\/model\/dashboard/);
  const before = await numbersOf(model);
  const [thisWeek] = before.weeks;

  // The visitor: a search for her name lists her card; no cookie choice yet.
  const visitorContext = await browser.newContext();
  // Headless Chromium has no app for tel: links, and following one leaves the page unresponsive: the link's own
  // handlers run (the tap is reported by then, React listens below the document), then its navigation is stopped.
  await visitorContext.addInitScript(() => {
    document.addEventListener('click', (e) => {
      if ((e.target as Element | null)?.closest?.('a[href^="tel:"]')) e.preventDefault();
    });
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/es?search=${encodeURIComponent(before.model_name)}`);
  await appReady(visitor, 'es');
  const card = visitor.locator(`a[href="/es/models/${before.ad_id}"]`).first();
  await expect(card).toBeVisible();
  await card.click();
  await expect(visitor).toHaveURL(new RegExp(`/es/models/${before.ad_id}$`));
  await expect(visitor.getByRole('heading', { level: 1 })).toContainText(before.model_name);

  // Before consent a tap is not reported; after "accept analytics" it is, first-party.
  const taps: string[] = [];
  visitor.on('request', (r) => {
    if (r.url().includes(API.adContactTap)) taps.push(r.postData() ?? '');
  });
  const call = visitor.getByTestId('contact-bar').locator('a[href^="tel:"]');
  await call.click();
  await visitor.waitForTimeout(300);
  expect(taps).toEqual([]);
  await visitor.getByRole('button', { name: tr('es', 'cookies.accept') }).click();
  const sent = visitor.waitForResponse((r) => r.url().includes(API.adContactTap));
  await call.click();
  expect((await sent).status()).toBe(204);
  expect(JSON.parse(taps[0]!)).toEqual({ ad_id: before.ad_id, kind: 'call', consent: 'accepted' });

  // The model's dashboard: this week's numbers grew.
  await expect
    .poll(async () => {
      const now = (await numbersOf(model)).weeks[0]!;
      return now.calls - thisWeek!.calls === 1 && now.impressions > thisWeek!.impressions && now.opens > thisWeek!.opens;
    })
    .toBe(true);
  // A first visit's answers are fetched again by the service worker to keep them offline (src/lib/offline-warm-up.ts),
  // which the server does not count (no X-Locale): wait until that is done and the numbers stand still, then read
  // what the dashboard must show.
  await expect(visitor.locator('html')).toHaveAttribute('data-offline-kept', '', { timeout: 20_000 });
  let after = (await numbersOf(model)).weeks[0]!;
  await expect
    .poll(async () => {
      await model.waitForTimeout(1_200);
      const again = (await numbersOf(model)).weeks[0]!;
      const still = JSON.stringify(again) === JSON.stringify(after);
      after = again;
      return still;
    })
    .toBe(true);
  await model.goto('/es/model/dashboard');
  const panel = model.getByTestId('ad-stats-panel');
  await expect(panel.getByRole('heading', { level: 2, name: tr('es', 'adStats.title') })).toBeVisible();
  const adCard = panel.getByTestId('ad-stats-card').filter({ hasText: before.title });
  await expect(adCard.getByTestId('ad-stats-now-impressions')).toHaveText(String(after.impressions));
  await expect(adCard.getByTestId('ad-stats-now-opens')).toHaveText(String(after.opens));
  await expect(adCard.getByTestId('ad-stats-now-calls')).toHaveText(String(after.calls));

  // The weekly table on demand, as a phone shows it.
  await model.setViewportSize({ width: 360, height: 800 });
  const more = adCard.getByRole('button', { name: tr('es', 'adStats.showWeeks_other').replace('{{count}}', '8') });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  await expect(adCard.getByRole('button', { name: tr('es', 'adStats.hideWeeks') })).toHaveAttribute('aria-expanded', 'true');
  const weekly = adCard.getByRole('region', { name: tr('es', 'adStats.weeklyCaption_other').replace('{{count}}', '8') });
  await expect(weekly.getByRole('row')).toHaveCount(1 + 8 + 1);
  await expect(weekly.getByRole('rowheader', { name: tr('es', 'adStats.total') })).toBeVisible();
  await expectNoAxeViolations(model, 'model dashboard with the numbers', '[data-testid="ad-stats-panel"]');
  await model.screenshot({ path: test.info().outputPath('ad-stats-360.png'), fullPage: true });
  await adCard.screenshot({ path: test.info().outputPath('ad-stats-card-360.png') });
  // Nothing in the panel wider than the phone but the weekly table, which scrolls inside its own region.
  const box = await panel.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await model.setViewportSize({ width: 1280, height: 900 });
  await model.screenshot({ path: test.info().outputPath('ad-stats-desktop.png'), fullPage: true });

  await visitorContext.close();
  await modelContext.close();
});
