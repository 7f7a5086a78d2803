/** The shell: the home in the four languages, the language redirect of `/`, the 404, the context-menu rule and the PWA bits. */
import { expect, test } from '@playwright/test';
import { HTML_LANG, LANGUAGES, openHome, presetConsent, SECTION_NAMES, sectionChips, titleOf, tr } from './helpers.ts';

test.describe('home in every language', () => {
  for (const lng of LANGUAGES) {
    test(`/${lng} renders title, heading, <html lang> and the section names`, async ({ page }) => {
      await presetConsent(page);
      await openHome(page, lng);
      await expect(page).toHaveTitle(titleOf(tr(lng, 'pages.home')));
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[lng]);
      await expect(sectionChips(page, lng)).toHaveText([tr(lng, 'listings.allSections'), ...SECTION_NAMES[lng]]);
    });
  }
});

test.describe('/ redirects to a language', () => {
  test.describe('browser in German', () => {
    test.use({ locale: 'de-DE' });
    test('goes to /de', async ({ page }) => {
      await page.goto('/');
      await expect(page).toHaveURL(/\/de$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('de', 'home.heading'));
    });
  });

  test('the lang cookie wins: lang=pt_BR goes to /pt_BR', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'lang', value: 'pt_BR', url: baseURL! }]);
    await page.goto('/');
    await expect(page).toHaveURL(/\/pt_BR$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('pt_BR', 'home.heading'));
  });
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await presetConsent(page);
  await page.goto('/es/does-not-exist');
  await expect(page.getByRole('heading', { level: 1, name: tr('es', 'notFound.title') })).toBeVisible();
  await expect(page).toHaveTitle(titleOf(tr('es', 'pages.notFound')));
  await expect(page).toHaveURL(/\/es\/does-not-exist$/);
  await page.getByRole('link', { name: tr('es', 'common.backHome') }).click();
  await expect(page).toHaveURL(/\/es$/);
});

test('an unknown legal page shows the 404 page', async ({ page }) => {
  await presetConsent(page);
  await page.goto('/en/legal/no-such-document');
  await expect(page.getByRole('heading', { level: 1, name: tr('en', 'notFound.title') })).toBeVisible();
  await expect(page).toHaveTitle(titleOf(tr('en', 'pages.notFound')));
});

test('the context menu is disabled, except in form fields', async ({ page }) => {
  await presetConsent(page);
  await openHome(page, 'es');
  await page.evaluate(() => {
    // Bubble-phase listener on window: runs after the app's listener on document.
    window.addEventListener('contextmenu', (e) => {
      (window as unknown as { lastContextMenu: boolean }).lastContextMenu = e.defaultPrevented;
    });
    const input = document.createElement('input');
    input.setAttribute('aria-label', 'e2e field');
    input.style.cssText = 'position:fixed;top:80px;left:8px;z-index:2000';
    document.body.append(input);
  });
  const lastContextMenu = () => page.evaluate(() => (window as unknown as { lastContextMenu?: boolean }).lastContextMenu);

  await page.getByRole('heading', { level: 1 }).click({ button: 'right' });
  expect(await lastContextMenu()).toBe(true);

  await page.getByRole('textbox', { name: 'e2e field' }).click({ button: 'right' });
  expect(await lastContextMenu()).toBe(false);
});

test('the web app manifest is served and a service worker registers', async ({ page, request }) => {
  await presetConsent(page);
  await openHome(page, 'es');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');

  const res = await request.get(href!);
  expect(res.ok()).toBe(true);
  const manifest = (await res.json()) as { name?: string; icons?: unknown[] };
  expect(manifest.name).toBe('Vitrina');
  expect(manifest.icons?.length).toBeGreaterThan(0);

  const scope = await page.evaluate(() =>
    Promise.race([
      navigator.serviceWorker.ready.then((reg) => reg.scope),
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error('service worker not ready after 10 s')), 10_000)),
    ]),
  );
  expect(scope).toBe(new URL('/', page.url()).href);
});
