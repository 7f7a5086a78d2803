/**
 * Issue 29 point 4: the photo queue worked by keyboard only (page.keyboard, no clicks): j/k move, `a` keeps a photo,
 * `r` + a digit + Enter removes one with the rule's statement, `x` + `x` + Shift+A keeps two at once, `?` shows the
 * keys and Escape closes them; a photo another admin decided meanwhile (through the API, in a second session) is
 * skipped and named «decidido por … hace …». Axe on the queue at 360 px and desktop; the help in four languages.
 */
import { expect, request, test, type Page } from '@playwright/test';
import { expectNoAxeViolations, LANGUAGES, presetConsent, submitLogin, tr } from './helpers.ts';

const PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password-123';
const ADMIN = 'admin@vitrina.test';
const SUPER = 'superadmin@vitrina.test';

const items = (page: Page) => page.getByTestId('review-queue-item');
const currentId = (page: Page) => page.locator('[data-testid="review-queue-item"][aria-current="true"]').getAttribute('data-id');

test('staff clear queue items by keyboard only, a colleague’s decision meanwhile is skipped and named', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await presetConsent(page);
  await submitLogin(page, ADMIN, PASSWORD);
  await expect(page).toHaveURL(/\/es\/admin\/dashboard$/);
  await page.goto('/es/admin/review/photos');
  await expect(items(page).first()).toBeVisible();
  const before = await items(page).count();
  // The demo's queue: three photos waiting (the seed's); each is decided below in a different way.
  expect(before).toBeGreaterThanOrEqual(3);

  // Move down and back up; the current item has the focus.
  const first = await currentId(page);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await page.keyboard.press('j');
  const second = await currentId(page);
  expect(second).not.toBe(first);
  await expect(page.locator(`[data-testid="review-queue-item"][data-id="${second}"]`)).toBeFocused();

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
  await expect(page.locator(`[data-testid="review-queue-item"][data-id="${a}"]`)).toHaveCount(0);
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
  await expect(page.locator(`[data-testid="review-queue-item"][data-id="${rejected}"]`)).toHaveCount(0);
  await expect(page.getByTestId('review-announcer')).toContainText('Rechazado');

  // 3. Another admin keeps the current photo meanwhile (API, second session); `a` here skips it with a note.
  const taken = await currentId(page);
  // An API session of its own (not a second window: its focus would refresh this page's queue before the key).
  const other = await request.newContext({ baseURL: test.info().project.use.baseURL });
  const xsrf = async () => decodeURIComponent((await other.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const headers = async () => ({ 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' });
  await other.get('/sanctum/csrf-cookie', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect((await other.post('/api/login', { headers: await headers(), data: { email: SUPER, password: PASSWORD } })).status()).toBe(200);
  const status = (
    await other.post('/api/admin/decisions', {
      headers: await headers(),
      data: { subject_type: 'media', subject_id: Number(taken), action: 'approve', from_queue: true },
    })
  ).status();
  expect(status).toBe(200);
  await other.dispose();
  await page.keyboard.press('a');
  await expect(page.locator(`[data-testid="review-queue-item"][data-id="${taken}"]`)).toHaveCount(0);
  await expect(page.getByTestId('review-skipped')).toContainText(/decidido por .+ hace \d+ s/);
  await expect(page.getByTestId('review-announcer')).toContainText('Saltado');

  await page.screenshot({ path: testInfo.outputPath('review-keyboard-1280.png'), fullPage: true });
  await expectNoAxeViolations(page, 'keyboard queue 1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: testInfo.outputPath('review-keyboard-360.png'), fullPage: true });
  // The queue fits the phone (the page header's own width belongs to the app shell, checked by its specs).
  const widest = await page.evaluate(() =>
    Math.max(...[...document.querySelectorAll('main *')].map((e) => e.getBoundingClientRect().right)),
  );
  expect(widest).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page, 'keyboard queue 360');
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
