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
  // What the visitor saw on the home: these photos are what must be there offline, not just the model page's.
  const homePhotos = await page
    .locator('[data-testid="model-card"] img')
    .evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((img) => img.currentSrc).filter(Boolean));
  expect(homePhotos.length).toBeGreaterThan(0);
  await cards(page).first().click();
  await expect(page).toHaveURL(/\/es\/models\/\d+$/);
  // The model's own heading, not the home's still on screen while the route changes.
  const heading = page.locator('h1#model-name');
  await expect(heading).toBeVisible();
  const modelName = await heading.textContent();
  await imagesLoaded(page, 'main img');
  const modelUrl = page.url();

  // The worker kept what this very visit showed (the home's photos included, fetched before it existed): the page
  // hands it those URLs as soon as it exists and marks itself once the worker confirmed each (data-offline-kept).
  // Waiting for that — and for exactly what the visitor saw, the home's photos and the model's — is what a visitor
  // does by reading for a few seconds before losing the network; on a busy machine it may take longer.
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 30_000 }).toBe(true);
  await expect(page.locator('html[data-offline-kept]')).toHaveCount(1, { timeout: 30_000 });
  await expect
    .poll(
      () =>
        page.evaluate(async (home) => {
          const keys = await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys()));
          const urls = keys.flat().map((r) => new URL(r.url).pathname);
          const kept = new Set(keys.flat().map((r) => r.url));
          const shown = [...document.querySelectorAll<HTMLImageElement>('main img')].map((img) => img.currentSrc).filter(Boolean);
          return {
            listing: urls.includes('/api/models'),
            model: urls.includes(new URL(location.href).pathname.replace(/^\/es\/models\//, '/api/models/')),
            modelPhotos: shown.length > 0 && shown.every((u) => kept.has(u)),
            homePhotos: home.filter((u) => !kept.has(u)),
          };
        }, homePhotos),
      { timeout: 30_000 },
    )
    .toEqual({ listing: true, model: true, modelPhotos: true, homePhotos: [] });
  // The home came with its listing inside the page; the worker fetched it again to keep it. In a full run another spec
  // may change the catalogue in between (it did once): then the worker holds the newer listing, which is what shows
  // offline, and a photo of an ad that left the listing meanwhile is not expected back.
  const keptListing = await page.evaluate(async () => {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        if (new URL(request.url).pathname === '/api/models') return await (await cache.match(request))!.text();
      }
    }
    return '';
  });
  const keptTitles = (JSON.parse(keptListing) as { data: { title: string }[] }).data.slice(0, 3).map((ad) => ad.title);
  if (JSON.stringify(keptTitles) !== JSON.stringify(names)) console.warn('the catalogue changed during the visit', names, keptTitles);
  const photoDir = (u: string) => new URL(u).pathname.replace(/\/[^/]*$/, '/');
  const stillListed = homePhotos.filter((u) => keptListing.includes(photoDir(u)));
  expect(stillListed.length).toBeGreaterThan(0);

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
  expect(await cards(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('aria-label')))).toEqual(keptTitles);
  // Every photo the visitor saw on the home online shows again (a card further down whose lazy photo the visitor
  // never scrolled to was never fetched, so it cannot be there offline, nor is it asked of the worker). Chromium
  // starts lazy images at another distance offline than online: the photos are asked for as a scroll would.
  await page.locator('[data-testid="model-card"] img').evaluateAll((imgs) => {
    for (const img of imgs as HTMLImageElement[]) img.loading = 'eager';
  });
  await expect
    .poll(() =>
      page.locator('[data-testid="model-card"] img').evaluateAll((imgs, seen) => {
        // By photo, not size: a card may pick another size of the same photo from its srcset (the model page's
        // larger one, already in memory), which shows that photo all the same.
        const photo = (u: string) => u.replace(/\/[^/]*$/, '/');
        const loaded = new Set(
          (imgs as HTMLImageElement[]).filter((i) => i.complete && i.naturalWidth > 0).map((i) => photo(i.currentSrc)),
        );
        return seen.filter((u) => !loaded.has(photo(u)));
      }, stillListed),
    )
    .toEqual([]);
  await page.screenshot({ path: test.info().outputPath('offline-home.png') });

  await context.setOffline(false);
  await page.goto(modelUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(modelName!);
});
