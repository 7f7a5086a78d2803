/**
 * Issue 16 point 1: a model's page shows a small map of her city as an area of about 2 km around the city's centre,
 * the city and province named beside it; the map loads below the gallery without moving the page, from the embedded
 * base map (no third-party request), is reachable and usable by keyboard, axe-clean, and whole on a 360 px phone in
 * both themes.
 *
 * Visitors only (no account): nothing here changes data.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { ModelDetail, ModelList } from '../contract/listings.ts';
import { appReady, expectNoAxeViolations, presetConsent, tr } from './helpers.ts';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

/** A listed ad and its detail as the API gives it. */
async function someModel(page: Page): Promise<ModelDetail> {
  const list = (await (await page.request.get('/api/models?per_page=1', { headers: XHR })).json()) as ModelList;
  const id = list.data[0]!.id;
  return ((await (await page.request.get(`/api/models/${id}`, { headers: XHR })).json()) as { data: ModelDetail }).data;
}

const areaSection = (page: Page) => page.getByRole('region', { name: tr('es', 'model.area.title'), exact: true });
const areaMap = (page: Page, city: string) => page.getByRole('region', { name: fill(tr('es', 'model.area.mapLabel'), { city }) });

/** Opens the model's page and scrolls to the area map, waiting until the base map and the area are drawn. */
async function openArea(page: Page, model: ModelDetail) {
  await page.goto(`/es/models/${model.id}`);
  await appReady(page, 'es');
  return openAreaHere(page, model);
}

/** On the model's page already: scrolls to the area map and waits until the base map and the area are drawn. */
async function openAreaHere(page: Page, model: ModelDetail) {
  await expect(page.getByRole('heading', { level: 1, name: model.name })).toBeVisible();
  await areaSection(page).scrollIntoViewIfNeeded();
  const map = areaMap(page, model.city.name);
  await expect(map).toBeVisible();
  // Land, neighbours and province lines, and the area's circle.
  await expect(map.locator('.leaflet-base-pane path').first()).toBeAttached();
  await expect(map.locator('.leaflet-overlay-pane path')).toHaveCount(1);
  return map;
}

/** Chromium under Playwright forgets the offline emulation for a reloaded document (see e2e/offline.spec.ts). */
async function offlineAgain(context: BrowserContext) {
  await context.setOffline(false);
  await context.setOffline(true);
}

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

test('the model page shows her city as an area, named with its province, from the embedded base map only', async ({ page }) => {
  const model = await someModel(page);
  // The coordinates the browser gets are the city's, rounded: nothing finer than 2 decimals.
  for (const v of [model.city.latitude!, model.city.longitude!]) expect(Math.round(v * 100) / 100).toBe(v);

  const foreign: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol.startsWith('http') && url.host !== new URL(page.url() || 'http://x').host && !url.host.startsWith('localhost'))
      foreign.push(req.url());
  });
  // Layout shifts of anything in or after the area section (the map's place is reserved: nothing may move).
  await page.addInitScript(() => {
    const w = window as unknown as { areaShifts: number };
    w.areaShifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources?: Array<{ node?: Node }> }>) {
        const area = document.querySelector('[data-testid="model-area"]');
        if (area && entry.sources?.some((s) => s.node && (area.contains(s.node) || area.compareDocumentPosition(s.node) & 4)))
          w.areaShifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const map = await openArea(page, model);
  expect(await page.evaluate(() => (window as unknown as { areaShifts: number }).areaShifts)).toBe(0);
  const section = areaSection(page);
  await expect(section.getByText(`${model.city.name}, ${model.state}`, { exact: true })).toBeVisible();
  await expect(section.getByText(fill(tr('es', 'model.area.note'), { city: model.city.name }))).toBeVisible();
  await expect(map.getByText(tr('es', 'map.attribution'))).toBeVisible();

  // About 2 km around the centre: at the closest zoom allowed (13) the circle is 4 km wide in Web Mercator pixels.
  const zoomIn = map.getByRole('button', { name: tr('es', 'map.zoomIn') });
  // Up to 15 presses for the few levels: a press made while the previous zoom is still animating is ignored by the map,
  // and under load the animation's class can appear after the wait below has already seen none.
  for (let i = 0; i < 15 && !(await zoomIn.getAttribute('class'))?.includes('leaflet-disabled'); i++) {
    await zoomIn.click();
    await page.waitForTimeout(150);
    await page.waitForFunction(() => !document.querySelector('.leaflet-zoom-anim'));
  }
  await expect(zoomIn).toHaveClass(/leaflet-disabled/);
  const metresPerPixel = (156543.03392 * Math.cos((model.city.latitude! * Math.PI) / 180)) / 2 ** 13;
  await expect
    .poll(async () => (await map.locator('.leaflet-overlay-pane path').boundingBox())!.width / (4000 / metresPerPixel))
    .toBeGreaterThan(0.9);
  const circle = (await map.locator('.leaflet-overlay-pane path').boundingBox())!;
  expect(circle.width / (4000 / metresPerPixel)).toBeLessThan(1.1);
  expect(foreign).toEqual([]);
});

test('the map is reachable and usable by keyboard, and axe finds nothing', async ({ page }) => {
  const model = await someModel(page);
  const map = await openArea(page, model);
  const zoomIn = map.getByRole('button', { name: tr('es', 'map.zoomIn') });
  const zoomOut = map.getByRole('button', { name: tr('es', 'map.zoomOut') });
  await expect(zoomIn).toBeVisible();
  await expect(zoomOut).toBeVisible();

  // Tab through the page reaches the map, then its zoom buttons.
  const mapLabel = fill(tr('es', 'model.area.mapLabel'), { city: model.city.name });
  const order: string[] = [];
  for (let i = 0; i < 80 && !order.includes(tr('es', 'map.zoomOut')); i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''));
  }
  const at = order.indexOf(mapLabel);
  expect(at, JSON.stringify(order)).toBeGreaterThanOrEqual(0);
  expect(order.slice(at, at + 3)).toEqual([mapLabel, tr('es', 'map.zoomIn'), tr('es', 'map.zoomOut')]);

  // On the focused map the arrow keys pan it and − zooms out (Leaflet's keyboard handler).
  await map.focus();
  await expect(map).toBeFocused();
  const outline = await map.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  const pane = map.locator('.leaflet-map-pane');
  const before = await pane.evaluate((el) => el.style.transform);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => pane.evaluate((el) => el.style.transform)).not.toBe(before);
  await page.keyboard.press('-');
  await expect(zoomIn).not.toHaveClass(/leaflet-disabled/);

  await expectNoAxeViolations(page, 'model page with its area map');
});

test('works on a 360 px phone, in the dark theme too', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  const model = await someModel(page);
  const map = await openArea(page, model);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const box = await map.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // The land is drawn in the dark theme's colours, not Leaflet's default blue.
  const fillColour = await map
    .locator('.leaflet-base-pane path')
    .last()
    .evaluate((el) => getComputedStyle(el).fill);
  expect(fillColour).not.toBe('rgb(51, 136, 255)');
  await areaSection(page).screenshot({ path: testInfo.outputPath('model-area-dark-360.png') });
  await expectNoAxeViolations(page, 'model page, 360 px, dark');
});

test('the area map works offline after one visit that never showed it: map code and base map are precached', async ({ page, context }) => {
  const model = await someModel(page);
  // One visit to the model's page, without scrolling to the map (its code and base map are never asked for online).
  await page.goto(`/es/models/${model.id}`);
  await appReady(page, 'es');
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 15_000 }).toBe(true);
  await expect
    .poll(
      () =>
        page.evaluate(async (id) => {
          const keys = await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys()));
          const paths = keys.flat().map((r) => new URL(r.url).pathname);
          return {
            model: paths.includes(`/api/models/${id}`),
            baseMap: paths.some((p) => /^\/assets\/base-map-es-[\w-]+\.json$/.test(p)),
            mapCode: paths.some((p) => /^\/assets\/map-view-[\w-]+\.js$/.test(p)),
          };
        }, model.id),
      { timeout: 15_000 },
    )
    .toEqual({ model: true, baseMap: true, mapCode: true });

  await context.setOffline(true);
  await page.reload();
  await offlineAgain(context);
  await expect(page.getByTestId('offline-notice')).toHaveText(tr('es', 'common.offline'));
  // The base map's paths and the area's circle drawn (openAreaHere), and no "could not be loaded" in the description.
  const map = await openAreaHere(page, model);
  const description = await map.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
  expect(description).toContain(tr('es', 'map.keyboardHelp'));
  expect(description).not.toContain(tr('es', 'map.baseMapUnavailable'));
});
