/**
 * Issue 16 point 2: the home's map view. The switch's third option shows the listing's matches counted per city, one
 * marker per city with its count and the same cities as a list; choosing a city (its marker by pointer or keyboard,
 * or its link) opens the listing of that city, Back returns to the map; the view survives a reload and the map view
 * works offline after one online visit. axe-clean, whole on a 360 px phone in both themes.
 *
 * Visitors only (no account): nothing here changes data.
 */
import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { appReady, expectNoAxeViolations, offlineAgain, openHome, presetConsent, savedQueries, tr } from './helpers.ts';

// The service worker's own requests follow setOffline only with this (Playwright ≥ 1.65 has it on by default).
process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS ??= '1';

const mapRegion = (page: Page) => page.getByRole('region', { name: tr('es', 'listings.map.region') });
/** The city markers: buttons named "City (State): N anuncio(s)" (the zoom buttons are named otherwise). */
const markers = (page: Page) => mapRegion(page).getByRole('button', { name: /\): \d+ anuncios?$/ });
const cityList = (page: Page) => page.getByRole('navigation', { name: tr('es', 'listings.map.citiesTitle') });
const cityLinks = (page: Page) => cityList(page).getByRole('link');
const cards = (page: Page) => page.getByTestId('model-card');

const countOf = (label: string) => Number(/: (\d+) anuncios?$/.exec(label)![1]);
const nameOf = (label: string) => label.slice(0, label.indexOf(' ('));
const countText = (count: number) =>
  tr('es', count === 1 ? 'listings.count_one' : 'listings.count_other').replace('{{count}}', String(count));

async function labels(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
}

/** Markers that stand for several cities too close to tell apart at this zoom ("3 ciudades cercanas, 83 anuncios: …"). */
const groupLabel = /^(\d+) ciudades cercanas, (\d+) anuncios?: /;
const groups = (page: Page) => mapRegion(page).getByRole('button', { name: groupLabel });

/**
 * Waits until the map shows its markers and the list its cities: every city the map names on its own is in the list,
 * and with the groups' cities and ads counted in, the map stands for exactly the list's cities and ads.
 */
async function mapShown(page: Page) {
  await expect(mapRegion(page)).toBeVisible();
  await expect(markers(page).first()).toBeVisible();
  await expect(page.locator('[data-testid="listing-map"][aria-busy="true"]')).toHaveCount(0);
  const listed = await labels(cityLinks(page));
  const ads = (ls: string[]) => ls.reduce((n, l) => n + countOf(l), 0);
  // Polled: the markers are drawn again as the map fits itself to the results.
  const seen = async () => {
    const onMap = await labels(markers(page));
    const grouped = (await labels(groups(page))).map((l) => groupLabel.exec(l)!.slice(1).map(Number));
    return {
      unlisted: onMap.filter((l) => !listed.includes(l)),
      cities: onMap.length + grouped.reduce((n, [cities]) => n + cities!, 0),
      ads: ads(onMap) + grouped.reduce((n, [, count]) => n + count!, 0),
    };
  };
  await expect.poll(seen).toEqual({ unlisted: [], cities: listed.length, ads: ads(listed) });
  // And settled: the map may still be fitting itself to the results (the markers are drawn again at each zoom).
  let before = '';
  await expect
    .poll(async () => {
      const now = JSON.stringify([await labels(markers(page)), await labels(groups(page))]);
      const settled = now === before && (await mapRegion(page).locator('.leaflet-zoom-anim').count()) === 0;
      before = now;
      return settled;
    })
    .toBe(true);
  await expect.poll(seen).toEqual({ unlisted: [], cities: listed.length, ads: ads(listed) });
  const onMap = await labels(markers(page));
  expect(listed.length).toBeGreaterThan(1);
  return onMap;
}

async function switchToMap(page: Page) {
  // The radios are drawn as a segmented control: its label is what a pointer clicks.
  await page.getByText(tr('es', 'listings.viewMap'), { exact: true }).click({ force: true });
  await expect(page).toHaveURL(/[?&]view=map/);
}

/** The listing of the city named `label` is shown: URL, count and cards. */
async function listingOf(page: Page, label: string, cityId: string) {
  await expect(page).toHaveURL(new RegExp(`[?&]city=${cityId}(&|$)`));
  await expect(page).toHaveURL(/[?&]view=grid/);
  await expect(mapRegion(page)).toHaveCount(0);
  await expect(page.locator('section[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByText(countText(countOf(label)), { exact: true })).toBeVisible();
  await expect(cards(page).first()).toBeVisible();
  const cities = await cards(page).evaluateAll((els) => els.map((el) => el.textContent ?? ''));
  for (const text of cities) expect(text).toContain(nameOf(label));
}

/** The city id in the list link named `label` (markers carry no URL; the list's links do). */
async function cityIdOf(page: Page, label: string): Promise<string> {
  const href = await cityList(page).getByRole('link', { name: label, exact: true }).getAttribute('href');
  return new URL(href!, 'http://x').searchParams.get('city')!;
}

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

test('map view: markers with counts and the list; a city chosen by its marker, by keyboard and in the list; Back; reload', async ({
  page,
}) => {
  await openHome(page, 'es');
  await switchToMap(page);
  const onMap = await mapShown(page);
  // Each marker shows its count; the list is sorted by count, most first.
  for (const marker of await markers(page).all()) {
    expect(await marker.textContent()).toBe(String(countOf((await marker.getAttribute('aria-label'))!)));
  }
  const listed = await labels(cityLinks(page));
  expect(listed.map(countOf)).toEqual(listed.map(countOf).toSorted((a, b) => b - a));
  const total = listed.reduce((sum, label) => sum + countOf(label), 0);
  await expect(page.getByTestId('listing-map').getByText(countText(total), { exact: true })).toBeVisible();

  // The Asturian cities are too close to tell apart over the whole of Spain: one marker stands for them, and Enter on
  // it zooms in until each has its own (all of them named, all in the list).
  const group = groups(page).first();
  await expect(group).toBeVisible();
  const [inGroup] = groupLabel
    .exec((await group.getAttribute('aria-label'))!)!
    .slice(1)
    .map(Number);
  await group.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await labels(markers(page))).length).toBeGreaterThanOrEqual(onMap.length + inGroup!);
  for (const label of await labels(markers(page))) expect(listed).toContain(label);
  await expect(mapRegion(page)).toBeFocused();
  // Back to the whole of Spain for what follows.
  await page.reload();
  await mapShown(page);

  // By pointer: a city away from the others (outside Asturias), so no neighbour's marker covers it.
  const far = onMap.find((label) => !label.includes('(Asturias)'))!;
  const farId = await cityIdOf(page, far);
  await markers(page)
    .and(page.getByRole('button', { name: far, exact: true }))
    .click();
  await listingOf(page, far, farId);

  // Back: the map again, no city.
  await page.goBack();
  await expect(page).toHaveURL(/\/es\?view=map$/);
  await mapShown(page);

  // By keyboard: a marker focused, then Enter.
  const second = onMap.find((label) => label !== far)!;
  const secondId = await cityIdOf(page, second);
  const marker = markers(page).and(page.getByRole('button', { name: second, exact: true }));
  await marker.focus();
  await expect(marker).toBeFocused();
  await page.keyboard.press('Enter');
  await listingOf(page, second, secondId);
  await page.goBack();
  await mapShown(page);

  // The list alone: a city's link, followed with Enter.
  const link = cityList(page).getByRole('link', { name: far, exact: true });
  await link.focus();
  await page.keyboard.press('Enter');
  await listingOf(page, far, farId);

  // Back to the map and reload: still the map. The bare home opens it too (the saved view).
  await page.goBack();
  await mapShown(page);
  await page.reload();
  await mapShown(page);
  await page.goto('/es');
  await mapShown(page);
  expect(page.url()).not.toContain('view=');
});

// A first visit (no worker yet): the server renders the home as the grid, the app takes over and shows the saved map.
test.describe(() => {
  test.use({ serviceWorkers: 'block' });

  test('a saved map view replaces the server’s grid once the app has taken over, without a hydration warning', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('view', 'map'));
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.text().startsWith('hydration')) problems.push(m.text());
    });
    await page.goto('/es');
    await appReady(page, 'es');
    await mapShown(page);
    await expect(page.getByRole('radio', { name: tr('es', 'listings.viewMap') })).toBeChecked();
    expect(page.url()).not.toContain('view=');
    expect(problems).toEqual([]);
  });
});

test('a search narrows the map; nothing found offers to clear the filters', async ({ page }) => {
  await openHome(page, 'es', '?view=map');
  await mapShown(page);
  const all = await labels(cityLinks(page));
  await page.getByRole('searchbox', { name: tr('es', 'listings.search') }).fill('zzzqqqxxyy');
  await page.getByRole('searchbox', { name: tr('es', 'listings.search') }).press('Enter');
  await expect(page.getByRole('heading', { name: tr('es', 'listings.noResultsTitle') })).toBeVisible();
  await expect(page).toHaveURL(/view=map/);
  await page.getByRole('button', { name: tr('es', 'listings.clearFilters') }).click();
  await expect(page).toHaveURL(/\/es\?view=map$/);
  await mapShown(page);
  expect((await labels(cityLinks(page))).toSorted()).toEqual(all.toSorted());
});

test('the map view has no accessibility violation and fits a 360 px phone, dark and light', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme).catch(() => undefined);
    await openHome(page, 'es', '?view=map');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    await mapShown(page);
    // The map above, the list under it, both the page's width; nothing wider than the phone.
    const map = (await mapRegion(page).boundingBox())!;
    const list = (await cityList(page).boundingBox())!;
    expect(map.width).toBeGreaterThan(300);
    expect(map.height).toBeGreaterThan(200);
    expect(list.y).toBeGreaterThanOrEqual(map.y + map.height);
    expect(map.x + map.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: testInfo.outputPath(`map-view-360-${theme}.png`), fullPage: true });
    await expectNoAxeViolations(page, `map view, ${theme}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await mapShown(page);
  await page.screenshot({ path: testInfo.outputPath('map-view-1280-light.png') });
  await expectNoAxeViolations(page, 'map view, 1280 px');
});

/** Refuses every API request as a dropped network would. */
const refuseApi = (route: Route) => route.abort('internetdisconnected');
const isApi = (url: URL) => url.pathname.startsWith('/api/');

/** Whether the saved query cache holds the map view's answer. */
async function mapAnswerSaved(page: Page): Promise<boolean> {
  return (await savedQueries(page)).some((q) => q.queryKey[0] === 'models' && q.queryKey[1] === 'map');
}

test('the map view after one online visit works offline', async ({ page, context }) => {
  await page.goto('/es?view=map');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await mapShown(page);
  const online = await labels(cityLinks(page));
  // The base map drawn (the embedded boundaries), and the answer kept on the device.
  await expect(mapRegion(page).locator('path').first()).toBeAttached();
  await expect.poll(() => mapAnswerSaved(page)).toBe(true);

  await context.setOffline(true);
  await context.route(isApi, refuseApi);
  const reload = await page.reload();
  expect(reload?.fromServiceWorker()).toBe(true);
  await offlineAgain(context);
  await mapShown(page);
  expect((await labels(cityLinks(page))).toSorted()).toEqual(online.toSorted());
  await expect(mapRegion(page).locator('path').first()).toBeAttached();
  await expect(page.getByTestId('offline-notice')).toHaveText(tr('es', 'common.offline'));
  await context.unroute(isApi, refuseApi);
  await context.setOffline(false);
});
