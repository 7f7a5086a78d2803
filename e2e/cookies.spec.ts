/**
 * Cookie consent: page views (POST /api/analytics/pageview) leave the browser only after "Aceptar analítica",
 * never before a choice nor after "Rechazar"; "Preferencias de cookies" shows the choice and asks again (closing keeps
 * it); Reject weighs as much as Accept; the banner is compact at 360 px.
 */
import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';
import { appReady, legalTitle, openHome, tr, type LegalSlug } from './helpers.ts';

const PAGEVIEW = '/api/analytics/pageview';

/** Every page-view request of the context (page and service worker alike). */
function recordPageViews(context: BrowserContext): Request[] {
  const seen: Request[] = [];
  context.on('request', (req) => {
    if (new URL(req.url()).pathname === PAGEVIEW) seen.push(req);
  });
  return seen;
}

const banner = (page: Page) => page.getByTestId('cookie-banner');
const rejectButton = (page: Page) => banner(page).getByRole('button', { name: tr('es', 'cookies.reject') });
const acceptButton = (page: Page) => banner(page).getByRole('button', { name: tr('es', 'cookies.accept') });

async function followFooterLink(page: Page, slug: LegalSlug, key: string) {
  await page
    .locator('footer')
    .getByRole('link', { name: tr('es', key), exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/es/legal/${slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: legalTitle(slug, 'es') })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test('no page view before a choice, nor after "Rechazar"', async ({ page, context }) => {
  const views = recordPageViews(context);
  await openHome(page, 'es');
  await expect(banner(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(views).toHaveLength(0);

  await rejectButton(page).click();
  await expect(banner(page)).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('cookie-consent'))).toBe('rejected');

  await followFooterLink(page, 'privacy-policy', 'pages.privacyPolicy');
  await followFooterLink(page, 'terms-and-conditions', 'pages.termsAndConditions');
  // A full load too: the refusal is remembered and the banner stays away.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: legalTitle('terms-and-conditions', 'es') })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(banner(page)).toBeHidden();
  expect(views).toHaveLength(0);
});

test('after "Aceptar analítica" every page view is sent, without the query string', async ({ page, context }) => {
  const views = recordPageViews(context);
  await openHome(page, 'es', '?q=secret&sort=new');
  await expect(banner(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(views).toHaveLength(0);

  const first = page.waitForResponse((res) => new URL(res.url()).pathname === PAGEVIEW);
  await acceptButton(page).click();
  await expect(banner(page)).toBeHidden();
  const firstResponse = await first;
  expect(firstResponse.status()).toBe(204);
  expect(firstResponse.request().method()).toBe('POST');
  expect(firstResponse.request().postDataJSON()).toMatchObject({ path: '/es' });

  const second = page.waitForResponse(
    (res) =>
      new URL(res.url()).pathname === PAGEVIEW &&
      (res.request().postDataJSON() as { path?: string } | null)?.path === '/es/legal/cookies-policy',
  );
  await followFooterLink(page, 'cookies-policy', 'pages.cookiesPolicy');
  expect((await second).status()).toBe(204);

  expect(views.map((r) => (r.postDataJSON() as { path: string }).path)).toEqual(['/es', '/es/legal/cookies-policy']);
  for (const r of views) expect((r.postDataJSON() as { path: string }).path).not.toContain('?');
});

test('"Preferencias de cookies" shows the current choice, closing keeps it, and a new choice replaces it', async ({ page, context }) => {
  const views = recordPageViews(context);
  await openHome(page, 'es');
  await acceptButton(page).click();
  await expect(banner(page)).toBeHidden();
  await expect.poll(() => views.length).toBe(1);

  const manage = page.locator('footer').getByRole('button', { name: tr('es', 'cookies.manage') });
  await manage.click();
  await expect(banner(page)).toBeVisible();
  // The choice stays in force while the preferences are open, and they say what it is.
  await expect(banner(page).getByTestId('cookie-current-choice')).toHaveText(tr('es', 'cookies.current.accepted'));
  await expect(acceptButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(rejectButton(page)).toHaveAttribute('aria-pressed', 'false');
  expect(await page.evaluate(() => localStorage.getItem('cookie-consent'))).toBe('accepted');

  // Closed without choosing: nothing forgotten, the banner does not come back on the next load.
  await banner(page)
    .getByRole('button', { name: tr('es', 'cookies.keep') })
    .click();
  await expect(banner(page)).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('cookie-consent'))).toBe('accepted');
  await page.reload();
  await appReady(page, 'es');
  await expect(banner(page)).toBeHidden();

  // A new choice replaces it: nothing is counted after "Rechazar".
  await manage.click();
  await rejectButton(page).click();
  await expect(banner(page)).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('cookie-consent'))).toBe('rejected');
  const counted = views.length;
  await followFooterLink(page, 'privacy-policy', 'pages.privacyPolicy');
  expect(views).toHaveLength(counted);
  await manage.click();
  await expect(banner(page).getByTestId('cookie-current-choice')).toHaveText(tr('es', 'cookies.current.rejected'));
  await expect(rejectButton(page)).toHaveAttribute('aria-pressed', 'true');
});

for (const lng of ['es', 'de'] as const) {
  test(`the banner is compact at 360 px (${lng}): a short paragraph and one row of buttons`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openHome(page, lng);
    const box = (await banner(page).boundingBox())!;
    // It took about 35 % of the screen (heading, long text, stacked buttons).
    expect(box.height, `${box.height}px of 740`).toBeLessThanOrEqual(740 * 0.2);
    const reject = (await banner(page)
      .getByRole('button', { name: tr(lng, 'cookies.reject') })
      .boundingBox())!;
    const accept = (await banner(page)
      .getByRole('button', { name: tr(lng, 'cookies.accept') })
      .boundingBox())!;
    expect(Math.abs(reject.y - accept.y)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: testInfo.outputPath(`cookie-banner-${lng}-360.png`) });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: testInfo.outputPath(`cookie-banner-${lng}-1280.png`) });
  });
}

for (const width of [360, 1280]) {
  test(`"Rechazar" is as prominent as "Aceptar analítica" at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await openHome(page, 'es');
    const reject = await rejectButton(page).boundingBox();
    const accept = await acceptButton(page).boundingBox();
    expect(reject && accept).toBeTruthy();
    expect(Math.abs(reject!.width - accept!.width)).toBeLessThanOrEqual(2);
    expect(Math.abs(reject!.height - accept!.height)).toBeLessThanOrEqual(2);
    // Same look, too: neither is the highlighted default.
    const style = (el: Element) => {
      const s = getComputedStyle(el);
      return [s.backgroundColor, s.color, s.borderColor, s.fontWeight, s.fontSize].join('|');
    };
    expect(await rejectButton(page).evaluate(style)).toBe(await acceptButton(page).evaluate(style));
  });
}

test('the footer links stay reachable while the cookie banner is shown', async ({ page }) => {
  await openHome(page, 'es');
  await expect(banner(page)).toBeVisible();
  for (const key of ['pages.privacyPolicy', 'pages.termsAndConditions']) {
    // trial: only checks the link could receive the click (nothing on top of it).
    await page
      .locator('footer')
      .getByRole('link', { name: tr('es', key), exact: true })
      .click({ trial: true, timeout: 2_000 });
  }
});

for (const lng of ['es', 'de'] as const) {
  test(`the banner's button labels fit at 360 px (${lng})`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openHome(page, lng);
    for (const key of ['cookies.reject', 'cookies.accept']) {
      const button = page.getByTestId('cookie-banner').getByRole('button', { name: tr(lng, key) });
      const clipped = await button.evaluate((el) => {
        const label = el.querySelector('.mantine-Button-label') ?? el;
        return label.scrollWidth > label.clientWidth + 1;
      });
      expect(clipped, `"${tr(lng, key)}" is cut off`).toBe(false);
    }
  });
}
