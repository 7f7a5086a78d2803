/**
 * Offline browsing: what a visitor has seen (the home listing, a model's page and its photos) is kept by the
 * service worker and shows again after a reload without a connection, with the offline notice.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { appReady, presetConsent, tr } from './helpers.ts';

const cards = (page: Page) => page.getByTestId('model-card');

/** True once every <img> in `scope` that the browser has started has finished with real pixels. */
async function imagesLoaded(page: Page, selector: string) {
  await expect
    .poll(() =>
      page.locator(selector).evaluateAll((imgs) => {
        const started = (imgs as HTMLImageElement[]).filter((img) => img.currentSrc);
        return started.length > 0 && started.every((img) => img.complete && img.naturalWidth > 0);
      }),
    )
    .toBe(true);
}

/**
 * Chromium 150 under Playwright 1.65 forgets the offline emulation for the document a reload or a navigation brings
 * (navigator.onLine is true again while requests still fail): switching it off and on again tells the new document.
 */
async function offlineAgain(context: BrowserContext) {
  await context.setOffline(false);
  await context.setOffline(true);
}

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

test('a visitor who browsed can reload the listing and a model page offline', async ({ page, context }) => {
  await page.goto('/es');
  // The first visit installs the worker (which then controls this page too); a reload starts from it.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

  // Browse online: the listing, then a model (its answer, gallery and photos go through the worker).
  await expect(cards(page).first()).toBeVisible();
  const names = await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')));
  // Read for a moment: the app has taken over the page (a card followed sooner is covered in first-visit.spec.ts).
  await appReady(page, 'es');
  await cards(page).first().click();
  await expect(page).toHaveURL(/\/es\/models\/\d+$/);
  // The model's own heading, not the home's still on screen while the route changes.
  const heading = page.locator('h1#model-name');
  await expect(heading).toBeVisible();
  const modelName = await heading.textContent();
  await imagesLoaded(page, 'main img');
  const modelUrl = page.url();
  await expect(page.getByTestId('offline-notice')).toBeEmpty();
  // The worker stores a photo after handing it to the page: wait until every photo shown is in its cache, or an
  // offline reload right away can race the write.
  await expect
    .poll(() =>
      page.locator('main img').evaluateAll(async (imgs) => {
        const urls = (imgs as HTMLImageElement[]).map((img) => img.currentSrc).filter(Boolean);
        const found = await Promise.all(urls.map((url) => caches.match(url)));
        return urls.length > 0 && found.every(Boolean);
      }),
    )
    .toBe(true);

  await context.setOffline(true);

  // The model page, reloaded without a network: shell, answer and photos come from the worker.
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(modelName!);
  await imagesLoaded(page, 'main img');
  await offlineAgain(context);
  await expect(page.getByTestId('offline-notice')).toHaveText(tr('es', 'common.offline'));

  // Back to the listing, still offline: the same cards as before.
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  expect(await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')))).toEqual(names);
  await offlineAgain(context);
  await expect(page.getByTestId('offline-notice')).toHaveText(tr('es', 'common.offline'));

  // Back online, the notice goes away.
  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toBeEmpty();
  await page.goto(modelUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(modelName!);
});

test('what a first visit showed (the home, one model) is there offline, without a second visit', async ({ page, context }) => {
  // One visit, as a new visitor makes it: the home, then a model, without ever reloading.
  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  await imagesLoaded(page, '[data-testid="model-card"] img');
  const names = await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')));
  await cards(page).first().click();
  await expect(page).toHaveURL(/\/es\/models\/\d+$/);
  // The model's own heading, not the home's still on screen while the route changes.
  const heading = page.locator('h1#model-name');
  await expect(heading).toBeVisible();
  const modelName = await heading.textContent();
  await imagesLoaded(page, 'main img');
  const modelUrl = page.url();

  // The worker took over this very visit and kept what it showed (the home's photos included, fetched before it
  // existed). Waiting for the cache is what a visitor does by reading for a few seconds before losing the network.
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 15_000 }).toBe(true);
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const keys = await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys()));
          const urls = keys.flat().map((r) => new URL(r.url).pathname);
          const kept = new Set(keys.flat().map((r) => r.url));
          // Every photo this page shows, not just any: the home's may be kept before the model's.
          const shown = [...document.querySelectorAll<HTMLImageElement>('main img')].map((img) => img.currentSrc).filter(Boolean);
          return {
            listing: urls.includes('/api/models'),
            model: urls.includes(new URL(location.href).pathname.replace(/^\/es\/models\//, '/api/models/')),
            photos: urls.some((u) => u.startsWith('/media/')) && shown.length > 0 && shown.every((u) => kept.has(u)),
          };
        }),
      { timeout: 15_000 },
    )
    .toEqual({ listing: true, model: true, photos: true });

  await context.setOffline(true);

  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(modelName!);
  await expect(page.getByText(tr('es', 'model.loadError'))).toHaveCount(0);
  await imagesLoaded(page, 'main img');
  await offlineAgain(context);
  await expect(page.getByTestId('offline-notice')).toHaveText(tr('es', 'common.offline'));
  await page.screenshot({ path: test.info().outputPath('offline-model.png') });

  await page.goto('/es');
  await expect(cards(page).first()).toBeVisible();
  expect(await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')))).toEqual(names);
  await imagesLoaded(page, '[data-testid="model-card"] img');
  await page.screenshot({ path: test.info().outputPath('offline-home.png') });

  await context.setOffline(false);
  await page.goto(modelUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(modelName!);
});
