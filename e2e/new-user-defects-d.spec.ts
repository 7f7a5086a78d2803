/**
 * Issue 24 section D, what a new user met on the browsing screens: the section chips as one keyboard stop that hints
 * it scrolls on a phone, the gallery's full-screen view, the model page's area map naming the city inside its
 * province's outline, and the offline notice that never covers the page. Visitors only: nothing here changes data.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ModelDetail, ModelList } from '../contract/listings.ts';
import { appReady, offlineAgain, openHome, presetConsent, sectionChips, submitLogin, tr } from './helpers.ts';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const SHOTS = process.env.SHOTS_DIR ?? '/tmp';
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));

/** A listed ad with at least two photos, and its detail. */
async function modelWithPhotos(page: Page): Promise<ModelDetail> {
  const list = (await (await page.request.get('/api/models?per_page=12', { headers: XHR })).json()) as ModelList;
  for (const card of list.data) {
    const detail = ((await (await page.request.get(`/api/models/${card.id}`, { headers: XHR })).json()) as { data: ModelDetail }).data;
    const images = (await (await page.request.get(`/api/getImagesByAd/${card.id}`, { headers: XHR })).json()) as { data: unknown[] };
    if (images.data.length >= 2 && detail.city.latitude !== null) return detail;
  }
  throw new Error('no listed model with two photos');
}

test.beforeEach(async ({ page }) => {
  await presetConsent(page);
});

test('the section chips are one Tab stop: the first card is a few Tabs from the top; arrows move, Enter and Space choose', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openHome(page, 'es');
  const radios = page.getByRole('radiogroup', { name: tr('es', 'home.sections') }).getByRole('radio');

  // From the top of the page, Tab until a card has the focus, counting the stops and the chips among them.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  let tabs = 0;
  let chipStops = 0;
  for (; tabs < 40;) {
    await page.keyboard.press('Tab');
    tabs++;
    const where = await page.evaluate(
      (name) => {
        const el = document.activeElement;
        return {
          card: !!el?.closest('[data-testid="model-card"]'),
          chip: el?.closest('[role="radiogroup"]')?.getAttribute('aria-label') === name,
        };
      },
      tr('es', 'home.sections'),
    );
    if (where.chip) chipStops++;
    if (where.card) break;
  }
  // Before: 17 Tabs, 7 of them the section chips. Issue 28 added two stops on the way: the header's «Favoritas» link
  // and «Guardar búsqueda».
  expect(chipStops).toBe(1);
  expect(tabs).toBeLessThanOrEqual(13);

  // Arrows move the focus through the chips without choosing; Enter chooses.
  await radios.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(radios.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(radios.last()).toBeFocused();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(radios.nth(1)).toBeFocused();
  await expect(page).not.toHaveURL(/section=/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/section=women/);
  await expect(radios.nth(1)).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/section=men/);
  // The new list first settles (it re-renders what follows the chips; a Tab during that was flaky in a full run).
  await expect(radios.nth(2)).toBeChecked();
  await expect(radios.nth(2)).toBeFocused();
  await page.waitForLoadState('networkidle');
  // Back in the group with Shift+Tab from the next stop: the chosen chip has the stop.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(radios.nth(2)).toBeFocused();
});

test('at 360 px the section chips show that they scroll, and the arrow button scrolls them', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await openHome(page, 'es');
  const row = page.getByTestId('chip-scroller');
  const more = page.getByTestId('chip-scroll-end');
  const back = page.getByTestId('chip-scroll-start');
  await expect(more).toBeVisible();
  await expect(back).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/d-home-360.png` });
  await more.click();
  await expect.poll(() => row.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await expect(back).toBeVisible();
  // The keyboard brings a chip beyond the edge into view.
  await sectionChips(page, 'es').first().click();
  const radios = page.getByRole('radiogroup', { name: tr('es', 'home.sections') }).getByRole('radio');
  await radios.first().focus();
  await page.keyboard.press('End');
  await expect(radios.last()).toBeFocused();
  const last = sectionChips(page, 'es').last();
  const [box, view] = await Promise.all([last.boundingBox(), row.boundingBox()]);
  expect(box!.x + box!.width).toBeLessThanOrEqual(view!.x + view!.width + 1);
  await expect(more).toBeHidden();
});

for (const width of [360, 1280]) {
  test(`the gallery opens full screen, moves with the arrows, keeps the focus, and closes with Escape (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const model = await modelWithPhotos(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(`/es/models/${model.id}`);
    await appReady(page, 'es');
    await expect(page.getByRole('heading', { level: 1, name: model.name })).toBeVisible();
    // The viewer's code is not part of the page's first load.
    expect(scripts.filter((u) => u.includes('gallery-viewer'))).toEqual([]);

    const open = page.getByRole('button', { name: tr('es', 'model.gallery.fullScreen') });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: fill(tr('es', 'model.gallery.label'), { name: model.name }) });
    await expect(dialog).toBeVisible();
    const photo = dialog.getByRole('img', { name: fill(tr('es', 'model.gallery.photoAlt'), { n: 1, name: model.name }) });
    await expect(photo).toBeVisible();
    // Full screen: the photo takes most of the screen's width or height.
    const box = (await photo.boundingBox())!;
    expect(Math.max(box.width / width, box.height / 800)).toBeGreaterThan(0.7);
    await page.screenshot({ path: `${SHOTS}/d-viewer-${width}.png` });

    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByRole('img', { name: fill(tr('es', 'model.gallery.photoAlt'), { n: 2, name: model.name }) })).toBeVisible();
    await expect(dialog.getByTestId('viewer-counter')).toHaveText(/^2 \//);
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.getByTestId('viewer-counter')).toHaveText(/^1 \//);
    // The focus stays inside the dialog, however often Tab is pressed.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await expect(dialog.getByRole('button', { name: tr('es', 'common.close') })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });
}

for (const width of [360, 1280]) {
  test(`the area map shows the city's province outline and its name at city zoom (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const model = await modelWithPhotos(page);
    await page.goto(`/es/models/${model.id}`);
    await appReady(page, 'es');
    const area = page.getByTestId('model-area');
    await area.scrollIntoViewIfNeeded();
    const map = page.getByRole('region', { name: fill(tr('es', 'model.area.mapLabel'), { city: model.city.name }) });
    await expect(map.locator('.leaflet-overlay-pane path')).toHaveCount(1);
    // The province around the city, named like the page names it ("Oviedo, Asturias"), is drawn on the base map…
    const province = map.locator('.leaflet-base-pane path[data-province]');
    await expect(province).toHaveCount(1);
    const name = (await province.getAttribute('data-province'))!;
    expect(name.split('/').some((n) => model.state?.includes(n) || n.includes(model.state ?? '\u0000'))).toBe(true);
    // …and the city's name is written on it, under the area.
    await expect(map.locator('.leaflet-marker-pane')).toHaveText(model.city.name);
    await page.waitForTimeout(300);
    await area.screenshot({ path: `${SHOTS}/d-area-${width}.png` });
  });
}

test('offline at 360 px, the notice pushes the model page down and never covers «Volver al listado»', async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const model = await modelWithPhotos(page);
  await page.goto(`/es/models/${model.id}`);
  await appReady(page, 'es');
  await expect(page.getByRole('heading', { level: 1, name: model.name })).toBeVisible();
  await context.setOffline(true);
  await offlineAgain(context);
  await expect(page.getByTestId('offline-notice')).toHaveText(tr('es', 'common.offline'));
  const back = page.getByTestId('back-to-listing');
  for (const y of [0, 10, 20, 30, 40, 50, 60, 70, 80]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    const [banner, link] = await Promise.all([page.getByTestId('offline-notice').boundingBox(), back.boundingBox()]);
    const overlaps = !!banner && !!link && banner.height > 0 && link.y < banner.y + banner.height && banner.y < link.y + link.height;
    expect(overlaps, `scrolled ${y}px: notice ${JSON.stringify(banner)}, link ${JSON.stringify(link)}`).toBe(false);
  }
  // Scrolled further down, the header's icon still says the page is offline.
  await expect(page.getByTestId('offline-indicator')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/d-offline-360.png` });
  await context.setOffline(false);
});

test("the staff inbox's filter chips are one Tab stop too: arrows move, Enter chooses", async ({ page }) => {
  await submitLogin(page, 'admin@vitrina.test', 'demo-password-123');
  await expect(page).toHaveURL(/\/es\/admin\/dashboard$/);
  await page.goto('/es/messenger');
  await appReady(page, 'es');
  const group = page.getByRole('radiogroup', { name: tr('es', 'messenger.staff.filterLabel') });
  const radios = group.getByRole('radio');
  // The radios are drawn as chips (their labels); the inputs themselves are hidden.
  await expect(group.locator('label').first()).toBeVisible();
  const count = await radios.count();
  expect(count).toBeGreaterThan(1);
  // One radio in the tab order (tabindex 0), the chosen one; the others are reached with the arrows.
  expect(await radios.evaluateAll((els) => els.filter((e) => (e as HTMLElement).tabIndex === 0).length)).toBe(1);
  const chosen = group.locator('input:checked');
  await chosen.focus();
  const start = await radios.evaluateAll((els) => els.findIndex((e) => e === document.activeElement));
  await page.keyboard.press('ArrowRight');
  await expect(radios.nth((start + 1) % count)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(radios.nth((start + 1) % count)).toBeChecked();
  await expect(page).toHaveURL(/filter=/);
});
