/**
 * Issue 29 point 4: the photo queue cleared by keyboard only (page.keyboard, no clicks): five photos wait — the demo's
 * three and two a fresh model uploads first (her own account, so no demo account changes for later specs) — and all
 * five leave the queue by j/k, `?`/Escape, `x` + Shift+A, `r` + a digit + Enter, `x` + `x` + Shift+R + a digit + Enter
 * and `a`; one of them another admin decides meanwhile (the API, a second session): the staff broadcast refetches the
 * queue at once, and while that refetch is held `a` on it is skipped and named «decidido por … hace …». Axe and a
 * screenshot at desktop and at 360 px, where the keys keep working. The verification queue is the same keyboard queue.
 * The help in four languages.
 */
import { expect, request, test, type Browser, type Page, type Route } from '@playwright/test';
import sharp from 'sharp';
import { expectNoAxeViolations, LANGUAGES, presetConsent, submitLogin, tr } from './helpers.ts';
import { registerVerified } from './accounts-api.ts';
import { fillModelForm } from './model-form.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const NEW_PASSWORD = 'una contraseña larga 42';
const ADMIN = 'admin@vitrina.test';
const SUPER = 'superadmin@vitrina.test';
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

const items = (page: Page) => page.getByTestId('review-queue-item');
const currentId = (page: Page) => page.locator('[data-testid="review-queue-item"][aria-current="true"]').getAttribute('data-id');
const itemById = (page: Page, id: string | null) => page.locator(`[data-testid="review-queue-item"][data-id="${id}"]`);

/** A photo of its own (noise over a gradient, seeded): the five queue photos do not match each other. */
async function photo(seed: number): Promise<Buffer> {
  const width = 900;
  const height = 1100;
  const raw = Buffer.alloc(width * height * 3);
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 100 - 50;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const band = Math.sin((x + seed * 97) / (60 + seed * 7)) * 60;
      raw[i] = Math.max(0, Math.min(255, 100 + band + (x / width) * 80 + rand()));
      raw[i + 1] = Math.max(0, Math.min(255, 90 - band + (y / height) * 90 + rand()));
      raw[i + 2] = Math.max(0, Math.min(255, 130 + rand()));
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A model registered for this spec, with her profile and ad, who uploads two photos: two more items for staff. */
async function twoMorePhotos(browser: Browser, baseURL: string | undefined): Promise<void> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await presetConsent(page);
  const email = `cola-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await registerVerified(page, { email, name: 'Modelo Cola', password: NEW_PASSWORD, role: 'model' });
  const xsrf = async () => decodeURIComponent((await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  await page.goto('/es/profile/model/create');
  await fillModelForm(page, {
    name: 'Irene',
    birthDate: '1994-04-04',
    phone: '612 55 44 71',
    state: 'Asturias',
    city: 'Gijón',
    section: 'Mujeres',
    title: 'Modelo de moda en Gijón',
    description: 'Fotografía de moda y catálogo en Gijón. Estudio y exteriores por Asturias, disponibilidad entre semana.',
  });
  await expect(page.getByRole('heading', { level: 2, name: tr('es', 'modelProfile.steps.photos') })).toBeVisible();
  const profile = await page.request.get('/api/profile/model', { headers: XHR });
  const adId = ((await profile.json()) as { data: { ad: { id: number } } }).data.ad.id;
  const upload = await page.request.post('/api/upload/images', {
    headers: { ...XHR, 'X-XSRF-TOKEN': await xsrf() },
    multipart: {
      ad_id: String(adId),
      images: { name: 'uno.jpg', mimeType: 'image/jpeg', buffer: await photo(11) },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const second = await page.request.post('/api/upload/images', {
    headers: { ...XHR, 'X-XSRF-TOKEN': await xsrf() },
    multipart: {
      ad_id: String(adId),
      images: { name: 'dos.jpg', mimeType: 'image/jpeg', buffer: await photo(23) },
    },
  });
  expect(second.status(), await second.text()).toBe(201);
  await context.close();
}

/** Another admin decides photo `id` through the API in a session of its own (not a window: its focus would refresh). */
async function colleagueKeeps(id: string | null): Promise<void> {
  const other = await request.newContext({ baseURL: test.info().project.use.baseURL });
  const xsrf = async () => decodeURIComponent((await other.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const headers = async () => ({ ...XHR, 'X-XSRF-TOKEN': await xsrf() });
  await other.get('/sanctum/csrf-cookie', { headers: XHR });
  expect((await other.post('/api/login', { headers: await headers(), data: { email: SUPER, password: PASSWORD } })).status()).toBe(200);
  const res = await other.post('/api/admin/decisions', {
    headers: await headers(),
    data: { subject_type: 'media', subject_id: Number(id), action: 'approve', from_queue: true },
  });
  expect(res.status()).toBe(200);
  await other.dispose();
}

/** The queue's content fits the phone (the page header's own width belongs to the app shell, checked by its specs). */
async function fits360(page: Page) {
  const widest = await page.evaluate(() =>
    Math.max(...[...document.querySelectorAll('main *')].map((e) => e.getBoundingClientRect().right)),
  );
  expect(widest).toBeLessThanOrEqual(360);
}

test('staff clear a queue of five photos by keyboard only; a colleague’s decision meanwhile is skipped and named', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  await twoMorePhotos(browser, testInfo.project.use.baseURL);
  await presetConsent(page);
  await submitLogin(page, ADMIN, PASSWORD);
  await expect(page).toHaveURL(/\/es\/admin\/dashboard$/);
  await page.goto('/es/admin/review/photos');
  await expect(items(page).first()).toBeVisible();
  // The demo's three waiting photos and the fresh model's two (a full run's earlier specs may have left more).
  await expect.poll(() => items(page).count()).toBeGreaterThanOrEqual(5);
  const before = await items(page).count();
  await page.screenshot({ path: testInfo.outputPath('review-keyboard-five-1280.png'), fullPage: true });
  await expectNoAxeViolations(page, 'keyboard queue 1280');

  // Move down and back up; the current item has the focus.
  const first = await currentId(page);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await page.keyboard.press('j');
  const second = await currentId(page);
  expect(second).not.toBe(first);
  await expect(itemById(page, second)).toBeFocused();

  // `?` shows the keys; Escape closes the dialog; keys are ignored while it is open.
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: tr('es', 'reviewQueue.help.title') });
  await expect(help).toBeVisible();
  await page.keyboard.press('j');
  expect(await currentId(page)).toBe(second);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // 1. `x` selects the current photo, Shift+A keeps the selection.
  const a = await currentId(page);
  await page.keyboard.press('x');
  await expect(page.getByTestId('review-announcer')).toContainText('1');
  await page.keyboard.press('Shift+A');
  await expect(itemById(page, a)).toHaveCount(0);
  await expect(page.getByTestId('review-announcer')).toContainText('Aprobado');

  // 2. `r`, digit 7 (photo rules), Enter: removed with the rule's statement.
  const rejected = await currentId(page);
  await page.keyboard.press('r');
  const picker = page.getByRole('dialog');
  await expect(picker).toBeVisible();
  await page.keyboard.press('7');
  await expect(picker.getByRole('radio', { name: `7. ${tr('es', 'statements.grounds.photo_rules')}`, exact: true })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();
  await expect(itemById(page, rejected)).toHaveCount(0);
  await expect(page.getByTestId('review-announcer')).toContainText('Rechazado');

  // 3. Another admin keeps the current photo meanwhile. The staff channel's broadcast makes this queue refetch at once
  // (live queues): that refetch is held here, as a slow network would, so the photo is still on screen when `a` is
  // pressed — the server's 409 skips it with a note naming the colleague. Then the refetch lands.
  const taken = await currentId(page);
  const held: Route[] = [];
  const queueRequests = /\/api\/admin\/photos(\?|$)/;
  await page.route(queueRequests, (route) => void held.push(route));
  await colleagueKeeps(taken);
  await expect.poll(() => held.length, { message: 'the broadcast refetches the queue' }).toBeGreaterThan(0);
  await expect(itemById(page, taken)).toHaveCount(1);
  await page.keyboard.press('a');
  await expect(itemById(page, taken)).toHaveCount(0);
  await expect(page.getByTestId('review-skipped')).toContainText(/decidido por .+ (hace \d+ s|ahora)/);
  await expect(page.getByTestId('review-announcer')).toContainText('Saltado');
  // Held refetches go on (one the page has cancelled meanwhile, superseded by a newer one, is already settled).
  for (const route of held.splice(0)) await route.continue().catch(() => undefined);
  await page.unroute(queueRequests);

  // At 360 px the keys go on: the queue fits, axe is clean.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: testInfo.outputPath('review-keyboard-360.png'), fullPage: true });
  await fits360(page);
  await expectNoAxeViolations(page, 'keyboard queue 360');

  // 4. `x` on the current photo, `j`, `x` on the next, Shift+R, digit 7, Enter: both removed at once.
  const remaining = before - 3;
  expect(await items(page).count()).toBe(remaining);
  // From the top of the queue (after a decision the current item is the next one, possibly the last).
  for (let i = 0; i < remaining; i++) await page.keyboard.press('k');
  const p4 = await currentId(page);
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  const p5 = await currentId(page);
  expect(p5).not.toBe(p4);
  await page.keyboard.press('x');
  await expect(page.getByTestId('review-announcer')).toContainText('2');
  await page.keyboard.press('Shift+R');
  const bulk = page.getByRole('dialog');
  await expect(bulk).toBeVisible();
  await page.keyboard.press('7');
  await page.keyboard.press('Enter');
  await expect(bulk).toBeHidden();
  await expect(itemById(page, p4)).toHaveCount(0);
  await expect(itemById(page, p5)).toHaveCount(0);

  // 5. Whatever still waits is kept with `a`, one at a time, until the queue is empty.
  for (let left = remaining - 2; left > 0; left--) {
    const id = await currentId(page);
    await page.keyboard.press('a');
    await expect(itemById(page, id)).toHaveCount(0);
  }
  await expect(items(page)).toHaveCount(0);
  // The refetch finds nothing waiting: the page says so.
  await expect(page.getByText(tr('es', 'admin.list.empty'))).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('review-keyboard-cleared-360.png'), fullPage: true });
  await expectNoAxeViolations(page, 'cleared queue 360');
});

test('the verification queue is the same keyboard queue, each selfie with its matches', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await presetConsent(page);
  await submitLogin(page, ADMIN, PASSWORD);
  await expect(page).toHaveURL(/\/es\/admin\/dashboard$/);
  await page.goto('/es/admin/review/verifications');
  // The demo's waiting selfie (Sara's): the current item of a keyboard queue, not decided here (other specs use it).
  await expect(items(page).first()).toBeVisible();
  await expect(page.locator('[data-testid="review-queue-item"][aria-current="true"]')).toHaveCount(1);
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: tr('es', 'reviewQueue.help.title') });
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('r');
  const picker = page.getByRole('dialog');
  await expect(picker).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(items(page).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('verification-queue-1280.png'), fullPage: true });
  await expectNoAxeViolations(page, 'verification queue 1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: testInfo.outputPath('verification-queue-360.png'), fullPage: true });
  await fits360(page);
  await expectNoAxeViolations(page, 'verification queue 360');
});

test('the keys’ help in the four languages', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await presetConsent(page);
  await submitLogin(page, ADMIN, PASSWORD);
  await expect(page).toHaveURL(/\/es\/admin\/dashboard$/);
  for (const lng of LANGUAGES) {
    await page.goto(`/${lng}/admin/review/photos`);
    // Whether or not photos still wait (the other test may have cleared them), the queue's keys work.
    await expect(page.getByRole('button', { name: tr(lng, 'reviewQueue.buttons.help') })).toBeVisible();
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: tr(lng, 'reviewQueue.help.title') });
    await expect(help).toBeVisible();
    await expect(help).toContainText(tr(lng, 'reviewQueue.help.keys.approveSelected'));
    await expect(help).not.toContainText('reviewQueue.');
    await page.screenshot({ path: testInfo.outputPath(`review-help-${lng}.png`) });
    await expectNoAxeViolations(page, `help ${lng}`);
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
  }
});
